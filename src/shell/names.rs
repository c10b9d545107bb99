//! How `pairdbg ctl` spells the calls an answer suggests next, and which
//! tool each of its commands calls.

use crate::agent::Names;
use crate::viewport::ReadMore;

/// The client name `pairdbg ctl` gives in MCP's `initialize`: the server
/// then answers in ctl's spelling and marks its calls as the shell's.
pub const CTL_CLIENT: &str = "pairdbg-ctl";

pub const CTL: Names = Names {
    sessions: "pairdbg ctl sessions",
    start: "pairdbg ctl launch",
    end: "pairdbg ctl terminate",
    breakpoints: "pairdbg ctl breakpoints",
    wait: "pairdbg ctl wait",
    pause: "pairdbg ctl pause",
    note: "pairdbg ctl note",
    record: "pairdbg ctl record on",
    more: ReadMore {
        locals: "pairdbg ctl vars",
        locals_from,
        stack: "pairdbg ctl stack",
        watches: "pairdbg ctl status",
        source: "pairdbg ctl status",
    },
};

fn locals_from(start: usize) -> String {
    format!("pairdbg ctl vars --start {start}")
}

/// Each `pairdbg ctl` command and the tool it calls.
pub const CTL_COMMANDS: &[(&str, &str)] = &[
    ("status", "debug_status"),
    ("sessions", "debug_sessions"),
    ("launch", "debug_launch"),
    ("break", "breakpoint_set"),
    ("breakpoints", "breakpoint_list"),
    ("continue", "debug_continue"),
    ("step", "debug_step"),
    ("run-to", "debug_run_to"),
    ("pause", "debug_pause"),
    ("eval", "debug_evaluate"),
    ("vars", "debug_variables"),
    ("stack", "debug_stack"),
    ("output", "debug_output"),
    ("watch", "debug_watch"),
    ("note", "debug_note"),
    ("record", "debug_record"),
    ("wait", "debug_wait"),
    ("terminate", "debug_terminate"),
];

/// How the activity pane and the action log name `tool` when `pairdbg ctl`
/// called it: `ctl step`. A note keeps its tool's name, which is what shows
/// it as a note.
pub fn ctl_label(tool: &str) -> String {
    match CTL_COMMANDS.iter().find(|(_, t)| *t == tool) {
        Some((command, t)) if *t != "debug_note" => format!("ctl {command}"),
        _ => tool.to_string(),
    }
}
