//! debugpy, for Python: finding the interpreter, checking and installing
//! debugpy, spawning the adapter, and its launch and attach arguments.

mod cause_chain;
mod child;
mod compile_error;
mod conditions;
mod crash_dump;
mod exception_type;
mod functions;
mod locals_listing;
mod pure_calls;
mod python;
mod remote;
mod trace_message;
mod traceback;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use futures::FutureExt;
use futures::future::BoxFuture;
use serde_json::{Value, json};
use tokio::process::Command;

use super::{
    Adapter, AdapterError, Found, Language, LaunchSpec, OutputSource, Quirks, Spawned, Target,
    Transport, which,
};
use crate::dap::process::AdapterProcess;

const ADAPTER_BOOT: &str = include_str!("boot/adapter_boot.py");
const DEBUGGEE_BOOT: &str = include_str!("boot/debuggee_boot.py");
const SITE_BOOT: &str = include_str!("boot/sitecustomize.py");
/// The site folder's modules: pairdbg's changes to pydevd.
const PYDEVD_PATCHES: [(&str, &str); 3] = [
    (
        "_pairdbg_pydevd.py",
        include_str!("boot/_pairdbg_pydevd.py"),
    ),
    (
        "_pairdbg_nodelay.py",
        include_str!("boot/_pairdbg_nodelay.py"),
    ),
    (
        "_pairdbg_repr_deadline.py",
        include_str!("boot/_pairdbg_repr_deadline.py"),
    ),
];
const LAUNCHER_BOOT: &str = include_str!("boot/launcher_boot.py");

pub struct Debugpy;

static QUIRKS: Quirks = Quirks {
    // debugpy derives a frame's id and locals reference from the frame.
    stable_frame_references: true,
    output: OutputSource::Events,
    // pydevd reads the first path segment as its category and matches
    // subclasses always (it walks the exception's MRO).
    exception_options: Some(super::ExceptionOptionsQuirk {
        category: "Python Exceptions",
        filter_modes: &[
            ("raised", "always"),
            ("uncaught", "unhandled"),
            ("userUnhandled", "userUnhandled"),
        ],
        exact_types: false,
    }),
    // pydevd matches a function breakpoint by the code's bare name, so
    // `Class.method` never fires, and answers with no file or line.
    functions_by_source: true,
    // Its other contexts cut long values (SafeRepr); this one does not.
    whole_value_context: Some("clipboard"),
    ..Quirks::DEFAULT
};

