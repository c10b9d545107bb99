//! Launch configurations from VS Code's `.vscode/launch.json` (JSONC), with
//! `${workspaceFolder}`, `${file}` and `${env:X}` substituted.

use std::path::Path;

use serde_json::Value;

use super::build::{BuildCommandRequest, BuildRequest, CargoPick};
use super::config::LaunchRequest;
use crate::adapters;

pub const PATH: &str = ".vscode/launch.json";

/// The configuration `name`, or the first launch configuration of a type
/// pairdbg runs when no name is given. `Ok(None)`: there is no launch.json and none was asked for.
pub fn load(
    workspace: &Path,
    name: Option<&str>,
    file: Option<&str>,
) -> Result<Option<LaunchRequest>, String> {
    let path = workspace.join(PATH);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(_) if name.is_none() => return Ok(None),
        Err(e) => return Err(format!("--config: cannot read {}: {e}", path.display())),
    };
    from_text(&text, workspace, name, file)
}

/// As `load`, for the launch.json text already read.
pub fn from_text(
    text: &str,
    workspace: &Path,
    name: Option<&str>,
    file: Option<&str>,
) -> Result<Option<LaunchRequest>, String> {
    let doc: Value = jsonc_parser::parse_to_serde_value(text, &Default::default())
        .map_err(|e| format!("{PATH}: {e}"))?;
    let configs = doc
        .get("configurations")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let adapter = |c: &Value| {
        let t = c.get("type").and_then(Value::as_str)?;
        // cppdbg runs gdb or lldb, as its MIMode says.
        match c.get("MIMode").and_then(Value::as_str) {
            Some(mode) if t == "cppdbg" => adapters::by_name(mode),
            _ => adapters::for_launch_json_type(t),
        }
    };
    // A core file is opened by an `attach` (lldb-dap, gdb) or a `launch`
    // (vscode-go's `mode: core`, cppdbg).
    // An attach runs where the type says which debug server it reaches.
    let is_attach = |c: &Value| c.get("request").and_then(Value::as_str) == Some("attach");
    let runnable = |c: &Value| {
        adapter(c).is_some_and(|a| {
            c.get("request").and_then(Value::as_str).unwrap_or("launch") == "launch"
                || core_file(c).is_some()
                || (is_attach(c) && a.launch_json_attach(c).is_some())
        })
    };
    let chosen = match name {
        Some(n) => configs
            .iter()
            .find(|c| c.get("name").and_then(Value::as_str) == Some(n))
            .ok_or_else(|| {
                let names: Vec<&str> = configs
                    .iter()
                    .filter_map(|c| c.get("name").and_then(Value::as_str))
                    .collect();
                format!("--config: {PATH} has no configuration {n:?}; it has {names:?}")
            })?,
        None => match configs.iter().find(|c| runnable(c)) {
            Some(c) => c,
            None => return Ok(None),
        },
    };
    let Some(adapter) = adapter(chosen).filter(|_| runnable(chosen)) else {
        let types: Vec<&str> = adapters::all()
            .iter()
            .flat_map(|a| a.launch_json_types())
            .copied()
            .collect();
        return Err(format!(
            "--config: {:?} is a {} {} configuration; pairdbg launches these types: {}",
            chosen.get("name").and_then(Value::as_str).unwrap_or("?"),
            chosen
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("untyped"),
            chosen
                .get("request")
                .and_then(Value::as_str)
                .unwrap_or("launch"),
            types.join(", ")
        ));
    };
    let mut c = chosen.clone();
    substitute(&mut c, workspace, file)?;
    let s = |k: &str| c.get(k).and_then(Value::as_str).map(str::to_string);
    let args = match c.get("args") {
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| {
                x.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| x.to_string())
            })
            .collect(),
        Some(Value::String(one)) => one.split_whitespace().map(str::to_string).collect(),
        _ => vec![],
    };
    let text = |v: &Value| {
        v.as_str()
            .map(str::to_string)
            .unwrap_or_else(|| v.to_string())
    };
    // An object (most types), or cppdbg's list of {name, value}.
    let env = match c.get("env").or_else(|| c.get("environment")) {
        Some(Value::Object(m)) => m.iter().map(|(k, v)| (k.clone(), text(v))).collect(),
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|e| Some((e.get("name")?.as_str()?.to_string(), text(e.get("value")?))))
            .collect(),
        _ => vec![],
    };
    let python = match c.get("python") {
        Some(Value::String(p)) => Some(p.clone()),
        Some(Value::Array(a)) => a.first().and_then(Value::as_str).map(str::to_string),
        _ => None,
    };
    let tty = super::tty::from_launch_json(&c).map_err(|e| format!("{PATH}: {e}"))?;
    let build = build(&c, workspace, file)?;
    let cargo = build.as_ref().is_some_and(|b| b.cargo);
    let mut env = env;
    env.extend(adapter.launch_json_env(&c));
    let remote = match adapter.launch_json_attach(&c) {
        Some(words) if is_attach(&c) && core_file(&c).is_none() => {
            let (host, port) = words.map_err(|e| format!("{PATH}: {e}"))?;
            Some(super::remote::RemoteRequest {
                host: Some(host),
                port: Some(u32::from(port)),
                path_mappings: vec![],
            })
        }
        _ => None,
    };
    // The debug server runs the program: an attach names none.
    let attached = remote.is_some();
    Ok(Some(LaunchRequest {
        build,
        program: s("program").filter(|_| !attached),
        module: s(adapter.launch_json_module_key()).filter(|_| !attached),
        remote: remote.unwrap_or_default(),
        args,
        cwd: s("cwd"),
        env,
        // CodeLLDB's cargo form builds Rust.
        language: match cargo {
            true => Some("rust".to_string()),
            false => adapter.languages().first().map(|l| l.to_string()),
        },
        // The type names the adapter, whatever the language's first choice.
        adapter: Some(adapter.name().to_string()),
        python,
        stop_on_entry: c
            .get("stopOnEntry")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        breakpoints: vec![],
        exception_filters: None,
        attach: None,
        core: core_file(&c),
        just_my_code: c.get("justMyCode").and_then(Value::as_bool),
        subprocesses: c.get("subProcess").and_then(Value::as_bool),
        // vscode-go's form: one string, or a list of flags.
        build_flags: match c.get("buildFlags") {
            Some(Value::Array(a)) => Some(a.iter().map(text).collect::<Vec<_>>().join(" ")),
            Some(v) => Some(text(v)),
            None => None,
        },
        tty,
        ..Default::default()
    }))
}

