//! How MCP's tools are named in what an answer suggests next.

use crate::agent::Names;
use crate::viewport::ReadMore;

pub const MCP: Names = Names {
    sessions: "debug_sessions",
    start: "debug_launch or debug_attach",
    end: "debug_terminate",
    breakpoints: "breakpoint_list",
    wait: "debug_wait",
    pause: "debug_pause",
    note: "debug_note",
    record: "debug_record {on: true}",
    more: ReadMore {
        locals: "debug_variables",
        locals_from,
        stack: "debug_stack",
        watches: "debug_status",
        source: "debug_source",
    },
};

fn locals_from(start: usize) -> String {
    format!("debug_variables {{start: {start}}}")
}
