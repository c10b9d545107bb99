//! lldb-dap, for C, C++ and Rust: finding the adapter (lldb-dap, then the
//! highest versioned lldb-dap-N, then the older lldb-vscode-N), installing
//! it, spawning it over stdio, and its launch and attach arguments; Rust
//! programs get rustc's own formatters so values read like Rust.

mod conditions;
mod maps;
mod native;
mod remote;
mod statics;
mod value;

use std::path::{Path, PathBuf};

use futures::FutureExt;
use futures::future::BoxFuture;
use serde_json::{Value, json};
use tokio::process::Command;

use super::native_code::is_rust;
use super::native_spawn;
use super::{
    Adapter, AdapterError, ExceptionFunction, Found, Language, LaunchSpec, OutputSource, Quirks,
    Spawned, Target, which,
};

pub use native::Native;

/// The package that brings lldb-dap on Debian and Ubuntu.
const INSTALL: &str = "apt-get install -y lldb-22";

pub struct Lldb;

static QUIRKS: Quirks = Quirks {
    // Variable references are numbered afresh at every stop.
    stable_frame_references: false,
    output: OutputSource::Events,
    crlf_output: true,
    // A signal (SIGSEGV, SIGABRT) comes as `exception` or `signal`; both are
    // crashes to the person reading the viewport.
    stop_reasons: &[("signal", "exception")],
    hidden_variable_prefixes: &[],
    return_value_name: Some("(Return Value)"),
    statics_scope: Some("Globals"),
    hide_internal_variables: false,
    program_on_child: false,
    // Over gdb-remote, the server's halt arrives as `signal SIGSTOP`.
    attach_halt: Some("signal SIGSTOP"),
    end_remote_program: None,
    foreign_exception_filters: &[],
    exception_info_command: None,
    exception_in_stopped_event: false,
    ends_by_closing: false,
    step_back_unanswered: false,
    disassembles_forward_only: false,
    silent_program_death: false,
    // `hover` refuses arithmetic and `repl` may run the text as an lldb
    // command; `watch` evaluates any expression and answers the bare value.
    evaluate_context: "watch",
    stale_step_stops: true,
    same_line_steps: false,
    pause_may_not_halt: false,
    skipped_scopes: &["Registers", "Globals"],
    local_scopes: &[],
    exit_code_after_disconnect: false,
    start_error_in_output: false,
    // Rust has no exception filter here: a panic is a call to `rust_panic`,
    // made after the panic hook printed the message.
    exception_functions: &[ExceptionFunction {
        function: "rust_panic",
        name: "panic",
    }],
    // lldb-dap answers one request at a time, and a scope's variables run
    // the formatters of every value in it: a caller's locals would cost a
    // step more than its own.
    caller_arguments: false,
    console_noise: &[
        "To get started with the debug console",
        "For more information visit https://lldb.llvm.org",
        "Executable binary set to ",
        "Attached to process ",
        "Running initCommands:",
        "Running preRunCommands:",
        "Process ",
    ],
    exception_options: None,
    functions_by_source: false,
    whole_value_context: None,
    condition_error_stops: true,
    // lldb's entry stop is set by `preRunCommands` (see `entry_breakpoint`).
    entry_function: None,
    message_keys: &[],
};

