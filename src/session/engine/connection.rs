//! The engine's state for one adapter connection: made at start, dropped
//! whole at restart, so nothing from an old adapter leaks into a new one.

use std::collections::HashMap;
use std::net::SocketAddr;

use crate::dap::process::AdapterProcess;
use crate::session::command::StepKind;
use crate::session::hints::StopHints;
use crate::session::link::Link;

/// Where a connection is: it ends only itself, unless it is the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConnState {
    #[default]
    Starting,
    Running,
    Stopped,
    Ended,
}

impl ConnState {
    pub fn word(self) -> &'static str {
        match self {
            ConnState::Starting => "starting",
            ConnState::Running => "running",
            ConnState::Stopped => "stopped",
            ConnState::Ended => "ended",
        }
    }
}

pub struct Conn {
    /// Never reused within a session, not even across a restart, so a late
    /// event of a dropped connection finds nothing.
    pub id: u32,
    /// The connection whose `startDebugging` made this one; None for the root.
    pub parent: Option<u32>,
    /// The child's name for people ("Subprocess 24045"); empty for the root.
    pub name: String,
    /// The process this connection debugs, once the adapter names it.
    pub pid: Option<u32>,
    /// Where a TCP connection reached the adapter.
    pub addr: Option<SocketAddr>,
    pub state: ConnState,
    /// `configure` ran: an adapter may say `initialized` twice.
    pub configuring: bool,
    /// Whether this connection verified each of our breakpoints; a
    /// breakpoint is verified when any connection did.
    pub verified: HashMap<u64, bool>,
    pub client: Option<Link>,
    pub process: Option<AdapterProcess>,
    pub thread_id: i64,
    pub step_remaining: u32,
    /// Where a line step started, and how often it was stepped on from a
    /// stop on that same line (see `line_steps`).
    pub step_from: Option<super::line_steps::StepFrom>,
    pub same_line_resteps: u32,
    /// The stack a same-line check read at the stop being handled, for
    /// that stop's own read.
    pub checked_stack: Option<serde_json::Value>,
    pub step_kind: StepKind,
    pub pending_exit_code: Option<i64>,
    /// The signal that killed the program, where something told it exactly;
    /// it outweighs the exit code the adapter makes of it.
    pub pending_signal: Option<i32>,
    /// Who ended the program by ending the session: its end is theirs,
    /// not the program's own exit.
    pub terminated_by: Option<crate::session::types::Origin>,
    pub configured: bool,
    /// (adapter's breakpoint id, ours), for `breakpoint` events.
    pub dap_ids: super::dap_ids::DapIds,
    pub hints: StopHints,
    /// The thread whose stop the adapter reported, and why; the person or
    /// agent may look at another thread meanwhile.
    pub stopped_by: Option<StoppedBy>,
    /// The adapter's answer to `initialize`.
    pub capabilities: serde_json::Value,
    /// `initialized` came before the answer to `initialize` was read:
    /// configuring waits for the capabilities.
    pub initialized_early: bool,
    /// `disconnect` was sent to learn the exit code; the session ends with its answer.
    pub disconnecting: bool,
    /// `stopped` events seen, so a pause can tell whether one came.
    pub stops_seen: u64,
    /// The adapter's ids of the breakpoints on its exception functions,
    /// with the exception each means.
    pub exception_breakpoints: Vec<(i64, &'static str)>,
    /// A step request is in flight.
    pub stepping: bool,
    /// The move back under way, until its stop is read.
    pub moving_back: Option<crate::session::recording::BackMove>,
    /// The answer owed for a move back that the adapter ends with its stop
    /// alone (`Quirks::step_back_unanswered`), and the stop it left from.
    pub back_reply: Option<(super::ReplyTx, u64)>,
    /// The stop that ends the move under way reads what the recording holds.
    pub record_read_due: bool,
    /// What the recorder said it could not record, for the stop it causes.
    pub record_failure: Option<String>,
    /// The recording's filling up was told.
    pub told_full: bool,
    /// A step ended early at another stop; the adapter may still finish it
    /// on a later resume (`Quirks::stale_step_stops`).
    pub stale_step_pending: bool,
    /// `setFunctionBreakpoints` was sent: an empty list must go too, to clear.
    pub sent_functions: bool,
    /// The console command that removes the watch set through the
    /// adapter's console (`Adapter::console_watch`), while it is set.
    pub console_unwatch: Option<String>,
    /// The adapter's id of the entry breakpoint (`Quirks::entry_function`)
    /// while it waits for the first stop.
    pub entry_breakpoint: Option<i64>,
    /// The first stop came: the entry breakpoint is no longer sent.
    pub entered: bool,
    /// The stop being read was already counted against the breakpoints
    /// the adapter named.
    pub hit_counted: bool,
    /// Steps asked for by the last step command.
    pub step_total: u32,
    /// Steps still to take when the stop being read came.
    pub steps_left: u32,
    /// The latest stop was a breakpoint on one of the language's exception
    /// functions (`rust_panic`): the adapter's `exceptionInfo` then
    /// describes that breakpoint, not the exception.
    pub stopped_in_exception_function: bool,
    /// Where the last run-to was going: (file, line).
    pub run_to: Option<(std::path::PathBuf, u64)>,
    /// Steps move by one machine instruction rather than one line.
    pub instruction_steps: bool,
    /// The program runs on the session's terminal (`Spawned::on_terminal`).
    pub on_terminal: bool,
    /// Where each thread's last breakpoint line began executing, so that
    /// the line's other locations count no new hit.
    pub line_runs: super::line_runs::LineRuns,
}

impl Default for Conn {
    fn default() -> Self {
        Conn {
            id: 0,
            parent: None,
            name: String::new(),
            pid: None,
            addr: None,
            state: ConnState::Starting,
            configuring: false,
            verified: HashMap::new(),
            client: None,
            process: None,
            thread_id: 0,
            step_remaining: 0,
            step_from: None,
            same_line_resteps: 0,
            checked_stack: None,
            step_kind: StepKind::Over,
            pending_exit_code: None,
            pending_signal: None,
            terminated_by: None,
            configured: false,
            dap_ids: Default::default(),
            hints: StopHints::default(),
            stopped_by: None,
            capabilities: serde_json::Value::Null,
            initialized_early: false,
            disconnecting: false,
            stops_seen: 0,
            exception_breakpoints: vec![],
            stepping: false,
            moving_back: None,
            back_reply: None,
            record_read_due: false,
            record_failure: None,
            told_full: false,
            stale_step_pending: false,
            sent_functions: false,
            console_unwatch: None,
            entry_breakpoint: None,
            entered: false,
            hit_counted: false,
            step_total: 0,
            steps_left: 0,
            stopped_in_exception_function: false,
            run_to: None,
            instruction_steps: false,
            on_terminal: false,
            line_runs: Default::default(),
        }
    }
}

/// The thread the adapter reported stopped, with its stop's details.
#[derive(Debug, Clone)]
pub struct StoppedBy {
    pub thread_id: i64,
    pub reason: String,
    pub description: Option<String>,
    pub text: Option<String>,
    pub exception: Option<crate::session::types::ExceptionDetails>,
}
