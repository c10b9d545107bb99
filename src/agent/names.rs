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
}

pub const MCP: Names = Names {
    sessions: "debug_sessions",
    start: "debug_launch or debug_attach",
    end: "debug_terminate",
    breakpoints: "breakpoint_list",
    wait: "debug_wait",
    pause: "debug_pause",
    note: "debug_note",
};
