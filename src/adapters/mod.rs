//! The only place a debug adapter is named. An adapter is data (how to find,
//! install and spawn it, its launch arguments, its quirks) plus what its
//! language means (`Language`). The session engine sees only this trait.

mod apt;
pub mod build_output;
mod condition_check;
mod coredumpy;
pub mod declared_types;
mod source_functions;

pub mod debugpy;
pub mod definitions;
pub mod delve;
mod detect;
mod exception_chain;
mod exit_file;
mod gdb;
pub mod java;
pub mod js_debug;
mod language;
pub mod lldb;
mod native_code;
mod native_pure_calls;
mod native_spawn;
mod native_trace;
mod pip;
pub mod plain_values;
mod post_mortem_server;
pub mod program_end;
mod pystack;
mod rdbg;
pub mod recording;
pub mod side_effects;
mod signature;
mod spec;
pub mod stale;
pub mod value;
mod which;

use std::fmt;
use std::net::SocketAddr;
use std::pin::Pin;

use futures::future::BoxFuture;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};

use crate::dap::process::AdapterProcess;

pub use detect::{infer_language, infer_process_language};
pub use exception_chain::InnerException;
pub use exit_file::take_exit_code;
pub use language::{
    FoundFunction, Language, ListedLocal, LogPiece, Part, PartsRead, SetVariable, TraceFrame,
    c_like_path, is_ident, literal_value, parse_log_message, plain_traceback, split_path,
};
pub use program_end::{ProgramEnd, signal_name};
pub use spec::{LaunchSpec, PathMapping, ProgramStdio, Remote, Target};
pub use which::which;

/// How a value that a step out returned starts its name: `(return)`, or
/// `(return) f` where the adapter names the function.
pub const RETURN_VALUE: &str = "(return)";

#[derive(Debug, Clone, thiserror::Error)]
pub enum AdapterError {
    #[error("{0}")]
    NotFound(String),
    #[error("{what}. Fix it with: {fix}")]
    Missing { what: String, fix: String },
    /// The adapter cannot do what was asked; the text names the adapter.
    #[error("{0}")]
    Unsupported(String),
}

/// A found adapter: where, and which version.
#[derive(Debug, Clone)]
pub struct Found {
    pub version: String,
    /// The program or interpreter that runs it, for the user to see.
    pub path: String,
    /// Something about this install the user should know (an old version).
    pub warning: Option<String>,
}

/// How the engine reaches a spawned adapter.
pub enum Transport {
    Stdio {
        reader: Pin<Box<dyn AsyncRead + Send>>,
        writer: Pin<Box<dyn AsyncWrite + Send>>,
    },
    /// The adapter listens here; connect with retry until it answers.
    Tcp(SocketAddr),
    /// The adapter picks its port and prints it: `parse` finds the address
    /// in a line of its `stdout` (or whatever it prints the address to),
    /// which is drained afterwards. `who` names the adapter's program for
    /// the error when it never says.
    Announced {
        stdout: Pin<Box<dyn AsyncRead + Send>>,
        parse: crate::dap::announced::ParseAnnounced,
        who: &'static str,
    },
}

/// A spawned adapter, not yet spoken to.
pub struct Spawned {
    pub process: Option<AdapterProcess>,
    pub transport: Transport,
    /// The program's own output, where the adapter does not send it as
    /// events but lets it through its own stdout and stderr.
    pub program_output: Option<ProgramOutput>,
    /// The program reads and writes the session's terminal (`LaunchSpec::stdio`),
    /// so input typed there reaches it.
    pub on_terminal: bool,
    /// The `launch` or `attach` request and its arguments.
    pub start: (&'static str, Value),
    /// Facts the user should know about this launch.
    pub notes: Vec<String>,
    /// Where the program's exit code is written, for adapters that send no
    /// `exited` event: read when the root connection terminates.
    pub exit_code_file: Option<std::path::PathBuf>,
}

impl Spawned {
    /// A debug server that already runs (a remote attach): nothing is
    /// spawned, and the session connects to it and sends `attach`.
    pub fn server(remote: &Remote, attach: Value) -> Result<Spawned, AdapterError> {
        Ok(Spawned {
            process: None,
            transport: Transport::Tcp(remote.socket_addr()?),
            program_output: None,
            on_terminal: false,
            start: ("attach", attach),
            notes: vec![],
            exit_code_file: None,
        })
    }
}

/// What the engine knows when an adapter asks, with a `startDebugging`
/// reverse request, for a child session.
pub struct ChildContext<'a> {
    pub spec: &'a LaunchSpec,
    /// Where the parent connection reached the adapter, when over TCP.
    pub parent_addr: Option<SocketAddr>,
    /// The host of a remote attach: children may connect there too, and
    /// nowhere else off this machine.
    pub remote_host: Option<String>,
}

