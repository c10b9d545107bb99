//! js-debug's `launch` and `attach` arguments, and the preloads pairdbg
//! puts into Node: the exit-code shim into the program, and the latency
//! fix (TCP_NODELAY) into the program's inspector and into js-debug itself.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Map, Value, json};

use crate::adapters::{AdapterError, LaunchSpec, Target};

pub const EXIT_SHIM: &str = include_str!("boot/exit_code.cjs");
pub const NODELAY: &str = include_str!("boot/nodelay.cjs");
pub const PROGRAM_PRELOAD: &str = include_str!("boot/inspector_nodelay.cjs");

/// Told apart per launch within one pairdbg process.
static LAUNCHES: AtomicU64 = AtomicU64::new(0);

type Start = ((&'static str, Value), Option<PathBuf>, Vec<String>);

/// The request, the file the program's exit code will be written to, and
/// notes for the user.
pub fn start_arguments(spec: &LaunchSpec) -> Result<Start, AdapterError> {
    let no_runtime =
        |e: std::io::Error| AdapterError::NotFound(format!("no runtime directory: {e}"));
    match &spec.target {
        Target::Core { .. } => Err(AdapterError::Unsupported(
            "js-debug opens no core files".into(),
        )),
        Target::Module(m) => Err(AdapterError::Unsupported(format!(
            "js-debug runs script files, not modules such as {m}"
        ))),
        Target::Remote(r) => Ok((
            ("attach", super::remote::attach_arguments(spec, r)?),
            None,
            vec![],
        )),
        Target::Attach(pid) => Ok((
            (
                "attach",
                json!({
                    "type": "pwa-node",
                    "request": "attach",
                    "name": "pairdbg",
                    "processId": pid.to_string(),
                    "cwd": spec.cwd,
                    "__workspaceFolder": spec.workspace,
                    "skipFiles": ["<node_internals>/**"],
                }),
            ),
            None,
            vec![],
        )),
        Target::Program(p) => {
            let user_options = user_node_options(spec);
            let super::program::Runnable {
                file: program,
                scripts,
                mut notes,
            } = super::program::runnable(p, has_loader(&user_options), &spec.workspace);
            let shim = crate::paths::install_file("node", "exit_code.cjs", EXIT_SHIM)
                .map_err(no_runtime)?;
            let n = LAUNCHES.fetch_add(1, Ordering::Relaxed);
            let exit_file = crate::paths::runtime_dir()
                .map_err(no_runtime)?
                .join(format!("exit-{}-{n}", std::process::id()));
            let _ = std::fs::remove_file(&exit_file);
            let mut preloads = vec![shim];
            if spec.nodelay {
                preloads.push(
                    crate::paths::install_file("node", "inspector_nodelay.cjs", PROGRAM_PRELOAD)
                        .map_err(no_runtime)?,
                );
            }
            let env = environment(spec, &user_options, &preloads, &exit_file);
            if spec.stdio.is_some() {
                notes.push(
                    "js-debug sends the program's output as events: it runs without a terminal."
                        .into(),
                );
            }
            let args = json!({
                "type": "pwa-node",
                "request": "launch",
                "name": "pairdbg",
                "program": program,
                "cwd": spec.cwd,
                "args": spec.args,
                "env": env,
                // Output comes as events, through the debugger, not a terminal.
                "console": "internalConsole",
                "outputCapture": "std",
                // Where js-debug resolves `${workspaceFolder}`; TypeScript's
                // source maps are not found without it.
                "__workspaceFolder": spec.workspace,
                "stopOnEntry": spec.stop_on_entry,
                "skipFiles": ["<node_internals>/**"],
                // The default searches the whole workspace for scripts and
                // their maps; the program's own tree is where they are.
                "outFiles": [
                    format!("{}/**/*.(m|c|)js", scripts.display()),
                    "!**/node_modules/**",
                ],
            });
            Ok((("launch", args), Some(exit_file), notes))
        }
    }
}

/// The NODE_OPTIONS the user gave the launch, or else the ones pairdbg was
/// started with: the launch sets the variable, so an inherited one would
/// be lost.
fn user_node_options(spec: &LaunchSpec) -> String {
    spec.env
        .iter()
        .rev()
        .find(|(k, _)| k == "NODE_OPTIONS")
        .map(|(_, v)| v.clone())
        .or_else(|| std::env::var("NODE_OPTIONS").ok())
        .unwrap_or_default()
}

/// Whether Node's options load a TypeScript loader (tsx, ts-node and the
/// like) before the program; any other preload (`-r dotenv/config`, an
/// editor's bootloader) leaves a `.ts` to its compiled `.js`.
fn has_loader(options: &str) -> bool {
    const FLAGS: &[&str] = &[
        "--import",
        "--loader",
        "--experimental-loader",
        "--require",
        "-r",
    ];
    const LOADERS: &[&str] = &[
        "tsx",
        "ts-node",
        "@swc-node/register",
        "esbuild-register",
        "@esbuild-kit/",
    ];
    let mut words = options.split_whitespace();
    while let Some(w) = words.next() {
        let value = match w.split_once('=') {
            Some((flag, v)) if FLAGS.contains(&flag) => v,
            None if FLAGS.contains(&w) => words.next().unwrap_or_default(),
            _ => continue,
        };
        let name = value.trim_start_matches("node_modules/");
        if LOADERS.iter().any(|l| {
            let l = l.trim_end_matches('/');
            name == l
                || name.starts_with(&format!("{l}/"))
                || value.contains(&format!("/node_modules/{l}/"))
        }) {
            return true;
        }
    }
    false
}

/// The launch's environment: the user's, the exit file, and the preloads
/// after the user's own NODE_OPTIONS (js-debug puts its bootloader first).
fn environment(
    spec: &LaunchSpec,
    user: &str,
    preloads: &[PathBuf],
    exit_file: &Path,
) -> Map<String, Value> {
    let mut env: Map<String, Value> = spec
        .env
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    let require = preloads
        .iter()
        .map(|p| format!("--require {}", quoted(p)))
        .collect::<Vec<_>>()
        .join(" ");
    let options = match user.trim() {
        "" => require,
        u => format!("{u} {require}"),
    };
    env.insert("NODE_OPTIONS".into(), Value::String(options));
    env.insert(
        "PAIRDBG_EXIT_FILE".into(),
        Value::String(exit_file.display().to_string()),
    );
    env
}

/// A path as NODE_OPTIONS reads it: in double quotes when it has spaces.
fn quoted(path: &Path) -> String {
    let p = path.display().to_string();
    if p.contains([' ', '"', '\\']) {
        format!("\"{}\"", p.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_launch_runs_the_program_with_the_shim_after_the_users_options() {
        let dir = tempfile::tempdir().unwrap();
        let prog = dir.path().join("app/prog.js");
        let mut spec = LaunchSpec::for_workspace(dir.path());
        spec.target = Target::Program(prog.clone());
        spec.args = vec!["--n".into(), "3".into()];
        spec.env = vec![("NODE_OPTIONS".into(), "--max-old-space-size=100".into())];
        let ((req, args), exit_file, _) = start_arguments(&spec).unwrap();
        assert_eq!(req, "launch");
        assert_eq!(args["type"], "pwa-node");
        assert_eq!(args["program"], json!(prog));
        assert_eq!(args["console"], "internalConsole");
        assert_eq!(args["outputCapture"], "std");
        assert_eq!(args["__workspaceFolder"], json!(dir.path()));
        assert_eq!(args["args"], json!(["--n", "3"]));
        let opts = args["env"]["NODE_OPTIONS"].as_str().unwrap();
        assert!(
            opts.starts_with("--max-old-space-size=100 --require "),
            "{opts}"
        );
        assert!(opts.contains("exit_code.cjs --require "), "{opts}");
        assert!(opts.ends_with("inspector_nodelay.cjs"), "{opts}");
        spec.nodelay = false;
        let ((_, off), _, _) = start_arguments(&spec).unwrap();
        let opts = off["env"]["NODE_OPTIONS"].as_str().unwrap();
        assert!(opts.ends_with("exit_code.cjs"), "only to measure: {opts}");
        spec.nodelay = true;
        let exit_file = exit_file.unwrap();
        assert_eq!(
            args["env"]["PAIRDBG_EXIT_FILE"],
            json!(exit_file.display().to_string())
        );
        let out_files = args["outFiles"][0].as_str().unwrap();
        assert_eq!(
            out_files,
            format!("{}/**/*.(m|c|)js", dir.path().join("app").display())
        );
        // A second launch writes its code elsewhere.
        let (_, second, _) = start_arguments(&spec).unwrap();
        assert_ne!(second.unwrap(), exit_file);
    }

    #[test]
    fn loaders_are_told_from_other_node_options() {
        assert!(has_loader("--import tsx"));
        assert!(has_loader(
            "--max-old-space-size=100 --require ts-node/register"
        ));
        assert!(has_loader("--loader=ts-node/esm"));
        assert!(has_loader("-r ts-node/register"));
        assert!(!has_loader("--max-old-space-size=100 --enable-source-maps"));
        assert!(!has_loader("-r dotenv/config"));
        assert!(!has_loader("--import ./otel.mjs"));
        assert!(!has_loader("--require /opt/editor/bootloader.js"));
        assert!(has_loader("--import=tsx/esm"));
        assert!(has_loader(
            "--import /w/node_modules/tsx/dist/esm/index.mjs"
        ));
        assert!(!has_loader(""));
    }

    #[test]
    fn paths_with_spaces_are_quoted_for_node_options() {
        assert_eq!(quoted(Path::new("/a/b.cjs")), "/a/b.cjs");
        assert_eq!(quoted(Path::new("/my dir/b.cjs")), "\"/my dir/b.cjs\"");
    }
}
