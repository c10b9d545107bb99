//! The immutable snapshot both controllers render, and its parts.

use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    Human,
    Agent,
    /// A program using the REST API.
    Rest,
    /// A shell command (`pairdbg ctl`).
    Ctl,
}

impl Origin {
    pub fn noun(self) -> &'static str {
        match self {
            Origin::Human => "the person",
            Origin::Agent => "the agent",
            Origin::Rest => "a REST client",
            Origin::Ctl => "the shell",
        }
    }

    /// One word, for tags and records.
    pub fn tag(self) -> &'static str {
        match self {
            Origin::Human => "person",
            Origin::Agent => "agent",
            Origin::Rest => "rest",
            Origin::Ctl => "ctl",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RunState {
    Starting,
    Running,
    Stopped,
    Exited,
    Error,
}

impl RunState {
    pub fn describe(self) -> &'static str {
        match self {
            RunState::Starting => "starting",
            RunState::Running => "running",
            RunState::Stopped => "stopped",
            RunState::Exited => "exited",
            RunState::Error => "failed",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Frame {
    pub id: i64,
    pub name: String,
    pub file: Option<PathBuf>,
    pub line: u64,
    /// Marked by the adapter as not the program's own code (a runtime's
    /// internals, a skipped library): shown apart from the program's frames.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub external: bool,
    /// The function's parameter names, where its language can read them
    /// from the source (read for the frames of a stop).
    #[serde(skip)]
    pub params: Option<Vec<String>>,
    /// The adapter's `instructionPointerReference`, read as an address,
    /// where it sends one.
    #[serde(skip)]
    pub pc: Option<u64>,
}

pub use crate::adapters::RETURN_VALUE;

#[derive(Debug, Clone, Default, Serialize)]
pub struct Var {
    pub name: String,
    pub value: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub reference: i64,
    pub evaluate_name: Option<String>,
    /// Direct children, fetched one level deep for previews.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub children: Option<Vec<Var>>,
    /// The value was cut to our storage cap.
    pub truncated: bool,
    /// The whole value's length in characters, read after a cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<usize>,
    /// How many indexed children the adapter says it has (`indexedVariables`):
    /// they are then read a page at a time.
    #[serde(skip)]
    pub indexed: Option<usize>,
    /// Not the program's own in its language's view (`__dunder__` in
    /// Python): kept for paths, left out of views.
    #[serde(skip)]
    pub hidden: bool,
    /// Why the value (or the children its preview needs) was not read:
    /// shown in its place, never a guess.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_read: Option<String>,
    /// The value's text was composed from its children by its language
    /// (gdb's Rust enums): the text is what to show, the children are
    /// kept for expanding it.
    #[serde(skip)]
    pub composed: bool,
    /// The language it was read in, which builds its value tree.
    #[serde(skip)]
    pub language: crate::adapters::value::LanguageOf,
}

impl Var {
    /// A value the adapter did not give in time (or at all), and why.
    pub fn not_read(name: &str, reason: String) -> Var {
        Var {
            name: name.to_string(),
            not_read: Some(reason),
            ..Var::default()
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct RaiseSite {
    pub file: std::path::PathBuf,
    pub line: u64,
    pub function: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ExceptionDetails {
    pub type_name: String,
    pub message: String,
    /// Where it was raised, when the adapter says: possibly a frame the
    /// viewport's stack does not show.
    pub raised_at: Option<RaiseSite>,
    /// The type by qualified name, when the adapter's own name for it
    /// leaves the module out.
    #[serde(skip)]
    pub qualified_type: Option<String>,
    /// Whether it stopped where raised rather than for going uncaught,
    /// when the adapter says.
    #[serde(skip)]
    pub first_chance: Option<bool>,
    /// The adapter's DAP breakMode for it (`always`, `unhandled`, ...),
    /// when it said.
    #[serde(skip)]
    pub break_mode: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct WatchValue {
    pub expression: String,
    pub origin: Origin,
    pub value: Result<Var, String>,
}

#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub lines: Vec<String>,
}

/// Everything known about the current stop, fetched once per stop.
#[derive(Debug, Clone, Serialize)]
pub struct StopInfo {
    pub reason: String,
    pub description: Option<String>,
    pub thread_id: i64,
    pub frames: Vec<Frame>,
    pub total_frames: usize,
    pub locals: Vec<Var>,
    pub locals_reference: i64,
    pub exception: Option<ExceptionDetails>,
    /// Set when the person or agent chose a thread other than the one that
    /// stopped: which one stopped, and why.
    pub thread_note: Option<String>,
    #[serde(skip)]
    pub source: Option<Arc<SourceFile>>,
    /// The sources of the frames read, for signatures; local reads, cached.
    #[serde(skip)]
    pub files: Vec<Arc<SourceFile>>,
    /// The locals of the caller frames whose lines show arguments.
    #[serde(skip)]
    pub callers: Vec<CallerLocals>,
    /// The breakpoint (or exception) this stop was a hit of.
    pub hit: Option<super::breakpoint_hit::BreakpointHit>,
    /// The error of the breakpoint's condition, where the adapter stops
    /// when it fails: the stop is no hit of the condition.
    pub condition_error: Option<String>,
    /// The process that stopped, named when the session has children.
    pub process: Option<String>,
    /// Its number for `child` arguments, when the session has children.
    pub child: Option<u32>,
    /// The adapter connection it was read on. A restart makes a new one,
    /// so stops of two runs never read as the same frame.
    #[serde(skip)]
    pub connection: u32,
}

impl Var {
    /// The value a step out returned, rather than a local.
    pub fn is_return_value(&self) -> bool {
        self.name.starts_with(RETURN_VALUE)
    }
}

impl StopInfo {
    /// The locals read for the frame at `index` of the stack, if any were.
    pub fn frame_locals(&self, index: usize) -> Option<&[Var]> {
        if index == 0 {
            return Some(&self.locals);
        }
        let id = self.frames.get(index)?.id;
        self.callers
            .iter()
            .find(|c| c.frame_id == id)
            .map(|c| c.vars.as_slice())
    }
}

/// A caller frame's locals, read so that its stack line shows the values of
/// its arguments.
#[derive(Debug, Clone)]
pub struct CallerLocals {
    pub frame_id: i64,
    pub reference: i64,
    pub vars: Vec<Var>,
}

/// What a breakpoint does when reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BreakpointKind {
    /// Stops at a line.
    Blocking,
    /// Records a message in the trace log and lets the program run on.
    Tracepoint,
    /// Stops on entry to a named function.
    Function,
}

impl BreakpointKind {
    pub fn noun(self) -> &'static str {
        match self {
            BreakpointKind::Blocking => "blocking",
            BreakpointKind::Tracepoint => "tracepoint",
            BreakpointKind::Function => "function",
        }
    }
}

/// A tracepoint's limits on what it records.
#[derive(Debug, Clone, Default, Serialize)]
pub struct TraceLimits {
    /// Record every Nth hit only (0 and 1: every hit).
    pub every: u64,
    /// Disable the tracepoint after this many records (0: never).
    pub max_records: u64,
    /// Records made so far.
    pub records: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Breakpoint {
    pub id: u64,
    pub kind: BreakpointKind,
    /// A function breakpoint's function, as given.
    pub function: Option<String>,
    /// The file; for a function breakpoint the adapter binds, the file it
    /// reported (empty until then).
    pub file: PathBuf,
    pub line: u64,
    /// A line's text the breakpoint follows: its line is found again from
    /// this text whenever the file is sent, so edits do not move it off.
    pub statement: Option<String>,
    /// How the breakpoint was placed when the adapter could not place it
    /// itself (a function found in the source).
    pub resolved: Option<String>,
    /// Times the program reached it so far.
    pub hits: u64,
    pub trace: Option<TraceLimits>,
    pub condition: Option<String>,
    pub hit_condition: Option<String>,
    pub log_message: Option<String>,
    pub origin: Origin,
    pub verified: bool,
    /// The line the adapter bound it to, if it moved.
    pub bound_line: Option<u64>,
    /// The text of its line when it was set: when lines are inserted or
    /// deleted above it, the breakpoint moves with this text.
    pub line_text: Option<String>,
    pub message: Option<String>,
    /// A disabled breakpoint is kept but not sent to the adapter.
    pub enabled: bool,
    #[serde(skip)]
    pub temporary: bool,
}

/// A breakpoint on exceptions of one type.
#[derive(Debug, Clone, Serialize)]
pub struct ExceptionBreakpoint {
    /// Shares the numbering of line breakpoints.
    pub id: u64,
    pub exception_type: String,
    /// Break where it is raised, handled or not.
    pub first_chance: bool,
    /// Break when nothing handles it.
    pub second_chance: bool,
    pub include_subtypes: bool,
    pub enabled: bool,
    pub verified: bool,
    pub hits: u64,
    pub origin: Origin,
}

/// A warning about a breakpoint; `seq` rises with each.
#[derive(Debug, Clone, Serialize)]
pub struct Warning {
    pub seq: u64,
    pub breakpoint_id: Option<u64>,
    pub text: String,
}

impl Breakpoint {
    /// Sent with its file's `setBreakpoints`, rather than as a function
    /// breakpoint the adapter places.
    pub fn is_source(&self) -> bool {
        self.kind != BreakpointKind::Function || self.resolved.is_some()
    }

    /// The line it is at: where the adapter bound it, else where it was set.
    pub fn at_line(&self) -> u64 {
        self.bound_line.unwrap_or(self.line)
    }
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct ExitInfo {
    /// None where a signal ended the program, or the code was not read.
    pub exit_code: Option<i64>,
    /// The signal that killed the program (`SIGKILL`), where it is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
    /// `exit_code` may be a signal's number: the adapter does not say.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub code_or_signal: bool,
    /// Who ended the program by ending its session, where nothing else
    /// of its end was read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terminated_by: Option<Origin>,
    pub summary: String,
}

/// Said after an exit code the adapter gives alike for a signal.
pub const CODE_OR_SIGNAL: &str = "the adapter does not say whether a signal ended it";

impl ExitInfo {
    pub fn from_end(end: Option<crate::adapters::ProgramEnd>) -> ExitInfo {
        use crate::adapters::{ProgramEnd, signal_name};
        let mut exit = ExitInfo::default();
        match end {
            Some(ProgramEnd::Code(c)) => exit.exit_code = Some(c),
            Some(ProgramEnd::CodeOrSignal(c)) => {
                exit.exit_code = Some(c);
                exit.code_or_signal = true;
            }
            Some(ProgramEnd::Signal(s)) => {
                exit.signal = Some(
                    signal_name(s)
                        .map(str::to_string)
                        .unwrap_or_else(|| format!("signal {s}")),
                )
            }
            Some(ProgramEnd::Unread) | None => {}
        }
        exit
    }

    /// How the program ended, after "The program": `killed by SIGKILL`,
    /// `exited with code 3`.
    pub fn ended(&self) -> String {
        match (&self.signal, self.exit_code) {
            (Some(s), _) => format!("was killed by {s}"),
            (None, Some(c)) if self.code_or_signal => {
                format!("exited with code {c} ({CODE_OR_SIGNAL})")
            }
            (None, Some(c)) => format!("exited with code {c}"),
            (None, None) => match self.terminated_by {
                Some(o) => format!("was terminated at {}'s request", o.noun()),
                None => "has exited".into(),
            },
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Note {
    pub origin: Origin,
    pub text: String,
    pub epoch: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Change {
    pub epoch: u64,
    pub origin: Option<Origin>,
    pub what: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Snapshot {
    pub session_id: String,
    pub epoch: u64,
    pub state: RunState,
    pub program: String,
    pub workspace: PathBuf,
    /// Rises once per completed stop; waiters compare it.
    pub stop_seq: u64,
    pub stop: Option<StopInfo>,
    pub exit: Option<ExitInfo>,
    pub error: Option<String>,
    /// Set when the adapter left a request unanswered past its deadline and
    /// has said nothing since: the program is not known to run, and a
    /// waiter is told so rather than that it is running.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub silent: Option<String>,
    /// The build step under way before the start, by its command.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub building: Option<String>,
    /// The resume request (`next`, `continue`, ...) the adapter has not
    /// answered yet: until it does, the program is not known to move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unanswered: Option<String>,
    pub breakpoints: Vec<Breakpoint>,
    /// The expression whose writes stop the program (a data breakpoint;
    /// one at a time), while one is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_watch: Option<String>,
    pub exception_filters: Vec<String>,
    /// Exception breakpoints by exception type.
    pub exception_types: Vec<ExceptionBreakpoint>,
    /// Set at a stop that ended a command early (a step count cut short,
    /// a run to a line that stopped elsewhere): why.
    pub stop_note: Option<String>,
    /// Problems with breakpoints found at run time (a condition that
    /// raised), each told once; newest last.
    pub warnings: Vec<Warning>,
    pub available_exception_filters: Vec<(String, String)>,
    pub watches: Vec<WatchValue>,
    pub notes: Vec<Note>,
    /// The last changes, newest last, so a controller can say what moved.
    pub changes: Vec<Change>,
    pub info: Vec<String>,
    /// Who may move the program.
    pub control: super::ControlMode,
    /// Where the program failed to compile, when that ended it.
    pub compile_error: Option<CompileError>,
    /// A source of the program's language newer than its binary: the run
    /// may not match the files shown.
    pub stale_source: Option<PathBuf>,
    /// Which native views the adapter gives.
    pub native: super::native::NativeSupport,
    /// The child sessions the adapter started (subprocesses), oldest first.
    pub children: Vec<ChildInfo>,
    /// Whether the program can be run backwards, and what its recording holds.
    pub recording: super::recording::Recording,
    /// The language of the program, for what only it can write (a
    /// traceback in its own shape).
    #[serde(skip)]
    pub language: crate::adapters::value::LanguageOf,
    /// The secrets the program was given at launch, masked wherever an
    /// agent, the journal or the trace log would show them.
    #[serde(skip)]
    pub taint: super::secrets::Taint,
}

/// One thread of the program; `child` and `process` are set when the
/// session has children, whose thread ids may repeat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ThreadRow {
    pub child: Option<u32>,
    pub process: Option<String>,
    pub id: i64,
    pub name: String,
}

/// A child session: a process the adapter debugs on a connection of its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChildInfo {
    /// The number `child` arguments take.
    pub id: u32,
    pub name: String,
    pub pid: Option<u32>,
    /// "starting", "running", "stopped" or "ended".
    pub state: String,
}

/// A program that ended because it did not compile: where, and the error.
#[derive(Debug, Clone, Serialize)]
pub struct CompileError {
    pub file: PathBuf,
    pub line: u64,
    pub message: String,
}

impl Snapshot {
    pub fn new(session_id: String, program: String, workspace: PathBuf) -> Self {
        Snapshot {
            session_id,
            epoch: 0,
            state: RunState::Starting,
            program,
            workspace,
            stop_seq: 0,
            stop: None,
            exit: None,
            error: None,
            silent: None,
            building: None,
            unanswered: None,
            breakpoints: vec![],
            data_watch: None,
            exception_filters: vec![],
            exception_types: vec![],
            stop_note: None,
            warnings: vec![],
            available_exception_filters: vec![],
            watches: vec![],
            notes: vec![],
            changes: vec![],
            info: vec![],
            control: super::ControlMode::Shared,
            compile_error: None,
            stale_source: None,
            native: Default::default(),
            children: vec![],
            recording: Default::default(),
            language: Default::default(),
            taint: Default::default(),
        }
    }

    /// A path shown relative to the workspace when it lies inside it.
    pub fn display_path(&self, p: &std::path::Path) -> String {
        p.strip_prefix(&self.workspace)
            .unwrap_or(p)
            .display()
            .to_string()
    }

    /// A sentence naming the state, for error messages.
    pub fn state_sentence(&self) -> String {
        match self.state {
            RunState::Stopped => match &self.stop {
                Some(s) => match s.frames.first() {
                    Some(f) => format!(
                        "The session is stopped at {}:{} ({}).",
                        f.file
                            .as_deref()
                            .map(|p| self.display_path(p))
                            .unwrap_or_else(|| "?".into()),
                        f.line,
                        f.name
                    ),
                    None => "The session is stopped.".into(),
                },
                None => "The session is stopped.".into(),
            },
            RunState::Running => "The program is running.".into(),
            RunState::Starting => match &self.building {
                Some(cmd) => format!("The program is being built ({cmd})."),
                None => "The session is starting.".into(),
            },
            RunState::Exited => match self.exit.as_ref() {
                Some(e) if e.signal.is_some() || e.code_or_signal || e.terminated_by.is_some() => {
                    format!("The program {}.", e.ended())
                }
                Some(ExitInfo {
                    exit_code: Some(c), ..
                }) => format!("The program has exited with code {c}."),
                _ => "The program has exited.".into(),
            },
            RunState::Error => format!(
                "The session failed: {}.",
                self.error.as_deref().unwrap_or("unknown error")
            ),
        }
    }
}
