//! The server's `launch` and `attach` arguments: a `.java` file (compiled
//! by the server with `-g`), a `.jar`, a Maven project directory (built with
//! `mvn -q compile`, its classpath from the dependency plugin), or a main
//! class given as a module, found on CLASSPATH or in the working directory.

use std::path::Path;

use serde_json::{Value, json};

use crate::adapters::{AdapterError, LaunchSpec, Target};

/// Options for the JVM, where the user set them for `java` itself: passed
/// as `vmArgs` so `java` does not announce it picked them up.
const JVM_OPTIONS: &str = "JDK_JAVA_OPTIONS";

pub fn start_arguments(spec: &LaunchSpec) -> Result<(&'static str, Value), AdapterError> {
    let mut env = serde_json::Map::new();
    let mut vm_args: Vec<String> = vec![];
    for (k, v) in &spec.env {
        if k == JVM_OPTIONS {
            vm_args.extend(v.split_whitespace().map(str::to_string));
        } else {
            env.insert(k.clone(), Value::String(v.clone()));
        }
    }
    let source_paths = vec![spec.workspace.join("src/main/java"), spec.workspace.clone()];
    let mut args = json!({
        "request": "launch",
        "cwd": spec.cwd,
        "args": spec.args,
        "env": env,
        "vmArgs": vm_args,
        "sourcePaths": source_paths,
    });
    match &spec.target {
        Target::Remote(r) => {
            return Ok((
                "attach",
                json!({"request": "attach", "hostName": r.host, "port": r.port,
                       "sourcePaths": source_paths}),
            ));
        }
        Target::Attach(pid) => {
            return Err(AdapterError::Unsupported(format!(
                "a JVM is attached to by its JDWP port, not by its pid {pid}: start it with \
                 -agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:5005 \
                 and attach to 127.0.0.1:5005"
            )));
        }
        Target::Core { .. } => {
            return Err(AdapterError::Unsupported(
                "a JVM leaves no core file the JDI server can read: open a C, C++, Rust or Go program's core"
                    .into(),
            ));
        }
        Target::Module(main_class) => {
            args["mainClass"] = json!(main_class);
            if is_maven_project(&spec.cwd) {
                args["mavenProject"] = json!(spec.cwd);
            } else if !spec.env.iter().any(|(k, _)| k == "CLASSPATH") {
                args["classPaths"] = json!([spec.cwd]);
            }
        }
        Target::Program(p) => match kind(p) {
            Some(Kind::Maven) => args["mavenProject"] = json!(p),
            Some(Kind::Source) => args["sourceFile"] = json!(p),
            Some(Kind::Jar) => args["jar"] = json!(p),
            // The server refuses it with the reason, so that listing the
            // adapter's capabilities, which spawns it for no program, works.
            None => args["program"] = json!(p),
        },
    }
    Ok(("launch", args))
}

enum Kind {
    Maven,
    Source,
    Jar,
}

fn kind(p: &Path) -> Option<Kind> {
    if is_maven_project(p) {
        return Some(Kind::Maven);
    }
    match p.extension().and_then(|e| e.to_str()) {
        Some("java") => Some(Kind::Source),
        Some("jar") => Some(Kind::Jar),
        _ => None,
    }
}

pub fn is_maven_project(dir: &Path) -> bool {
    dir.is_dir() && dir.join("pom.xml").is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_form_becomes_its_launch() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("pom.xml"), "<project/>").unwrap();
        let mut spec = LaunchSpec::for_workspace(dir.path());
        let (req, a) = start_arguments(&spec).unwrap();
        assert_eq!(
            (req, a["mavenProject"].as_str()),
            ("launch", dir.path().to_str())
        );
        spec.target = Target::Program(dir.path().join("Main.java"));
        assert!(start_arguments(&spec).unwrap().1["sourceFile"].is_string());
        spec.target = Target::Program(dir.path().join("app.jar"));
        assert!(start_arguments(&spec).unwrap().1["jar"].is_string());
        spec.target = Target::Module("shop.Main".into());
        spec.env = vec![("JDK_JAVA_OPTIONS".into(), "-Xmx64m -ea".into())];
        let (_, a) = start_arguments(&spec).unwrap();
        assert_eq!(a["mainClass"], "shop.Main");
        assert_eq!(a["vmArgs"], json!(["-Xmx64m", "-ea"]));
        assert!(a["env"].get("JDK_JAVA_OPTIONS").is_none());
        spec.target = Target::Program(dir.path().join("notes.txt"));
        assert!(start_arguments(&spec).unwrap().1["program"].is_string());
        spec.target = Target::Attach(42);
        assert!(
            start_arguments(&spec)
                .unwrap_err()
                .to_string()
                .contains("JDWP")
        );
    }
}