/// How to start a child connection.
pub struct ChildStart {
    pub transport: Transport,
    /// The `launch` or `attach` request and its arguments.
    pub start: (&'static str, Value),
    /// The child's name for people ("prog.js [18436]", "Subprocess 24045").
    pub name: String,
}

pub struct ProgramOutput {
    pub stdout: Pin<Box<dyn AsyncRead + Send>>,
    pub stderr: Pin<Box<dyn AsyncRead + Send>>,
}

/// Where the program's stdout and stderr reach us.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputSource {
    /// As DAP `output` events.
    Events,
    /// Through the adapter process's own stdout and stderr.
    Process,
}

/// What an adapter does that the protocol does not promise, as data the
/// engine reads instead of testing the adapter's name.
#[derive(Debug, Clone)]
pub struct Quirks {
    /// A frame's id and its locals reference are derived from the frame and
    /// stay valid across stops, so the next stop may read them early.
    pub stable_frame_references: bool,
    pub output: OutputSource,
    /// Output lines end in `\r\n`; the engine turns them into `\n`.
    pub crlf_output: bool,
    /// Stop reasons renamed to the DAP specification's own.
    pub stop_reasons: &'static [(&'static str, &'static str)],
    /// Variables whose names start with one of these are the adapter's own.
    pub hidden_variable_prefixes: &'static [&'static str],
    /// The `evaluate` context that runs any expression (some adapters
    /// refuse arithmetic under `hover`).
    pub evaluate_context: &'static str,
    /// A step cut short by a breakpoint can end on the next resume as an
    /// extra `step` stop, which nobody asked for.
    pub stale_step_stops: bool,
    /// A line step may stop again on the line it started from (a line the
    /// compiler split into several statements, as Rust's overflow checks
    /// do): such a stop is stepped on from, as if the line were one.
    pub same_line_steps: bool,
    /// `pause` may be acknowledged without halting; check with a stackTrace.
    pub pause_may_not_halt: bool,
    /// Which scopes are worth reading at a stop (registers never are).
    pub skipped_scopes: &'static [&'static str],
    /// Scopes, by the start of their names, that together hold a frame's
    /// locals (a block's, then its function's), innermost first; where
    /// empty, the one named Locals (or the first) holds them all.
    pub local_scopes: &'static [&'static str],
    /// No `exited` event: the exit code is told (as output, read by
    /// `Adapter::exit_code_from_output`) only in answer to `disconnect`, so
    /// a `terminated` disconnects before the session ends.
    pub exit_code_after_disconnect: bool,
    /// A failed `launch` answers only "see the console"; the reason (a
    /// compiler's message) is in the stderr output sent just before.
    pub start_error_in_output: bool,
    /// Runtime functions whose call is an exception the language has no
    /// exception filter for; the engine breaks on them and shows the stop
    /// as an exception.
    pub exception_functions: &'static [ExceptionFunction],
    /// Where a stop on entry should land, as a function breakpoint the
    /// engine sets until the first stop, for an adapter whose own entry
    /// stop is before any of the program's code.
    pub entry_function: Option<&'static str>,
    /// Console lines the adapter writes about itself (banners, its own
    /// progress), by their start: kept out of the program's output.
    pub console_noise: &'static [&'static str],
    /// How exception breakpoints by type are said in `exceptionOptions`,
    /// where the adapter takes them.
    pub exception_options: Option<ExceptionOptionsQuirk>,
    /// The adapter claims function breakpoints but matches a bare name
    /// only and reports no place: functions are found in the source instead.
    pub functions_by_source: bool,
    /// Whether a stop reads its callers' locals for the call stack's
    /// `f(a=1)` lines; off where each read costs the adapter tens of
    /// milliseconds, one after another.
    pub caller_arguments: bool,
    /// The `evaluate` context whose answer is the whole value, uncut.
    pub whole_value_context: Option<&'static str>,
    /// A breakpoint whose condition fails to evaluate stops the program as
    /// a hit would, its error told as output (`Adapter::condition_error`)
    /// around the stop.
    pub condition_error_stops: bool,
    /// The adapter's name for the value a step out returned; the session
    /// calls it `(return)`, as it calls every adapter's.
    pub return_value_name: Option<&'static str>,
    /// The scope that holds a function's `static` locals (with the file's
    /// globals), where the locals scope leaves them out.
    pub statics_scope: Option<&'static str>,
    /// Variables the adapter marks `presentationHint.visibility: internal`
    /// (an array's `length`, an object's prototype) are left out.
    pub hide_internal_variables: bool,
    /// The root connection only launches: the program's stops, threads and
    /// variables come on a child connection the adapter asks for.
    pub program_on_child: bool,
    /// An attach reports the halt that connecting causes as a stop with
    /// this description before `configurationDone` is answered, and then
    /// resumes the program itself: that stop is not the program's.
    pub attach_halt: Option<&'static str>,
    /// An expression that ends the program, evaluated before the
    /// `disconnect` of a remote attach that ends it: for an adapter that
    /// leaves a remote program running even when told to terminate it.
    pub end_remote_program: Option<&'static str>,
    /// Exception filters the adapter offers for languages pairdbg does not
    /// debug, left out of every list of them.
    pub foreign_exception_filters: &'static [&'static str],
    /// The adapter has no `exceptionInfo`: this console command (evaluated
    /// in the `repl` context) describes an exception stop instead, and its
    /// text goes to the language's `exception_parts` as the description.
    pub exception_info_command: Option<&'static str>,
    /// The adapter has no `exceptionInfo` (and may fail on being asked):
    /// the `stopped` event's description says the exception, for the
    /// language's `exception_parts` to read.
    pub exception_in_stopped_event: bool,
    /// No `terminated` or `exited` when the program ends: the adapter runs
    /// in the program's process, so its connection closing is the end, and
    /// the exit code is in `Spawned::exit_code_file`.
    pub ends_by_closing: bool,
    /// A `stepBack` that moves is never answered: its `stopped` event ends
    /// it. One refused is still answered, with the reason.
    pub step_back_unanswered: bool,
    /// The adapter cannot disassemble before an address (a negative
    /// `instructionOffset` loses the instruction at it): the disassembly
    /// starts at the current instruction.
    pub disassembles_forward_only: bool,
    /// A program SIGKILLed while the adapter holds it stopped is never
    /// reported: the next step is acknowledged and nothing follows. Its
    /// death by a signal, read from the program itself, ends the session
    /// while it runs too, not only while it is stopped.
    pub silent_program_death: bool,
    /// Messages the adapter sends as a translation key with no text:
    /// each key and the text a person reads in its place.
    pub message_keys: &'static [(&'static str, &'static str)],
}

