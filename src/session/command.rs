//! Commands a controller sends to the engine, each with its origin.

use tokio::sync::oneshot;

use super::config::BreakpointRequest;
use super::error::SessionError;
use super::types::{Breakpoint, ExceptionBreakpoint, Frame, Origin, Var};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepKind {
    Over,
    Into,
    Out,
}

impl StepKind {
    pub fn dap_command(self) -> &'static str {
        match self {
            StepKind::Over => "next",
            StepKind::Into => "stepIn",
            StepKind::Out => "stepOut",
        }
    }
    pub fn verb(self) -> &'static str {
        match self {
            StepKind::Over => "stepped over",
            StepKind::Into => "stepped into",
            StepKind::Out => "stepped out",
        }
    }
}

#[derive(Debug, Clone)]
pub enum BreakpointSelector {
    Id(u64),
    Location { file: String, line: i64 },
}

/// Changes to one breakpoint; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct BreakpointUpdate {
    pub id: u64,
    pub enabled: Option<bool>,
    pub condition: Option<String>,
    pub hit_condition: Option<String>,
    pub log_message: Option<String>,
}

/// A breakpoint on an exception type.
#[derive(Debug, Clone)]
pub struct ExceptionTypeRequest {
    pub exception_type: String,
    /// Break where it is raised.
    pub first_chance: bool,
    /// Break when nothing handles it.
    pub second_chance: bool,
    pub include_subtypes: bool,
}

#[derive(Debug, Clone)]
pub struct VariablesQuery {
    pub frame_index: usize,
    pub scope: Option<String>,
    pub path: Option<String>,
    pub filter: Option<String>,
    pub start: usize,
    pub count: usize,
}

#[derive(Debug)]
pub enum Command {
    Continue,
    /// Watch writes to an expression in the top frame (None: stop watching).
    WatchData(Option<String>),
    Step {
        kind: StepKind,
        count: u32,
    },
    RunTo {
        file: String,
        line: i64,
    },
    /// Pause the program (the process numbered `child`, if given).
    Pause(Option<u32>),
    SetBreakpoint(BreakpointRequest),
    RemoveBreakpoint(BreakpointSelector),
    UpdateBreakpoint(BreakpointUpdate),
    SetExceptionFilters(Vec<String>),
    SetExceptionType(ExceptionTypeRequest),
    Evaluate {
        expression: String,
        frame_index: usize,
        /// Read the whole value, however long, rather than a stored cut.
        whole: bool,
    },
    /// Whether the adapter's own check finds `expression` free of side
    /// effects (`Language::purity_probe`): Done where it does, an error
    /// where it would have one or the adapter cannot tell.
    CheckPurity {
        expression: String,
        frame_index: usize,
    },
    SetVariable {
        path: String,
        value: String,
        frame_index: usize,
    },
    Variables(VariablesQuery),
    Stack {
        levels: usize,
    },
    Threads,
    /// Show, and step, another thread of the stopped program; `child`
    /// picks the process where the session has children.
    SelectThread {
        child: Option<u32>,
        thread: i64,
    },
    Watch {
        add: Vec<String>,
        remove: Vec<String>,
    },
    Note(String),
    /// Text typed into the program's terminal.
    Input(String),
    /// Who may move the program; only the person changes it.
    SetControl(super::ControlMode),
    /// `terminate_debuggee`: an attached program is ended too, as DAP
    /// `disconnect` asks.
    Terminate {
        terminate_debuggee: bool,
    },
    Restart,
    /// The exception the program stopped at, read whole.
    ExceptionContext(super::autopsy::ExceptionQuery),
    /// A step by one machine instruction.
    StepInstruction(StepKind),
    /// The instructions around a frame's current one.
    Disassemble {
        frame_index: usize,
    },
    /// Bytes where an expression points, from `offset` on.
    ReadMemory {
        expression: String,
        frame_index: usize,
        offset: i64,
        count: usize,
    },
    /// The names of a frame's scopes other than its locals.
    Scopes {
        frame_index: usize,
    },
    /// Answered with the journal's path once everything before it is
    /// written there.
    SyncJournal,
    /// Start or stop recording the program, at a stop; `limit` caps the
    /// instructions it keeps.
    Record {
        on: bool,
        limit: Option<u64>,
    },
    /// Run the program backwards through its recording.
    Back(super::recording::BackMove),
}

impl Command {
    /// Commands that move execution or change breakpoints.
    pub fn is_control(&self) -> bool {
        matches!(
            self,
            Command::Continue
                | Command::Step { .. }
                | Command::StepInstruction(_)
                | Command::RunTo { .. }
                | Command::Pause(_)
                | Command::SetBreakpoint(_)
                | Command::RemoveBreakpoint(_)
                | Command::UpdateBreakpoint(_)
                | Command::SetExceptionFilters(_)
                | Command::SetExceptionType(_)
                | Command::SetVariable { .. }
                | Command::SelectThread { .. }
                | Command::Terminate { .. }
                | Command::Restart
                | Command::Input(_)
                | Command::Record { .. }
                | Command::Back(_)
        )
    }
}

#[derive(Debug, Clone)]
pub enum Reply {
    /// Accepted; `stop_seq` is the stop count when it was applied, for waiters.
    Moved {
        stop_seq: u64,
    },
    Breakpoint(Breakpoint),
    Exception(ExceptionBreakpoint),
    Removed(Vec<Breakpoint>, Vec<ExceptionBreakpoint>),
    Value(Var),
    Variables {
        vars: Vec<Var>,
        total: usize,
    },
    Frames {
        frames: Vec<Frame>,
        total: usize,
    },
    Threads(Vec<super::types::ThreadRow>),
    ExceptionContext(Box<super::autopsy::ExceptionContext>),
    Disassembly(Box<super::native::Disassembly>),
    Memory(Box<super::native::Memory>),
    Scopes(Vec<String>),
    Journal(std::path::PathBuf),
    Done,
}

pub struct Envelope {
    pub origin: Origin,
    pub command: Command,
    pub reply: oneshot::Sender<Result<Reply, SessionError>>,
}