impl Adapter for Lldb {
    fn name(&self) -> &'static str {
        "lldb-dap"
    }

    /// lldb gives a signal's death as the signal's number, as an exit code
    /// of that number reads, and -1 for a status it did not get.
    fn program_end(&self, code: i64) -> super::ProgramEnd {
        if code < 0 {
            return super::ProgramEnd::Unread;
        }
        match super::program_end::is_signal(code) {
            Some(_) => super::ProgramEnd::CodeOrSignal(code),
            None => super::ProgramEnd::Code(code),
        }
    }

    fn languages(&self) -> &'static [&'static str] {
        &["c", "c++", "cpp", "rust", "native"]
    }

    /// Rust's first choice is gdb, which reads its enums right.
    fn preferred_languages(&self) -> &'static [&'static str] {
        &["c", "c++", "cpp", "native"]
    }

    fn is_installed(&self) -> bool {
        find_adapter().is_ok()
    }

    fn launch_json_types(&self) -> &'static [&'static str] {
        &["lldb", "lldb-dap", "codelldb", "cppdbg"]
    }

    fn opens_core_files(&self) -> bool {
        true
    }

    fn probe(&self, _spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        async move {
            let path = find_adapter()?;
            let version = version(&path).await?;
            Ok(native_spawn::found(version, &path))
        }
        .boxed()
    }

    fn install_command(&self, _spec: &LaunchSpec) -> String {
        INSTALL.to_string()
    }

    fn install(&self, spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        let probe = self.probe(spec);
        async move {
            super::apt::install("lldb-dap", INSTALL).await?;
            probe.await
        }
        .boxed()
    }

    fn spawn(&self, spec: &LaunchSpec) -> Result<Spawned, AdapterError> {
        let path = find_adapter()?;
        let rust = is_rust(spec);
        let start = match spec.target {
            Target::Attach(pid) => ("attach", attach_arguments(pid, rust)),
            Target::Remote(ref r) => ("attach", remote::attach_arguments(r, init_commands(rust))),
            Target::Program(ref p) => ("launch", launch_arguments(spec, p, rust)),
            Target::Core {
                ref core,
                ref program,
            } => ("attach", core_arguments(core, program, rust)),
            Target::Module(_) => return Err(native_spawn::no_modules("lldb-dap")),
        };
        native_spawn::over_stdio(Command::new(&path), &path, spec, start, vec![])
    }

    /// A C++ throw stops; Rust panics stop through `exception_functions`.
    fn default_exception_filters(&self) -> &'static [&'static str] {
        &["cpp_throw"]
    }

    fn quirks(&self) -> &'static Quirks {
        &QUIRKS
    }

    fn language(&self) -> &'static dyn Language {
        &Native
    }

    fn condition_error(&self, output: &str) -> Option<(String, String)> {
        conditions::runtime_error(output)
    }

    fn condition_error_detail(&self, line: &str) -> Option<Option<String>> {
        conditions::detail(line)
    }
}

/// `lldb-dap`, else the highest `lldb-dap-N`, else the highest `lldb-vscode-N`,
/// on PATH or in /usr/bin.
pub fn find_adapter() -> Result<PathBuf, AdapterError> {
    if let Some(p) = which("lldb-dap") {
        return Ok(p);
    }
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.push(PathBuf::from("/usr/bin"));
    for stem in ["lldb-dap-", "lldb-vscode-"] {
        if let Some(p) = highest_versioned(&dirs, stem) {
            return Ok(p);
        }
    }
    Err(AdapterError::Missing {
        what: "lldb-dap is not installed (C, C++ and Rust need it)".into(),
        fix: INSTALL.into(),
    })
}

fn highest_versioned(dirs: &[PathBuf], stem: &str) -> Option<PathBuf> {
    dirs.iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|r| r.flatten())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let n: u32 = name.strip_prefix(stem)?.parse().ok()?;
            e.path().is_file().then(|| (n, e.path()))
        })
        .max_by_key(|(n, _)| *n)
        .map(|(_, p)| p)
}