/// The adapter's words for exception options: the category the first path
/// segment names, and what each of its filters means as a break mode
/// (options replace the filters, so filters are sent as options too).
#[derive(Debug, Clone, Copy)]
pub struct ExceptionOptionsQuirk {
    pub category: &'static str,
    pub filter_modes: &'static [(&'static str, &'static str)],
    /// Whether the adapter can leave a type's subclasses out; where it
    /// cannot, the engine resumes a subclass's stop itself.
    pub exact_types: bool,
}

/// A function whose call means an exception (Rust's `rust_panic`).
#[derive(Debug, Clone, Copy)]
pub struct ExceptionFunction {
    pub function: &'static str,
    /// The exception's name in the viewport (`panic`).
    pub name: &'static str,
}

impl Quirks {
    pub const DEFAULT: Quirks = Quirks {
        stable_frame_references: false,
        output: OutputSource::Events,
        crlf_output: false,
        stop_reasons: &[],
        hidden_variable_prefixes: &[],
        evaluate_context: "repl",
        stale_step_stops: false,
        same_line_steps: false,
        pause_may_not_halt: false,
        skipped_scopes: &[],
        local_scopes: &[],
        exit_code_after_disconnect: false,
        start_error_in_output: false,
        exception_functions: &[],
        entry_function: None,
        console_noise: &[],
        exception_options: None,
        functions_by_source: false,
        caller_arguments: true,
        whole_value_context: None,
        condition_error_stops: false,
        return_value_name: None,
        statics_scope: None,
        hide_internal_variables: false,
        program_on_child: false,
        attach_halt: None,
        end_remote_program: None,
        foreign_exception_filters: &[],
        exception_info_command: None,
        exception_in_stopped_event: false,
        ends_by_closing: false,
        step_back_unanswered: false,
        disassembles_forward_only: false,
        silent_program_death: false,
        message_keys: &[],
    };

