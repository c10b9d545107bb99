//! The session engine: the single owner of debug state. Controllers (the
//! MCP server, the CLI, later the TUI) send commands and read snapshots.

mod api;
pub mod approval;
pub mod autopsy;
pub mod breakpoint_hit;
pub mod build;
mod build_run;
pub mod callers;
mod command;
mod compose;
pub mod config;
pub mod connector;
pub mod core_file;
pub mod cut_lengths;
mod engine;
pub mod error;
pub mod fetch;
mod fill;
pub mod find;
mod find_file;
pub mod handle;
pub mod hints;
pub mod hits;
pub mod indexed;
pub mod initialize;
pub mod journal;
mod journal_api;
pub mod keep_core;
pub mod launch_conditions;
pub mod launch_json;
pub mod link;
mod listed_locals;
pub mod listing;
pub mod map_entries;
pub mod native;
mod native_api;
pub mod output;
pub(crate) mod paging;
pub mod parts_read;
pub mod person_log;
pub mod reads;
pub mod recording;
pub mod registry;
pub mod remote;
mod run_in_terminal;
pub mod run_until;
pub mod secrets;
pub mod setup;
mod shapes;
mod slow_previews;
pub mod sources;
mod split_locals;
pub mod statics;
pub mod tasks_json;
pub mod terminal;
pub mod terminal_reader;
pub mod trace;
mod tty;
pub mod types;
pub mod validate;
mod value;
pub mod var_path;
pub mod walk;

pub use api::AnyBreakpoint;
pub use api::StopSeq;
pub use command::{
    BreakpointSelector, BreakpointUpdate, ExceptionTypeRequest, StepKind, VariablesQuery,
};
pub use config::{BreakpointRequest, LaunchConfig, LaunchRequest, REQUEST_TIMEOUT};
pub use error::SessionError;
pub use handle::SessionHandle;
pub use registry::Registry;
pub use types::{Origin, RunState, Snapshot};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ControlMode {
    #[default]
    Shared,
    /// The person drives; agent commands that move execution are refused.
    HumanOnly,
}

#[derive(Debug, Clone)]
pub enum SessionEvent {
    Stopped {
        stop_seq: u64,
    },
    Continued,
    Output,
    /// The debugger said something about itself (its own console).
    DebuggerOutput,
    Exited {
        exit_code: Option<i64>,
        tail: Vec<String>,
    },
    BreakpointsChanged,
    /// A tracepoint hit was recorded in the trace log.
    TraceHit(trace::TraceRecord),
    Command {
        origin: Origin,
        summary: String,
    },
    Note {
        origin: Origin,
        text: String,
    },
    /// An agent's tool call finished; read it with `SessionHandle::activity`.
    Activity,
    Failed(String),
    /// A new epoch was published: every snapshot, in order, for controllers
    /// that must not miss one (a watch keeps only the latest).
    Published(std::sync::Arc<Snapshot>),
}

/// One MCP call, as the activity pane shows it.
#[derive(Debug, Clone)]
pub struct Activity {
    pub tool: String,
    pub args: String,
    pub summary: String,
    pub is_error: bool,
    pub millis: u64,
    /// The session's epoch when the call returned.
    pub epoch: u64,
}
