//! How each front end spells the calls an answer points to: an error that
//! says "List them with debug_sessions" helps an MCP client and misleads a
//! shell user, who types `pairdbg ctl status`.

/// The name of each call an answer may suggest next.
#[derive(Debug)]
pub struct Names {
    pub sessions: &'static str,
    pub start: &'static str,
    pub end: &'static str,
    pub breakpoints: &'static str,
    pub wait: &'static str,
    pub pause: &'static str,
    pub note: &'static str,
    /// Starts recording, so that the program can be run backwards.
    pub record: &'static str,
}

pub const MCP: Names = Names {
    sessions: "debug_sessions",
    start: "debug_launch or debug_attach",
    end: "debug_terminate",
    breakpoints: "breakpoint_list",
    wait: "debug_wait",
    pause: "debug_pause",
    note: "debug_note",
    record: "debug_record {on: true}",
};

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
};

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