    /// The specification's name for a stop reason this adapter reports.
    pub fn stop_reason(&self, reason: &str) -> String {
        self.stop_reasons
            .iter()
            .find(|(from, _)| *from == reason)
            .map(|(_, to)| to.to_string())
            .unwrap_or_else(|| reason.to_string())
    }

    /// A message from the adapter (a breakpoint's), as a person reads it.
    pub fn message_text(&self, message: &str) -> String {
        self.message_keys
            .iter()
            .find(|(key, _)| *key == message)
            .map(|(_, text)| text.to_string())
            .unwrap_or_else(|| message.to_string())
    }

    pub fn is_console_noise(&self, text: &str) -> bool {
        self.console_noise.iter().any(|p| text.starts_with(p))
    }

    /// A variable's name as the session says it: `(return)` for the value
    /// a step out returned.
    pub fn variable_name(&self, name: String) -> String {
        match self.return_value_name {
            Some(n) if n == name => RETURN_VALUE.to_string(),
            _ => name,
        }
    }

    pub fn hides_variable(&self, name: &str) -> bool {
        self.hidden_variable_prefixes
            .iter()
            .any(|p| name.starts_with(p))
    }
}

pub trait Adapter: Send + Sync + 'static {
    /// The name users know it by.
    fn name(&self) -> &'static str;
    /// The languages it debugs, as `language` takes them.
    fn languages(&self) -> &'static [&'static str];
    /// The languages it is the first choice for, where it is installed.
    fn preferred_languages(&self) -> &'static [&'static str] {
        self.languages()
    }
    /// Whether it is here, cheaply: for choosing a language's adapter.
    fn is_installed(&self) -> bool {
        true
    }
    /// What a `language` program loses when it runs on `other` because
    /// this adapter, its first choice, is not installed.
    fn fallback_note(&self, _other: &str, _language: &str) -> Option<&'static str> {
        None
    }
    /// Whether it reads a core file (`Target::Core`); the others are
    /// refused before they start.
    fn opens_core_files(&self) -> bool {
        false
    }
    /// Whether it reads core files and runs nothing: chosen only for a
    /// core it reads, or by name.
    fn only_core_files(&self) -> bool {
        false
    }
    /// How it records the program to run it backwards, where it can.
    fn recorder(&self) -> Option<&'static recording::Recorder> {
        None
    }
    /// The `type`s of VS Code launch.json configurations it runs.
    fn launch_json_types(&self) -> &'static [&'static str];
    /// The environment a launch.json configuration of its type implies in
    /// that type's own words (vscode-java's `classPaths`).
    fn launch_json_env(&self, _configuration: &Value) -> Vec<(String, String)> {
        vec![]
    }
    /// The launch.json key that names what runs as a module.
    fn launch_json_module_key(&self) -> &'static str {
        "module"
    }
    /// The debug server a launch.json `request: "attach"` configuration of
    /// its type names, read in that type's own words: `(host, port)`, or
    /// why not, naming the key. `None`: it runs no attach configurations.
    fn launch_json_attach(&self, _configuration: &Value) -> Option<Result<(String, u16), String>> {
        None
    }
    /// Finds the adapter and its version, or says how to get it.
    fn probe(&self, spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>>;
    /// The exact command that installs it for this launch.
    fn install_command(&self, spec: &LaunchSpec) -> String;
    /// Installs it, or says why not (and the command, where root is needed).
    fn install(&self, spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>>;
    /// Installs it from a file the user downloaded (`--from`), or says it
    /// cannot.
    fn install_from(
        &self,
        file: &std::path::Path,
    ) -> BoxFuture<'static, Result<Found, AdapterError>> {
        let message = format!(
            "{} installs through its package manager, not from a file such as {}",
            self.name(),
            file.display()
        );
        Box::pin(async move { Err(AdapterError::Unsupported(message)) })
    }
    /// Spawns the adapter (fork and exec at most: the engine never waits
    /// here) with the `launch` or `attach` arguments for `spec`.
    fn spawn(&self, spec: &LaunchSpec) -> Result<Spawned, AdapterError>;
    /// The exception filters on by default: a crash stops the program.
    fn default_exception_filters(&self) -> &'static [&'static str];
    /// The exception filters that stop at every exception, caught or not,
    /// where the adapter has one; else the default ones.
    fn every_exception_filters(&self) -> &'static [&'static str] {
        self.default_exception_filters()
    }
    fn quirks(&self) -> &'static Quirks;
    /// What the program's language means: parameters, paths, assignment.
    fn language(&self) -> &'static dyn Language;
    /// Where the program's crash dump goes, for a launch that keeps one
    /// (`--keep-core`) and an adapter that writes it itself rather than
    /// leaving a core to the kernel.
    fn crash_dump(&self, _spec: &LaunchSpec) -> Option<std::path::PathBuf> {
        None
    }
    /// What `program`'s own file declares of types the adapter names
    /// less well. It may read the whole file: call it off the runtime.
    fn declared_types(
        &self,
        _program: &std::path::Path,
    ) -> Option<declared_types::DeclaredTypesRef> {
        None
    }
    /// The program's exit code, from a line of output that tells it, for
    /// adapters that send no `exited` event.
    fn exit_code_from_output(&self, _line: &str) -> Option<i64> {
        None
    }
    /// What the number in an `exited` event (or read from output) says of
    /// the program's end. Adapters differ on a signal's death: most give a
    /// number that a real exit code could also be.
    fn program_end(&self, code: i64) -> ProgramEnd {
        ProgramEnd::Code(code)
    }
    /// The signal that killed the program, from a line of output that tells
    /// it (what pairdbg's hooks in the adapter write).
    fn signal_from_output(&self, _line: &str) -> Option<i32> {
        None
    }
    /// Whether a line on the adapter process's stdout or stderr is the
    /// adapter's own rather than the program's (`OutputSource::Process`).
    fn is_own_output(&self, _line: &str) -> bool {
        false
    }
    /// Whether output the adapter sends as the program's, before the program
    /// has started, is its own (the build it runs first).
    fn is_start_output(&self, _output: &str) -> bool {
        false
    }
    /// Checks that a breakpoint condition parses in the program's language,
    /// answering the parser's message when not; None where the adapter
    /// itself reports bad conditions (or nothing can check them).
    fn check_condition(
        &self,
        _spec: &LaunchSpec,
        _condition: &str,
    ) -> Option<BoxFuture<'static, Result<(), String>>> {
        None
    }
    /// Where the adapter has no DAP data breakpoints but its console
    /// watches writes: the console command that watches `expression`.
    fn console_watch(&self, _expression: &str) -> Option<String> {
        None
    }
    /// From the console's answer to `console_watch`, the command that
    /// removes that watch, or why no watch was set.
    fn console_unwatch(&self, answer: &str) -> Result<String, String> {
        Err(answer.to_string())
    }
    /// A breakpoint's hit count (`3`, `>=3`, `%3`) as the adapter's
    /// `hitCondition` says it, or why the adapter cannot count so.
    fn hit_condition(&self, count: &str) -> Result<String, String> {
        Ok(count.to_string())
    }
    /// Checks that the adapter can find a function breakpoint's name in
    /// this program, answering why not and what to give instead.
    fn check_function(&self, _spec: &LaunchSpec, _name: &str) -> Result<(), String> {
        Ok(())
    }
    /// The adapter's report that a breakpoint's condition raised, from its
    /// output: (the condition, the error); an empty error when the lines
    /// after the report tell it (`condition_error_detail`).
    fn condition_error(&self, _output: &str) -> Option<(String, String)> {
        None
    }
    /// A stop the adapter reports as an exception (its `description` and
    /// `text`) that is a breakpoint condition failing where it stopped:
    /// the condition's error.
    fn condition_error_stop(
        &self,
        _description: Option<&str>,
        _text: Option<&str>,
    ) -> Option<String> {
        None
    }
    /// A line after a report of a failed condition: None when it is no
    /// part of the report, Some(Some(error)) when it is the error.
    fn condition_error_detail(&self, _line: &str) -> Option<Option<String>> {
        None
    }
    /// For adapters that build the program themselves, where a failed
    /// launch's build broke, from the adapter's output: (file, line,
    /// message). Read only then: a running program may print lines that
    /// look like a compiler's.
    fn build_error(&self, _output_tail: &str) -> Option<(String, u64, String)> {
        None
    }
    /// A failed launch's cause in one line, where the adapter's output
    /// holds one that says it all (a toolchain that cannot be had): shown
    /// instead of that whole output.
    fn start_error_summary(&self, _output_tail: &str) -> Option<String> {
        None
    }
    /// Where a compiler's relative paths start, for adapters that build the
    /// program themselves; None: the program's working directory.
    fn build_dir(&self, _spec: &LaunchSpec) -> Option<std::path::PathBuf> {
        None
    }
    /// Told once, when the program starts its first child session: until
    /// then a note about children would only be noise.
    fn first_child_note(&self) -> Option<&'static str> {
        None
    }
    /// How to open the child connection a `startDebugging` request (its
    /// `arguments`) asks for.
    fn child_connection(
        &self,
        _ctx: &ChildContext<'_>,
        _arguments: &Value,
    ) -> Result<ChildStart, AdapterError> {
        Err(AdapterError::Unsupported(format!(
            "{} starts no child sessions",
            self.name()
        )))
    }
}

