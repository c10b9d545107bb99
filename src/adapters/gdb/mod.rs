//! gdb's own DAP server (`gdb -i dap`, gdb 14 and later), for Rust by
//! default and for C and C++ on request: gdb reads Rust's enums and parses
//! Rust expressions natively, where lldb reads some enums wrongly and
//! parses expressions as C++.

mod children;
mod install;
mod libstdcxx;

pub use install::alone_on_path;
mod native;
mod parts;
mod pointer_index;
mod pointer_kind;
mod rust_tree;
mod version_cache;

use std::path::Path;

use futures::FutureExt;
use futures::future::BoxFuture;
use serde_json::{Value, json};
use tokio::process::Command;

use super::native_code::{is_rust, rust_debugger_scripts};
use super::native_spawn;
use super::{
    Adapter, AdapterError, ExceptionFunction, Found, Language, LaunchSpec, OutputSource, Quirks,
    Spawned, Target,
};

pub use native::GdbNative;

const INSTALL: &str = "pairdbg adapters install gdb";

/// The settings every session starts with: no debuginfod download prompt
/// (it would wait for an answer nobody can give), no pager, no
/// confirmations, and messages without colour escapes.
const SETTINGS: &[&str] = &[
    "set debuginfod enabled off",
    "set pagination off",
    "set confirm off",
    "set style enabled off",
];

/// rustc's pretty printers for gdb, which make `Vec`, `String`, `HashMap`
/// and `Option` read as Rust.
/// Tells the signal that killed the program (see the file).
const EXIT_SIGNAL: &str = include_str!("boot/exit_signal.py");
/// Sends the stop gdb's DAP misses when a recording fails (see the file).
const RECORD_HALT: &str = include_str!("boot/record_halt.py");
const RECORD_LIMIT: &str = include_str!("boot/record_limit.py");
const RUST_PRINTERS: &str = "gdb_load_rust_pretty_printers.py";

/// Where the system's gdb keeps the scripts that libraries ship for it:
/// libstdc++'s printers (which make `std::map` read as a map) are found
/// there by the library's path. The gdb pairdbg installs has its own data
/// directory, so it is told about the system's.
const SYSTEM_AUTO_LOAD: &[&str] = &["/usr/share/gdb/auto-load", "/usr/local/share/gdb/auto-load"];

/// Steps pass over the Rust standard library's functions.
const STEP_OVER_STD: &str = "skip -rfunction ^(<)?(std|core|alloc)::";

pub struct Gdb;

static QUIRKS: Quirks = Quirks {
    stable_frame_references: false,
    output: OutputSource::Events,
    crlf_output: false,
    stop_reasons: &[
        ("signal", "exception"),
        ("data breakpoint", "data breakpoint"),
    ],
    hidden_variable_prefixes: &[],
    // A step out's value comes in a scope of its own, as `(return)`.
    return_value_name: Some("(return)"),
    statics_scope: None,
    hide_internal_variables: false,
    program_on_child: false,
    attach_halt: None,
    end_remote_program: None,
    // Ada's: pairdbg debugs no Ada.
    foreign_exception_filters: &["assert", "exception", "unhandled"],
    // gdb's DAP has no `exceptionInfo`; a signal is named by `info
    // program` ("It stopped with signal SIGABRT, Aborted.").
    exception_info_command: Some("info program"),
    exception_in_stopped_event: false,
    ends_by_closing: false,
    step_back_unanswered: false,
    // gdb disassembles forward from the address, then drops the first
    // instructions a negative offset asks for, the current one with them.
    disassembles_forward_only: true,
    // `repl` runs the text as a gdb command (`print x`); `watch` evaluates
    // it as an expression of the program's language.
    evaluate_context: "watch",
    stale_step_stops: false,
    same_line_steps: true,
    pause_may_not_halt: false,
    skipped_scopes: &["Registers", "Globals"],
    // gdb lists a function's parameters apart from its other locals, and
    // a step out's value in a scope of its own.
    local_scopes: &["Arguments", "Locals", "Return"],
    exit_code_after_disconnect: false,
    start_error_in_output: false,
    // Rust has no exception filter in gdb: a panic is a call from
    // `rust_panic`, made after the panic hook printed the message, into the
    // panic runtime's `__rust_start_panic` (panic_unwind's, or panic_abort's
    // under `panic = "abort"`; the other stays pending). gdb finds it by its
    // debug name. A breakpoint in `std` itself makes gdb expand std's debug
    // information, about 0.4 s of every launch; each panic runtime is a
    // small crate of its own.
    exception_functions: &[
        ExceptionFunction {
            function: "panic_unwind::__rust_start_panic",
            name: "panic",
        },
        ExceptionFunction {
            function: "panic_abort::__rust_start_panic",
            name: "panic",
        },
    ],
    caller_arguments: true,
    console_noise: &[],
    exception_options: None,
    functions_by_source: false,
    whole_value_context: None,
    entry_function: None,
    condition_error_stops: false,
    // gdb answers a `next` of a program killed while stopped, as it does
    // not reap it, and sends no `exited` (gdb 18).
    silent_program_death: true,
    message_keys: &[],
};