impl Adapter for Debugpy {
    fn name(&self) -> &'static str {
        "debugpy"
    }

    /// From boot/launcher_boot.py, ahead of the `exited` event.
    fn signal_from_output(&self, line: &str) -> Option<i32> {
        super::program_end::signal_line(line)
    }

    /// The launcher gives a signal's death as 256 minus the signal (247 for
    /// SIGKILL), as an exit code of that number reads.
    fn program_end(&self, code: i64) -> super::ProgramEnd {
        match super::program_end::is_signal(256 - code) {
            Some(_) if code > 128 => super::ProgramEnd::CodeOrSignal(code),
            _ => super::ProgramEnd::Code(code),
        }
    }

    fn languages(&self) -> &'static [&'static str] {
        &["python"]
    }

    fn launch_json_types(&self) -> &'static [&'static str] {
        &["python", "debugpy"]
    }

    fn probe(&self, spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        // The server speaks DAP itself: nothing of ours runs.
        if let Target::Remote(r) = &spec.target {
            return futures::future::ready(Ok(r.found("debugpy"))).boxed();
        }
        let python = find_python(spec.interpreter.as_deref(), &spec.workspace);
        let keeps_dump = crash_dump::path(spec).is_some();
        async move {
            let python = python?;
            let v = version(&python).await?;
            if keeps_dump {
                crash_dump::version(&python).await?;
            }
            Ok(Found {
                version: format!("debugpy {v}"),
                path: python.display().to_string(),
                warning: None,
            })
        }
        .boxed()
    }

    fn install_command(&self, spec: &LaunchSpec) -> String {
        let python = find_python(spec.interpreter.as_deref(), &spec.workspace)
            .unwrap_or_else(|_| PathBuf::from("python3"));
        match crash_dump::path(spec) {
            Some(_) => format!("{} coredumpy", install_command(&python)),
            None => install_command(&python),
        }
    }

    fn install(&self, spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        let python = find_python(spec.interpreter.as_deref(), &spec.workspace);
        let keeps_dump = crash_dump::path(spec).is_some();
        async move {
            let python = python?;
            let v = install(&python).await?;
            if keeps_dump {
                crash_dump::install(&python).await?;
            }
            Ok(Found {
                version: format!("debugpy {v}"),
                path: python.display().to_string(),
                warning: None,
            })
        }
        .boxed()
    }

    fn spawn(&self, spec: &LaunchSpec) -> Result<Spawned, AdapterError> {
        if let Target::Remote(r) = &spec.target {
            return remote::spawn(spec, r);
        }
        let python = find_python(spec.interpreter.as_deref(), &spec.workspace)?;
        let mut cmd = adapter_command(&python, spec.nodelay)?;
        if let (Target::Attach(_), Some(dir)) = (&spec.target, super::gdb::alone_on_path()) {
            cmd.env("PATH", with_first_on_path(&dir));
        }
        let (process, stdin, stdout) = AdapterProcess::spawn(cmd)
            .map_err(|e| AdapterError::NotFound(format!("cannot start debugpy: {e}")))?;
        let start = match spec.target {
            Target::Attach(pid) => ("attach", attach_arguments(pid, spec)),
            _ => ("launch", launch_arguments(spec, &python)?),
        };
        Ok(Spawned {
            process: Some(process),
            transport: Transport::Stdio {
                reader: Box::pin(stdout),
                writer: Box::pin(stdin),
            },
            on_terminal: spec.stdio.is_some() && !matches!(spec.target, Target::Attach(_)),
            program_output: None,
            start,
            exit_code_file: None,
            notes: subprocess_note(spec),
        })
    }

    /// The exception filter a crash needs: stop, rather than end the session.
    fn default_exception_filters(&self) -> &'static [&'static str] {
        &["uncaught"]
    }

    fn every_exception_filters(&self) -> &'static [&'static str] {
        &["raised", "uncaught"]
    }

    fn quirks(&self) -> &'static Quirks {
        &QUIRKS
    }

    fn language(&self) -> &'static dyn Language {
        &python::Python
    }

    /// An uncaught exception's frames and locals, dumped by coredumpy.
    fn crash_dump(&self, spec: &LaunchSpec) -> Option<PathBuf> {
        crash_dump::path(spec)
    }

    fn check_condition(
        &self,
        spec: &LaunchSpec,
        condition: &str,
    ) -> Option<BoxFuture<'static, Result<(), String>>> {
        let python = find_python(spec.interpreter.as_deref(), &spec.workspace).ok()?;
        Some(conditions::check(python, condition.to_string()).boxed())
    }

    fn condition_error(&self, output: &str) -> Option<(String, String)> {
        conditions::runtime_error(output)
    }

    fn child_connection(
        &self,
        ctx: &super::ChildContext<'_>,
        arguments: &Value,
    ) -> Result<super::ChildStart, AdapterError> {
        child::child_connection(ctx, arguments)
    }

    fn first_child_note(&self) -> Option<&'static str> {
        Some(
            "Child Python processes are debugged too, each as a child session (subprocesses: false turns this off).",
        )
    }
}

/// A launch that asked for its subprocesses to run without the debugger
/// says so; debugging them, the default, is told when the first one starts.
fn subprocess_note(spec: &LaunchSpec) -> Vec<String> {
    match (&spec.target, spec.subprocesses) {
        // debugpy reports no subprocesses of a process it attached to.
        (Target::Attach(_), _) | (_, true) => vec![],
        (_, false) => {
            vec!["Child processes run without the debugger (subprocesses: false).".into()]
        }
    }
}

/// Interpreter order: explicit option, $VIRTUAL_ENV, the workspace's .venv,
/// then python3 on PATH.
pub fn find_python(explicit: Option<&str>, workspace: &Path) -> Result<PathBuf, AdapterError> {
    let venv = std::env::var_os("VIRTUAL_ENV").map(PathBuf::from);
    find_python_in(explicit, workspace, venv.as_deref())
}