impl fmt::Debug for dyn Adapter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An adapter as sessions hold it: one static instance each.
pub type AdapterRef = &'static dyn Adapter;

/// Every adapter pairdbg knows, in the order `pairdbg adapters` lists them.
pub fn all() -> &'static [AdapterRef] {
    static ALL: [AdapterRef; 9] = [
        &debugpy::Debugpy,
        &gdb::Gdb,
        &lldb::Lldb,
        &delve::Delve,
        &js_debug::JsDebug,
        &java::Java,
        &rdbg::Rdbg,
        &coredumpy::COREDUMPY,
        &pystack::PYSTACK,
    ];
    &ALL
}

/// The adapter a launch runs on, and what the user should know about the
/// choice.
#[derive(Debug, Clone, Copy)]
pub struct Chosen {
    pub adapter: AdapterRef,
    /// Why the language's first choice was not taken.
    pub note: Option<&'static str>,
}

/// The adapter for a language name, or an error listing what can be debugged.
pub fn for_language(language: &str) -> Result<AdapterRef, String> {
    choose(language, None).map(|c| c.adapter)
}

/// The adapter for `language`: the one named, which must debug it; else
/// the language's first choice when installed; else another installed one
/// that debugs it, with a note saying what that costs; else the first
/// choice, whose start says how to install it.
pub fn choose(language: &str, named: Option<&str>) -> Result<Chosen, String> {
    let l = language.to_lowercase();
    let able: Vec<AdapterRef> = all()
        .iter()
        .copied()
        .filter(|a| a.languages().contains(&l.as_str()))
        .collect();
    if able.is_empty() {
        return Err(format!(
            "{language} is not supported; pairdbg debugs {}",
            supported_languages().join(", ")
        ));
    }
    if let Some(name) = named {
        let names = || able.iter().map(|a| a.name()).collect::<Vec<_>>().join(", ");
        let adapter = by_name(name).ok_or_else(|| {
            format!(
                "there is no adapter {name:?}; {language} programs are debugged with {}",
                names()
            )
        })?;
        if !able.iter().any(|a| a.name() == adapter.name()) {
            return Err(format!(
                "{} cannot debug {language}; these can: {}",
                adapter.name(),
                names()
            ));
        }
        return Ok(Chosen {
            adapter,
            note: None,
        });
    }
    let first = able
        .iter()
        .copied()
        .find(|a| a.preferred_languages().contains(&l.as_str()))
        .unwrap_or(able[0]);
    if first.is_installed() {
        return Ok(Chosen {
            adapter: first,
            note: None,
        });
    }
    match able
        .iter()
        .copied()
        .find(|a| a.name() != first.name() && !a.only_core_files() && a.is_installed())
    {
        Some(other) => Ok(Chosen {
            adapter: other,
            note: first.fallback_note(other.name(), &l),
        }),
        None => Ok(Chosen {
            adapter: first,
            note: None,
        }),
    }
}