/// `lldb version 22.1.8` from the adapter's `--version`.
async fn version(path: &Path) -> Result<String, AdapterError> {
    let out = Command::new(path)
        .arg("--version")
        .output()
        .await
        .map_err(|e| AdapterError::NotFound(format!("cannot run {}: {e}", path.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text
        .lines()
        .find_map(|l| l.trim().strip_prefix("liblldb: "))
        .or_else(|| text.lines().next())
        .unwrap_or("lldb-dap")
        .trim()
        .to_string())
}

/// rustc's lldb formatters, loaded quietly: `?` keeps lldb-dap from echoing
/// a command unless it fails, and `-s 1` keeps `command source` from
/// echoing each line it runs. None when no rustc is found.
pub fn rust_init_commands() -> Vec<String> {
    static COMMANDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    COMMANDS
        .get_or_init(|| {
            let Some(etc) = super::native_code::rust_debugger_scripts() else {
                return vec![];
            };
            let (lookup, commands) = (etc.join("lldb_lookup.py"), etc.join("lldb_commands"));
            if !lookup.is_file() || !commands.is_file() {
                return vec![];
            }
            vec![
                format!("?command script import {}", lookup.display()),
                format!("?command source -s 1 {}", commands.display()),
                // Stepping into `f(&items)` should reach `f`, not the
                // standard library's Deref on the way.
                "?settings set target.process.thread.step-avoid-regexp ^(_[$]LT[$]|<)?(std|core|alloc)(::|[.][.])"
                    .to_string(),
            ]
        })
        .clone()
}

fn init_commands(rust: bool) -> Vec<String> {
    if rust { rust_init_commands() } else { vec![] }
}

fn attach_arguments(pid: u32, rust: bool) -> Value {
    json!({
        "pid": pid,
        "initCommands": init_commands(rust),
    })
}

/// lldb-dap loads the program, then the core as its process.
fn core_arguments(core: &Path, program: &Path, rust: bool) -> Value {
    json!({
        "program": program,
        "coreFile": core,
        "initCommands": init_commands(rust),
    })
}

/// Never `runInTerminal`: the program's output comes back as events and
/// the launch costs no terminal round trip.
pub fn launch_arguments(spec: &LaunchSpec, program: &Path, rust: bool) -> Value {
    let env: serde_json::Map<String, Value> = spec
        .env
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    let mut args = json!({
        "program": program,
        "args": spec.args,
        "cwd": spec.cwd,
        "env": env,
        // lldb's own entry stop is in the dynamic loader, before any of the
        // program's code; a one-shot breakpoint on main stops where the
        // person expects the program to begin.
        "stopOnEntry": false,
        "preRunCommands": if spec.stop_on_entry { vec![entry_breakpoint(rust)] } else { vec![] },
        "initCommands": init_commands(rust),
    });
    // The program's stdio opened on the session's terminal by lldb itself:
    // not `runInTerminal`, whose launcher handshake costs seconds.
    if let Some(t) = &spec.stdio {
        args["stdio"] = json!([t.terminal, t.terminal, t.stderr]);
    }
    args
}

/// The program's own `main`: C's, or the Rust crate's `krate::main` (the C
/// `main` rustc generates has no source of the program's).
fn entry_breakpoint(rust: bool) -> String {
    if rust {
        "?breakpoint set --one-shot true --func-regex '^[A-Za-z0-9_]+::main(::h[0-9a-f]+)?$'".into()
    } else {
        "?breakpoint set --one-shot true --name main".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_highest_version_wins() {
        let dir = tempfile::tempdir().unwrap();
        for n in ["lldb-dap-9", "lldb-dap-22", "lldb-dap-18", "lldb-dap-x"] {
            std::fs::write(dir.path().join(n), "").unwrap();
        }
        let found = highest_versioned(&[dir.path().to_path_buf()], "lldb-dap-").unwrap();
        assert_eq!(found.file_name().unwrap(), "lldb-dap-22");
        assert!(highest_versioned(&[dir.path().to_path_buf()], "lldb-vscode-").is_none());
    }

    #[test]
    fn launch_arguments_carry_env_and_no_terminal() {
        let mut spec = LaunchSpec::for_workspace(Path::new("/ws"));
        spec.env = vec![("FOO".into(), "bar".into())];
        spec.args = vec!["x".into()];
        let a = launch_arguments(&spec, Path::new("/ws/prog"), false);
        assert_eq!(a["env"]["FOO"], "bar");
        assert_eq!(a["args"][0], "x");
        assert_eq!(a["program"], "/ws/prog");
        assert!(a.get("runInTerminal").is_none() && a.get("console").is_none());
        assert_eq!(a["initCommands"].as_array().unwrap().len(), 0);
        assert!(a.get("stdio").is_none());
        spec.stdio = Some(crate::adapters::ProgramStdio {
            terminal: "/dev/pts/7".into(),
            stderr: "/dev/pts/8".into(),
        });
        let a = launch_arguments(&spec, Path::new("/ws/prog"), false);
        assert_eq!(
            a["stdio"],
            json!(["/dev/pts/7", "/dev/pts/7", "/dev/pts/8"])
        );
    }
}