pub fn find_python_in(
    explicit: Option<&str>,
    workspace: &Path,
    virtual_env: Option<&Path>,
) -> Result<PathBuf, AdapterError> {
    if let Some(p) = explicit {
        let path = PathBuf::from(p);
        if path.components().count() > 1 {
            return if path.exists() {
                Ok(path)
            } else {
                Err(AdapterError::NotFound(format!(
                    "python: the interpreter {p} does not exist"
                )))
            };
        }
        return which(p)
            .ok_or_else(|| AdapterError::NotFound(format!("python: `{p}` is not on PATH")));
    }
    if let Some(venv) = virtual_env {
        let p = venv.join("bin/python");
        if p.exists() {
            return Ok(p);
        }
    }
    let local = workspace.join(".venv/bin/python");
    if local.exists() {
        return Ok(local);
    }
    which("python3").ok_or_else(|| {
        AdapterError::NotFound("python3 is not on PATH; install Python 3 or pass `python`".into())
    })
}

/// Python as the engine reads it, for adapters that serve Python values
/// as debugpy does.
pub fn python_language() -> &'static dyn Language {
    &python::Python
}

pub fn install_command(python: &Path) -> String {
    super::pip::install_command(python, "debugpy")
}

/// debugpy's version under this interpreter, or the command that installs it.
pub async fn version(python: &Path) -> Result<String, AdapterError> {
    super::pip::version(python, "debugpy", "debugpy").await
}

pub async fn install(python: &Path) -> Result<String, AdapterError> {
    super::pip::install(python, "debugpy", "debugpy").await
}

/// Writes the boot helpers once, under the owner-only runtime directory, in
/// a folder named by their contents so versions never mix.
fn boot_files() -> Result<&'static (PathBuf, PathBuf, PathBuf, PathBuf), AdapterError> {
    static FILES: OnceLock<Result<(PathBuf, PathBuf, PathBuf, PathBuf), String>> = OnceLock::new();
    FILES
        .get_or_init(|| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (
                ADAPTER_BOOT,
                DEBUGGEE_BOOT,
                SITE_BOOT,
                PYDEVD_PATCHES,
                LAUNCHER_BOOT,
            )
                .hash(&mut h);
            let sub = format!("boot-{:016x}", h.finish());
            let a = crate::paths::install_file(&sub, "adapter_boot.py", ADAPTER_BOOT)
                .map_err(|e| e.to_string())?;
            let d = crate::paths::install_file(&sub, "debuggee_boot.py", DEBUGGEE_BOOT)
                .map_err(|e| e.to_string())?;
            let l = crate::paths::install_file(&sub, "launcher_boot.py", LAUNCHER_BOOT)
                .map_err(|e| e.to_string())?;
            // A folder of its own: it goes on the program's PYTHONPATH.
            let site = format!("{sub}/site");
            for (name, text) in PYDEVD_PATCHES {
                crate::paths::install_file(&site, name, text).map_err(|e| e.to_string())?;
            }
            let s = crate::paths::install_file(&site, "sitecustomize.py", SITE_BOOT)
                .map_err(|e| e.to_string())?;
            Ok((a, d, s, l))
        })
        .as_ref()
        .map_err(|e| AdapterError::NotFound(format!("cannot write the debugpy boot files: {e}")))
}

/// An executable that runs debugpy's launcher on `interpreter` through
/// launcher_boot.py (`debugLauncherPython` names one program, no arguments).
fn launcher_program(interpreter: &Path) -> Result<PathBuf, AdapterError> {
    use std::hash::{Hash, Hasher};
    use std::os::unix::fs::PermissionsExt;
    let boot = &boot_files()?.3;
    let quote = |p: &Path| format!("'{}'", p.display().to_string().replace('\'', r"'\''"));
    let script = format!(
        "#!/bin/sh\nexec {} {} \"$@\"\n",
        quote(interpreter),
        quote(boot)
    );
    let mut h = std::collections::hash_map::DefaultHasher::new();
    script.hash(&mut h);
    let sub = boot
        .parent()
        .and_then(|d| d.file_name())
        .map(|d| d.to_string_lossy().into_owned())
        .unwrap_or_default();
    let path = crate::paths::install_file(&sub, &format!("launcher-{:016x}", h.finish()), &script)
        .and_then(|p| {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o700))?;
            Ok(p)
        })
        .map_err(|e| AdapterError::NotFound(format!("cannot write the debugpy boot files: {e}")))?;
    Ok(path)
}

/// The adapter command: debugpy's adapter over stdio, with the latency fix.
pub fn adapter_command(python: &Path, nodelay: bool) -> Result<Command, AdapterError> {
    let mut cmd = Command::new(python);
    if nodelay {
        cmd.arg(&boot_files()?.0);
    } else {
        cmd.args(["-m", "debugpy.adapter"]);
    }
    Ok(cmd)
}