static RECORDER: super::recording::Recorder = super::recording::Recorder {
    method: "gdb record",
    start: "record full",
    stop: "record stop",
    // Past it, gdb drops the oldest: its question whether to stop is
    // answered yes, as every question is under `set confirm off`.
    // boot/record_limit.py stops the run once, as the recording fills.
    limit: "set record full insn-number-max",
    info: "info record",
    back_over: "reverse-next &",
    back_into: "reverse-step &",
    back_out: "reverse-finish &",
    back_continue: "reverse-continue &",
    // `Process record does not support instruction 0x62 at address
    // 0x7ffff7f3bf00.`, then `Process record: failed to record execution
    // log.`, then a stop with no reason; `Process record: inferior program
    // stopped.` before the program's exit, which gdb holds to keep it
    // replayable.
    failure_lines: &["Process record"],
    // gdb's DAP passes gdb's own reason on (`no-history`).
    history_start: "no-history",
    // Replaying forward, gdb stops where the recording ends ("Reached end
    // of recorded history; stopping."), a stop its DAP gives no reason.
    history_end: "stopped",
    halt_request: Some("pairdbgRecordHalt"),
};

/// The start of the lines gdb writes about itself on the stream that also
/// carries the program's output.
const OWN_OUTPUT: &[&str] = &[
    "\u{274c}",
    "No source file named ",
    "No symbol table is loaded",
    "Function(s) ",
    "File(s) ",
    "warning: ",
    "Breakpoint ",
    "Temporary breakpoint ",
    "Hardware watchpoint ",
    "Watchpoint ",
    "Old value = ",
    "New value = ",
    "[Inferior ",
    "[Thread debugging ",
    "[New Thread ",
    "[New LWP ",
    "[Switching to ",
    "[Detaching after ",
    "Using host libthread_db",
    "Download failed",
    "Process record",
    "No more reverse-execution history.",
    "Downloading separate debug info",
];

