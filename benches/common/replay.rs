//! "The same reads", exactly: the DAP requests pairdbg sent for each step,
//! read back from its trace log, so a raw client can send the very same
//! requests one after another. gdb and lldb-dap number frames and
//! variables afresh at every stop, in the order they are asked for, so
//! the same requests in the same order name the same things.

use std::path::Path;

use serde_json::Value;

use super::raw::{RESUMING, Request};

/// The requests written to the trace log from byte `from` on, and where
/// the log ends now. Requests before the step's first resume were sent
/// for the stop before it (previews finishing late) and are left out.
pub fn requests_since(log: &Path, from: usize) -> (Vec<Request>, usize) {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let mut out = vec![];
    for line in text.get(from..).unwrap_or_default().lines() {
        let Some((_, json)) = line.split_once("dap: -> ") else {
            continue;
        };
        let Ok(msg) = serde_json::from_str::<Value>(json) else {
            continue;
        };
        if msg["type"] != "request" {
            continue;
        }
        let command = msg["command"].as_str().unwrap_or_default().to_string();
        if out.is_empty() && !RESUMING.contains(&command.as_str()) {
            continue;
        }
        out.push(Request {
            command,
            arguments: msg.get("arguments").cloned(),
        });
    }
    (out, text.len())
}