/// The core file a configuration opens, by each adapter's name for it.
fn core_file(c: &Value) -> Option<String> {
    ["coreFile", "coreFilePath", "coreDumpPath"]
        .iter()
        .find_map(|k| c.get(*k).and_then(Value::as_str))
        .map(str::to_string)
}

/// The configuration's build: its `preLaunchTask`, then CodeLLDB's
/// `cargo` form, whose program is the executable cargo names.
fn build(c: &Value, workspace: &Path, file: Option<&str>) -> Result<Option<BuildRequest>, String> {
    let mut b = BuildRequest {
        field: "preLaunchTask".into(),
        ..Default::default()
    };
    if let Some(label) = c.get("preLaunchTask").and_then(Value::as_str) {
        b.commands = super::tasks_json::commands(workspace, label, file)?;
    }
    if let Some(cargo) = c.get("cargo") {
        let strings = |v: Option<&Value>| -> Vec<String> {
            v.and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        let args = strings(cargo.get("args"));
        let filter = |k: &str| {
            cargo
                .pointer(&format!("/filter/{k}"))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        if args.is_empty() {
            return Err(format!(
                "{PATH}: cargo.args is empty; give the cargo command, e.g. [\"build\", \"--bin=app\"]"
            ));
        }
        let env = match cargo.get("env") {
            Some(Value::Object(m)) => m
                .iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                .collect(),
            _ => vec![],
        };
        b.commands.push(BuildCommandRequest {
            label: format!("cargo {}", args.join(" ")),
            program: "cargo".into(),
            args,
            cwd: cargo.get("cwd").and_then(Value::as_str).map(str::to_string),
            env,
            cargo: Some(CargoPick {
                name: filter("name"),
                kind: filter("kind"),
            }),
        });
        b.cargo = true;
        b.field = "cargo".into();
    }
    Ok((!b.commands.is_empty()).then_some(b))
}

pub(super) fn substitute(
    v: &mut Value,
    workspace: &Path,
    file: Option<&str>,
) -> Result<(), String> {
    match v {
        Value::String(s) => *s = substitute_str(s, workspace, file)?,
        Value::Array(a) => a
            .iter_mut()
            .try_for_each(|x| substitute(x, workspace, file))?,
        Value::Object(m) => m
            .values_mut()
            .try_for_each(|x| substitute(x, workspace, file))?,
        _ => {}
    }
    Ok(())
}

fn substitute_str(s: &str, workspace: &Path, file: Option<&str>) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('}') else {
            return Err(format!("{PATH}: an unclosed ${{ in {s:?}"));
        };
        let var = &rest[start + 2..start + end];
        let value = match var {
            "workspaceFolder" | "workspaceRoot" | "cwd" => workspace.display().to_string(),
            "workspaceFolderBasename" => workspace
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default(),
            "file" => file
                .map(str::to_string)
                .ok_or_else(|| format!("{PATH}: {s:?} uses ${{file}}; name the file after --"))?,
            "pathSeparator" => "/".into(),
            v if v.starts_with("env:") => std::env::var(&v[4..]).unwrap_or_default(),
            other => {
                return Err(format!(
                    "{PATH}: ${{{other}}} is not a variable pairdbg knows"
                ));
            }
        };
        out.push_str(&value);
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LAUNCH: &str = r#"{
        // VS Code writes comments and trailing commas.
        "version": "0.2.0",
        "configurations": [
            {"name": "Browser", "type": "chrome", "request": "launch", "url": "http://localhost"},
            {
                "name": "Run app",
                "type": "python",
                "request": "launch",
                "program": "${workspaceFolder}/app.py",
                "args": ["--user", "${env:PAIRDBG_TEST_USER}"],
                "cwd": "${workspaceFolder}",
                "env": {"MODE": "test"},
                "stopOnEntry": true,
            },
            {"name": "Current file", "type": "python", "request": "launch", "program": "${file}"},
            {"name": "Server", "type": "go", "request": "launch", "mode": "debug", "program": "${workspaceFolder}/cmd/server", "env": {"PORT": "8080"}},
            {"name": "Native", "type": "cppdbg", "request": "launch", "program": "${workspaceFolder}/build/app", "environment": [{"name": "MODE", "value": "x"}]},
            {"name": "Native gdb", "type": "cppdbg", "MIMode": "gdb", "request": "launch", "program": "${workspaceFolder}/build/app"},
            {"name": "Rust gdb", "type": "gdb", "request": "launch", "program": "${workspaceFolder}/target/debug/app"},
            {"name": "Attach", "type": "python", "request": "attach", "processId": 42},
            {"name": "Node", "type": "pwa-node", "request": "launch", "program": "${workspaceFolder}/x.js"},
            {"name": "Java attach", "type": "java", "request": "attach", "hostName": "127.0.0.1", "port": 5005, "mainClass": "shop.Main"},
            {"name": "Java attach, no port", "type": "java", "request": "attach", "hostName": "127.0.0.1"},
            {"name": "Java", "type": "java", "request": "launch", "mainClass": "shop.Main", "projectName": "shop", "classPaths": ["${workspaceFolder}/classes", "lib/x.jar"], "vmArgs": "-Xmx64m -ea", "args": ["a"]},
            {"name": "Cargo", "type": "lldb", "request": "launch", "cargo": {"args": ["build", "--bin=inv"], "env": {"X": "1"}, "filter": {"kind": "bin"}}},
        ],
    }"#;

    fn ws() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join(".vscode")).unwrap();
        std::fs::write(d.path().join(PATH), LAUNCH).unwrap();
        d
    }

    #[test]
    fn reads_jsonc_and_substitutes() {
        let d = ws();
        let r = load(d.path(), Some("Run app"), None).unwrap().unwrap();
        assert_eq!(
            r.program.as_deref(),
            Some(format!("{}/app.py", d.path().display()).as_str())
        );
        assert_eq!(r.args[0], "--user");
        assert_eq!(r.env, vec![("MODE".to_string(), "test".to_string())]);
        assert!(r.stop_on_entry);
        // With no name, the first Python configuration.
        assert_eq!(
            load(d.path(), None, None).unwrap().unwrap().program,
            r.program
        );
    }

    #[test]
    fn other_languages_map_onto_their_adapters() {
        let d = ws();
        let r = load(d.path(), Some("Server"), None).unwrap().unwrap();
        assert_eq!(r.language.as_deref(), Some("go"));
        assert_eq!(
            r.program.as_deref(),
            Some(format!("{}/cmd/server", d.path().display()).as_str())
        );
        assert_eq!(r.env, vec![("PORT".to_string(), "8080".to_string())]);
        // cppdbg lists its environment as {name, value} pairs.
        match load(d.path(), Some("Native"), None) {
            Ok(Some(r)) => {
                assert_eq!(r.env, vec![("MODE".to_string(), "x".to_string())]);
                assert!(r.language.is_some());
            }
            Err(e) => assert!(e.contains("cppdbg launch configuration"), "{e}"),
            Ok(None) => panic!("a named configuration is found"),
        }
        // cppdbg with MIMode gdb, and type gdb, run on gdb; plain cppdbg on
        // C's own adapter.
        let c_default = crate::adapters::for_language("c").unwrap().name();
        for (name, adapter) in [
            ("Native gdb", "gdb"),
            ("Rust gdb", "gdb"),
            ("Native", c_default),
        ] {
            let r = load(d.path(), Some(name), None).unwrap().unwrap();
            assert_eq!(r.adapter.as_deref(), Some(adapter), "{name}");
        }
        let e = load(d.path(), Some("Attach"), None).unwrap_err();
        assert!(e.contains("python attach configuration"), "{e}");
        let r = load(d.path(), Some("Java"), None).unwrap().unwrap();
        assert_eq!(r.language.as_deref(), Some("java"));
        assert_eq!(r.module.as_deref(), Some("shop.Main"));
        assert_eq!(r.args, vec!["a".to_string()]);
        assert!(r.env.contains(&(
            "CLASSPATH".to_string(),
            format!("{}/classes:lib/x.jar", d.path().display())
        )));
        assert!(
            r.env
                .contains(&("JDK_JAVA_OPTIONS".to_string(), "-Xmx64m -ea".to_string()))
        );
        // vscode-java's attach reaches the JVM's JDWP port; the JVM runs
        // the program, so no main class is launched.
        let r = load(d.path(), Some("Java attach"), None).unwrap().unwrap();
        assert_eq!(r.remote.host.as_deref(), Some("127.0.0.1"));
        assert_eq!(r.remote.port, Some(5005));
        assert_eq!(r.module, None);
        assert_eq!(r.language.as_deref(), Some("java"));
        let e = load(d.path(), Some("Java attach, no port"), None).unwrap_err();
        assert!(e.contains(".vscode/launch.json: port: missing"), "{e}");
        let r = load(d.path(), Some("Node"), None).unwrap().unwrap();
        assert_eq!(r.language.as_deref(), Some("node"));
        assert_eq!(
            r.program.as_deref(),
            Some(format!("{}/x.js", d.path().display()).as_str())
        );
    }

    #[test]
    fn the_cargo_form_builds_and_names_no_program() {
        let d = ws();
        let r = load(d.path(), Some("Cargo"), None).unwrap().unwrap();
        assert_eq!(r.program, None);
        assert_eq!(r.language.as_deref(), Some("rust"));
        let b = r.build.expect("a build");
        assert!(b.cargo);
        assert_eq!(b.commands[0].program, "cargo");
        assert_eq!(b.commands[0].args, vec!["build", "--bin=inv"]);
        assert_eq!(b.commands[0].env, vec![("X".to_string(), "1".to_string())]);
        let pick = b.commands[0]
            .cargo
            .clone()
            .expect("cargo's executable is the program");
        assert_eq!(pick.kind.as_deref(), Some("bin"));
        assert_eq!(pick.name, None);
    }

    #[test]
    fn errors_name_what_is_wrong() {
        let d = ws();
        let e = load(d.path(), Some("Nope"), None).unwrap_err();
        assert!(e.contains("\"Run app\""), "{e}");
        let e = load(d.path(), Some("Browser"), None).unwrap_err();
        assert!(e.contains("chrome launch configuration"), "{e}");
        let e = load(d.path(), Some("Current file"), None).unwrap_err();
        assert!(e.contains("${file}"), "{e}");
        let r = load(d.path(), Some("Current file"), Some("a.py"))
            .unwrap()
            .unwrap();
        assert_eq!(r.program.as_deref(), Some("a.py"));
        let empty = tempfile::tempdir().unwrap();
        assert!(load(empty.path(), None, None).unwrap().is_none());
        assert!(
            load(empty.path(), Some("x"), None)
                .unwrap_err()
                .contains("cannot read")
        );
    }

    #[test]
    fn core_files_open_by_each_adapters_name_for_them() {
        let text = r#"{"configurations": [
            {"name": "lldb", "type": "lldb-dap", "request": "attach",
             "program": "${workspaceFolder}/app", "coreFile": "${workspaceFolder}/core"},
            {"name": "go", "type": "go", "request": "launch", "mode": "core",
             "program": "app", "coreFilePath": "core.1"},
            {"name": "pid", "type": "lldb-dap", "request": "attach", "pid": 4}
        ]}"#;
        let d = ws();
        let r = from_text(text, d.path(), Some("lldb"), None)
            .unwrap()
            .unwrap();
        assert_eq!(r.core, Some(format!("{}/core", d.path().display())));
        assert_eq!(r.adapter.as_deref(), Some("lldb-dap"));
        let r = from_text(text, d.path(), Some("go"), None)
            .unwrap()
            .unwrap();
        assert_eq!(r.core.as_deref(), Some("core.1"));
        let e = from_text(text, d.path(), Some("pid"), None).unwrap_err();
        assert!(e.contains("attach configuration"), "{e}");
    }
}