impl Adapter for Gdb {
    fn name(&self) -> &'static str {
        "gdb"
    }

    /// `Program terminated with signal 9.`, from boot/exit_signal.py.
    fn signal_from_output(&self, line: &str) -> Option<i32> {
        super::program_end::signal_line(line)
    }

    fn languages(&self) -> &'static [&'static str] {
        &["rust", "c", "c++", "cpp", "native"]
    }

    fn preferred_languages(&self) -> &'static [&'static str] {
        &["rust"]
    }

    fn is_installed(&self) -> bool {
        install::is_installed()
    }

    fn fallback_note(&self, _other: &str, language: &str) -> Option<&'static str> {
        (language == "rust").then_some(
            "gdb is not installed, so this Rust program runs on lldb-dap, which cannot read the variant of an enum with data (Option, Result: they show as unreadable) and parses expressions as C++; install gdb with `pairdbg adapters install gdb`",
        )
    }

    fn launch_json_types(&self) -> &'static [&'static str] {
        &["gdb"]
    }

    fn opens_core_files(&self) -> bool {
        true
    }

    /// gdb 18's DAP has no `stepBack` nor `reverseContinue` (it does not
    /// claim `supportsStepBack`): its console's reverse commands do it,
    /// run in the background (`&`) so that the evaluate answers at once
    /// and the stop comes as an event.
    fn recorder(&self) -> Option<&'static super::recording::Recorder> {
        Some(&RECORDER)
    }

    fn probe(&self, _spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        async move {
            let found = tokio::task::spawn_blocking(install::find)
                .await
                .map_err(|e| AdapterError::NotFound(format!("looking for gdb failed: {e}")))??;
            Ok(native_spawn::found(found.version, &found.path))
        }
        .boxed()
    }

    fn install_command(&self, _spec: &LaunchSpec) -> String {
        INSTALL.into()
    }

    fn install(&self, _spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        async move {
            let found = tokio::task::spawn_blocking(install::install)
                .await
                .map_err(|e| AdapterError::NotFound(format!("installing gdb failed: {e}")))??;
            Ok(native_spawn::found(found.version, &found.path))
        }
        .boxed()
    }

    fn spawn(&self, spec: &LaunchSpec) -> Result<Spawned, AdapterError> {
        let gdb = install::find()?;
        let rust = is_rust(spec);
        let mut notes = vec![];
        let mut cmd = Command::new(&gdb.path);
        // `-nx`: a personal .gdbinit (a pwndbg or gef setup) may change
        // what gdb prints, which DAP cannot carry.
        cmd.args(["-q", "-nx", "-i", "dap"]);
        for s in SETTINGS {
            cmd.arg("-iex").arg(s);
        }
        match crate::paths::install_file("gdb", "exit_signal.py", EXIT_SIGNAL) {
            Ok(p) => {
                cmd.arg("-iex").arg(format!("source {}", p.display()));
            }
            Err(e) => notes.push(format!(
                "a program killed by a signal will read as exited with code 0: cannot write gdb's exit hook ({e})"
            )),
        }
        match crate::paths::install_file("gdb", "record_halt.py", RECORD_HALT) {
            Ok(p) => {
                cmd.arg("-iex").arg(format!("source {}", p.display()));
            }
            Err(e) => notes.push(format!(
                "a recording that fails at an instruction gdb cannot record may leave the session running: cannot write gdb's record hook ({e})"
            )),
        }
        match crate::paths::install_file("gdb", "record_limit.py", RECORD_LIMIT) {
            Ok(p) => {
                cmd.arg("-iex").arg(format!("source {}", p.display()));
            }
            Err(e) => notes.push(format!(
                "a recording that fills up will drop its oldest instructions and run on rather than stop: cannot write gdb's record hook ({e})"
            )),
        }
        for dir in SYSTEM_AUTO_LOAD.iter().filter(|d| Path::new(d).is_dir()) {
            cmd.arg("-iex")
                .arg(format!("add-auto-load-safe-path {dir}"))
                .arg("-iex")
                .arg(format!("add-auto-load-scripts-directory {dir}"));
        }
        if rust {
            // Stepping into `f(&items)` should reach `f`, not the standard
            // library's Deref on the way.
            cmd.arg("-iex").arg(STEP_OVER_STD);
            match rust_printers() {
                Some(p) => {
                    cmd.arg("-iex").arg(format!("source {}", p.display()));
                }
                None => notes.push(
                    "no Rust toolchain answered `rustc --print sysroot`, so rustc's pretty printers for gdb are not loaded: Vec, String, HashMap and Option show as their raw fields"
                        .to_string(),
                ),
            }
        }
        if let Some(t) = spec
            .stdio
            .as_ref()
            .filter(|_| native_spawn::on_terminal(spec))
        {
            // gdb gives the program one terminal for all three streams.
            cmd.arg("-iex")
                .arg(format!("set inferior-tty {}", t.terminal.display()));
        }
        let start = match &spec.target {
            Target::Attach(pid) => ("attach", json!({ "pid": pid })),
            Target::Program(p) => ("launch", launch_arguments(spec, p)),
            Target::Remote(r) => (
                "attach",
                json!({
                    "target": r.address(),
                    "program": r.program,
                }),
            ),
            // gdb's `attach` takes a core as `coreFile` and runs `core-file`.
            Target::Core { core, program } => {
                ("attach", json!({ "program": program, "coreFile": core }))
            }
            Target::Module(_) => return Err(native_spawn::no_modules("gdb")),
        };
        native_spawn::over_stdio(cmd, &gdb.path, spec, start, notes)
    }

    /// gdb's filters are Ada's; Rust panics stop through
    /// `exception_functions`.
    fn default_exception_filters(&self) -> &'static [&'static str] {
        &[]
    }

    fn quirks(&self) -> &'static Quirks {
        &QUIRKS
    }

    fn language(&self) -> &'static dyn Language {
        &GdbNative
    }

    /// rustc's names for each pointer's kind, which gdb drops.
    fn declared_types(
        &self,
        program: &Path,
    ) -> Option<crate::adapters::declared_types::DeclaredTypesRef> {
        pointer_index::for_program(program)
    }

    /// gdb reads `hitCondition` as the number of hits to ignore before
    /// it stops at every later one: `3` and `>=3` stop from the third hit
    /// on, as on lldb-dap; every Nth hit it cannot count.
    fn hit_condition(&self, count: &str) -> Result<String, String> {
        let t = count.trim();
        if t.starts_with('%') {
            return Err(format!(
                "gdb cannot stop on every Nth hit ({t}); give a count such as 3 (the third hit and each after), or a condition"
            ));
        }
        let n: u64 = t
            .trim_start_matches(['>', '=', ' '])
            .parse()
            .map_err(|_| format!("{count:?} is not a count; use a number such as 3, or >=3"))?;
        Ok(n.saturating_sub(1).to_string())
    }

    /// gdb's DAP has no data breakpoints; its `watch` does. `-location`
    /// watches the memory itself, so the watch outlives the frame that
    /// named it. One line only: the console would run a second as a
    /// command of its own.
    fn console_watch(&self, expression: &str) -> Option<String> {
        (!expression.contains(['\n', '\r'])).then(|| format!("watch -location {expression}"))
    }

    /// `Hardware watchpoint 2: -location c.hits` is removed by `delete 2`.
    fn console_unwatch(&self, answer: &str) -> Result<String, String> {
        watchpoint_number(answer)
            .map(|n| format!("delete {n}"))
            .ok_or_else(|| {
                answer
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty())
                    .unwrap_or("gdb set no watchpoint")
                    .to_string()
            })
    }

    /// gdb matches a Rust function by its whole path only: a bare `bump`
    /// is never found, where lldb-dap finds it.
    fn check_function(&self, spec: &LaunchSpec, name: &str) -> Result<(), String> {
        if name.contains("::") || !is_rust(spec) {
            return Ok(());
        }
        Err(format!(
            "gdb finds a Rust function by its path only: give {name:?} with its crate and modules (main::{name} for a binary built from src/main.rs), or give file and line"
        ))
    }

    /// gdb runs a condition itself at each hit, where the count a Rust
    /// program never calls is not there to call.
    fn check_condition(
        &self,
        spec: &LaunchSpec,
        condition: &str,
    ) -> Option<BoxFuture<'static, Result<(), String>>> {
        let call = parts::condition_calls_count(condition).filter(|_| is_rust(spec))?;
        let why = format!(
            "gdb runs a condition itself and cannot call {call} there (rustc leaves the standard library's generic methods out of the program); stop without the condition and read it with debug_evaluate, or test a field instead"
        );
        Some(futures::future::ready(Err(why)).boxed())
    }

    fn is_own_output(&self, line: &str) -> bool {
        OWN_OUTPUT.iter().any(|p| line.starts_with(p))
    }
}