/// The adapter named `word` (`lldb-dap`, or `lldb` for short).
pub fn by_name(word: &str) -> Option<AdapterRef> {
    let w = word.to_lowercase();
    all()
        .iter()
        .copied()
        .find(|a| a.name() == w || a.name().split('-').next() == Some(w.as_str()))
}

/// The adapter that reads a core file on its own, where its program's
/// binary says nothing of its language: coredumpy for a Python crash dump,
/// pystack for the core a Python interpreter (`command`, the name the core
/// kept) wrote.
pub fn post_mortem_reader(core: &std::path::Path, command: Option<&str>) -> Option<AdapterRef> {
    if coredumpy::is_python_dump(core) {
        return Some(&coredumpy::COREDUMPY);
    }
    command
        .is_some_and(|c| c.starts_with("python"))
        .then_some(&pystack::PYSTACK as AdapterRef)
}

/// The adapter named `word`, or the one for the language `word`.
pub fn by_name_or_language(word: &str) -> Result<AdapterRef, String> {
    by_name(word).map(Ok).unwrap_or_else(|| for_language(word))
}

/// The adapter named `word`, or the language `word`'s first choice whether
/// or not it is installed: what installing for a language means. (Another
/// adapter already here only stands in for it.)
pub fn to_install(word: &str) -> Result<AdapterRef, String> {
    if let Some(a) = by_name(word) {
        return Ok(a);
    }
    let l = word.to_lowercase();
    all()
        .iter()
        .copied()
        .find(|a| a.preferred_languages().contains(&l.as_str()))
        .map(Ok)
        .unwrap_or_else(|| for_language(word))
}