/// PATH with `dir` first.
fn with_first_on_path(dir: &Path) -> std::ffi::OsString {
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(dir.to_path_buf()).chain(std::env::split_paths(&rest)))
        .unwrap_or(rest)
}

/// debugpy's attach by pid injects itself with the `gdb` first on PATH:
/// pairdbg's own, where it has one.
fn attach_arguments(pid: u32, spec: &LaunchSpec) -> Value {
    json!({
        "type": "debugpy",
        "request": "attach",
        "processId": pid,
        "justMyCode": spec.just_my_code,
        "subProcess": false,
        "cwd": spec.cwd,
        "showReturnValue": true,
    })
}

pub fn launch_arguments(spec: &LaunchSpec, interpreter: &Path) -> Result<Value, AdapterError> {
    let mut python = vec![interpreter.display().to_string()];
    if spec.nodelay {
        // The launcher adds this option after our boot file, where the
        // interpreter cannot see it; give it where it takes effect.
        python.extend(["-X".to_string(), "frozen_modules=off".to_string()]);
        python.push(boot_files()?.1.display().to_string());
    }
    let mut env: serde_json::Map<String, Value> = spec
        .env
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    if spec.nodelay && spec.subprocesses {
        // Children start without our boot file; sitecustomize reaches them.
        let site = boot_files()?
            .2
            .parent()
            .map(|d| d.display().to_string())
            .unwrap_or_default();
        let inherited = env
            .get("PYTHONPATH")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| std::env::var("PYTHONPATH").ok())
            .filter(|p| !p.is_empty());
        let path = match inherited {
            Some(p) => format!("{site}:{p}"),
            None => site,
        };
        env.insert("PYTHONPATH".into(), Value::String(path));
    }
    let mut args = json!({
        "type": "debugpy",
        "request": "launch",
        // On the session's terminal the program can read its input; debugpy
        // asks us to start its launcher there (`runInTerminal`).
        "console": if spec.stdio.is_some() { "integratedTerminal" } else { "internalConsole" },
        "justMyCode": spec.just_my_code,
        // Each child Python process becomes a child session (startDebugging).
        "subProcess": spec.subprocesses,
        // On the terminal the program writes there itself (a terminal to it,
        // so line-buffered); captured, it would write to pipes.
        "redirectOutput": spec.stdio.is_none(),
        "cwd": spec.cwd,
        "args": spec.args,
        "env": env,
        "stopOnEntry": spec.stop_on_entry,
        "python": python,
        // After a step out, the returned value shows as `(return) f`.
        "showReturnValue": true,
    });
    if spec.nodelay {
        // Our boot file is not the user's code: keep it out of stacks and steps.
        let dir = boot_files()?
            .1
            .parent()
            .map(|d| d.display().to_string())
            .unwrap_or_default();
        args["debugLauncherPython"] = json!(launcher_program(interpreter)?);
        // A rule's `*` stops at a `/`: the sitecustomize's folder needs its own.
        args["rules"] = json!([
            {"path": format!("{dir}/*"), "include": false},
            {"path": format!("{dir}/site/*"), "include": false},
        ]);
    }
    match &spec.target {
        Target::Module(m) => args["module"] = json!(m),
        Target::Program(p) => args["program"] = json!(p),
        Target::Attach(_) | Target::Remote(_) | Target::Core { .. } => {}
    }
    if let Some(dump) = crash_dump::path(spec) {
        crash_dump::wrap(&mut args, spec, &dump);
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_python(dir: &Path) -> PathBuf {
        let p = dir.join("bin/python");
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "").unwrap();
        p
    }

    #[test]
    fn interpreter_order() {
        let ws = tempfile::tempdir().unwrap();
        let venv = tempfile::tempdir().unwrap();
        let explicit = fake_python(&ws.path().join("custom"));
        let env_python = fake_python(venv.path());
        let local = fake_python(&ws.path().join(".venv"));
        let found = |e: Option<&str>, v: Option<&Path>| find_python_in(e, ws.path(), v).unwrap();
        assert_eq!(
            found(Some(explicit.to_str().unwrap()), Some(venv.path())),
            explicit
        );
        assert_eq!(found(None, Some(venv.path())), env_python);
        assert_eq!(found(None, None), local);
        std::fs::remove_file(&local).unwrap();
        assert_eq!(found(None, None).file_name().unwrap(), "python3");
        let err = find_python_in(Some("/nope/python"), ws.path(), None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("python") && err.contains("/nope/python"),
            "{err}"
        );
    }
}