/// The number gdb gave the watchpoint it just set (`Hardware watchpoint 2:
/// -location c.hits`, `Watchpoint 3: ...` where no hardware one is left).
fn watchpoint_number(answer: &str) -> Option<u64> {
    answer.lines().find_map(|l| {
        let l = l.trim();
        let rest = l
            .strip_prefix("Hardware watchpoint ")
            .or_else(|| l.strip_prefix("Watchpoint "))?;
        rest.split_once(':')?.0.parse().ok()
    })
}

fn rust_printers() -> Option<std::path::PathBuf> {
    rust_debugger_scripts()
        .map(|etc| etc.join(RUST_PRINTERS))
        .filter(|p| p.is_file())
}

/// gdb's launch takes the environment as an object and starts the program
/// when `configurationDone` comes; `stopAtBeginningOfMainSubprogram` stops
/// in the program's own `main` (Rust's, not the C shim rustc makes).
fn launch_arguments(spec: &LaunchSpec, program: &Path) -> Value {
    let env: serde_json::Map<String, Value> = std::env::vars()
        .chain(spec.env.iter().cloned())
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    json!({
        "program": program,
        "args": spec.args,
        "cwd": spec.cwd,
        "env": env,
        "stopAtBeginningOfMainSubprogram": spec.stop_on_entry,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hit_count_is_the_hits_gdb_ignores() {
        assert_eq!(Gdb.hit_condition("3"), Ok("2".to_string()));
        assert_eq!(Gdb.hit_condition(">=3"), Ok("2".to_string()));
        assert_eq!(Gdb.hit_condition("1"), Ok("0".to_string()));
        let e = Gdb.hit_condition("%3").unwrap_err();
        assert!(e.contains("gdb cannot stop on every Nth hit"), "{e}");
    }

    #[test]
    fn a_console_watch_is_removed_by_its_number() {
        assert_eq!(
            Gdb.console_unwatch("Hardware watchpoint 2: -location c.hits\n"),
            Ok("delete 2".to_string())
        );
        assert_eq!(
            Gdb.console_unwatch("Watchpoint 13: -location g"),
            Ok("delete 13".to_string())
        );
        assert_eq!(
            Gdb.console_unwatch("No symbol \"nosuch\" in current context.\n"),
            Err("No symbol \"nosuch\" in current context.".to_string())
        );
        assert_eq!(Gdb.console_watch("a\nrun"), None);
    }

    #[test]
    fn launch_arguments_keep_the_environment_and_add_the_users() {
        let mut spec = LaunchSpec::for_workspace(Path::new("/ws"));
        spec.env = vec![("FOO".into(), "bar".into())];
        spec.args = vec!["x".into()];
        let a = launch_arguments(&spec, Path::new("/ws/prog"));
        assert_eq!(a["env"]["FOO"], "bar");
        assert!(a["env"].get("PATH").is_some() || std::env::var_os("PATH").is_none());
        assert_eq!(a["args"][0], "x");
        assert_eq!(a["program"], "/ws/prog");
        assert_eq!(a["stopAtBeginningOfMainSubprogram"], false);
    }
}
