//! `--keep-core` for Python: the program runs under coredumpy, which
//! writes a dump of every frame and its locals when an exception goes
//! uncaught. The dump opens like a core (`pairdbg run --core DUMP`).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::adapters::{AdapterError, LaunchSpec, Target};

/// Where the program's dump goes: beside it in its working directory,
/// named after it, as a core named `core` would be.
pub fn path(spec: &LaunchSpec) -> Option<PathBuf> {
    if !spec.keep_core {
        return None;
    }
    let stem = match &spec.target {
        Target::Program(p) => p.file_stem()?.to_string_lossy().into_owned(),
        Target::Module(m) => m.clone(),
        _ => return None,
    };
    Some(spec.cwd.join(format!("{stem}.dump")))
}

/// The launch's program as coredumpy's `run` of it.
pub fn wrap(args: &mut Value, spec: &LaunchSpec, dump: &Path) {
    let mut run = vec![json!("run"), json!("--path"), json!(dump)];
    match &spec.target {
        Target::Program(p) => run.push(json!(p)),
        Target::Module(m) => run.extend([json!("-m"), json!(m)]),
        _ => return,
    }
    run.extend(spec.args.iter().map(|a| json!(a)));
    args["module"] = json!("coredumpy");
    args["args"] = Value::Array(run);
    if let Some(obj) = args.as_object_mut() {
        obj.remove("program");
    }
}

/// coredumpy's version under the program's own interpreter, which must
/// import it; or the command that installs it. Checked with debugpy's own.
pub async fn version(python: &Path) -> Result<String, AdapterError> {
    crate::adapters::pip::version(python, "coredumpy", "coredumpy").await
}

pub async fn install(python: &Path) -> Result<String, AdapterError> {
    crate::adapters::pip::install(python, "coredumpy", "coredumpy").await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_program_runs_under_coredumpy_with_its_arguments() {
        let spec = LaunchSpec {
            target: Target::Program(PathBuf::from("app/crash.py")),
            args: vec!["--n".into(), "3".into()],
            keep_core: true,
            ..LaunchSpec::for_workspace(Path::new("/ws"))
        };
        let dump = path(&spec).expect("a dump path");
        assert_eq!(dump, Path::new("/ws/crash.dump"));
        let mut args = json!({"program": "app/crash.py", "args": ["--n", "3"]});
        wrap(&mut args, &spec, &dump);
        assert_eq!(args["module"], "coredumpy");
        assert!(args.get("program").is_none());
        assert_eq!(
            args["args"],
            json!([
                "run",
                "--path",
                "/ws/crash.dump",
                "app/crash.py",
                "--n",
                "3"
            ])
        );
        let plain = LaunchSpec {
            keep_core: false,
            ..spec
        };
        assert_eq!(path(&plain), None);
    }
}