/// The names of every adapter, as `adapter` takes them.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|a| a.name()).collect()
}

/// The adapter that runs launch.json configurations of `type`.
pub fn for_launch_json_type(t: &str) -> Option<AdapterRef> {
    all()
        .iter()
        .copied()
        .find(|a| a.launch_json_types().contains(&t))
}

pub fn supported_languages() -> Vec<&'static str> {
    let mut languages: Vec<&'static str> = vec![];
    for l in all().iter().flat_map(|a| a.languages()) {
        if !languages.contains(l) {
            languages.push(l);
        }
    }
    languages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installing_for_a_language_means_its_first_choice_whatever_is_installed() {
        assert_eq!(to_install("c").unwrap().name(), "lldb-dap");
        assert_eq!(to_install("C++").unwrap().name(), "lldb-dap");
        assert_eq!(to_install("rust").unwrap().name(), "gdb");
        assert_eq!(to_install("python").unwrap().name(), "debugpy");
        assert_eq!(to_install("coredumpy").unwrap().name(), "coredumpy");
        assert!(to_install("cobol").is_err());
    }

    #[test]
    fn an_adapter_for_dumps_only_is_never_the_choice_for_a_program() {
        assert_eq!(choose("python", None).unwrap().adapter.name(), "debugpy");
        assert_eq!(
            choose("python", Some("coredumpy")).unwrap().adapter.name(),
            "coredumpy"
        );
        let languages = supported_languages();
        assert_eq!(languages.iter().filter(|l| **l == "python").count(), 1);
    }
}
