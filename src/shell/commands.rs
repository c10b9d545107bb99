//! What a `pairdbg ctl` command asks of the session: one call of the MCP
//! tools every agent uses, so the shell holds no debugging logic of its own.

use serde_json::{Map, Value};

/// One tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub tool: &'static str,
    pub arguments: Map<String, Value>,
}

/// The tools that wait for a stop and take `timeout_ms`.
pub const WAITS: &[&str] = &[
    "debug_launch",
    "debug_attach",
    "debug_continue",
    "debug_step",
    "debug_run_to",
    "debug_pause",
    "debug_wait",
];

/// The tools that take no `session_id`: they start a session, or span all.
pub const SESSIONLESS: &[&str] = &["debug_launch", "debug_attach", "debug_sessions"];

/// `FILE:LINE`, refused with the argument's name when it is not one.
pub fn location(field: &str, s: &str) -> Result<(String, i64), String> {
    let (file, line) = s
        .rsplit_once(':')
        .filter(|(f, _)| !f.is_empty())
        .ok_or_else(|| format!("{field} {s:?}: expected FILE:LINE, as app.py:10"))?;
    let line = line
        .parse::<i64>()
        .ok()
        .filter(|l| *l >= 1)
        .ok_or_else(|| format!("{field} {s:?}: {line:?} is not a line number (1 or more)"))?;
    Ok((file.to_string(), line))
}
