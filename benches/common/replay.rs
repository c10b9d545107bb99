//! "The same reads", exactly: the DAP requests pairdbg sent for each step,
//! read back from its trace log with the answers they got, so a raw client
//! can send the very same requests one after another. gdb and lldb-dap
//! number frames and variables afresh at every stop, in the order they are
//! asked for, so the same requests in the same order name the same things;
//! an adapter that numbers them across the session (pairdbg's Java server)
//! names them otherwise in another session, so the replay learns which of
//! its numbers stands for which of the recorded ones from the answers.

use std::path::Path;

use serde_json::Value;

use super::raw::{RESUMING, Request};

/// The requests written to the trace log from byte `from` on, and where
/// the log ends now. Requests before the step's first resume were sent
/// for the stop before it (previews finishing late) and are left out.
pub fn requests_since(log: &Path, from: usize) -> (Vec<Request>, usize) {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let mut out = vec![];
    let mut seqs = vec![];
    let mut answers = std::collections::HashMap::new();
    for line in text.get(from..).unwrap_or_default().lines() {
        let (sent, json) = match (line.split_once("dap: -> "), line.split_once("dap: <- ")) {
            (Some((_, json)), _) => (true, json),
            (None, Some((_, json))) => (false, json),
            (None, None) => continue,
        };
        let Ok(msg) = serde_json::from_str::<Value>(json) else {
            continue;
        };
        if !sent {
            if msg["type"] == "response" {
                answers.insert(msg["request_seq"].as_i64(), msg["body"].clone());
            }
            continue;
        }
        if msg["type"] != "request" {
            continue;
        }
        let command = msg["command"].as_str().unwrap_or_default().to_string();
        if out.is_empty() && !RESUMING.contains(&command.as_str()) {
            continue;
        }
        seqs.push(msg["seq"].as_i64());
        out.push(Request {
            command,
            arguments: msg.get("arguments").cloned(),
            answer: None,
        });
    }
    for (r, seq) in out.iter_mut().zip(seqs) {
        r.answer = answers.remove(&seq);
    }
    (out, text.len())
}
