//! mcp-debugger's breakpoint ids are UUIDs; the engine numbers its
//! breakpoints. An engine breakpoint's id is its number in a fixed UUID
//! shape, so it needs no record and reads back the same on every call; a
//! breakpoint set before the start keeps the random UUID it was given,
//! aliased to the engine breakpoint it became.

use std::path::Path;

use serde_json::{Value, json};

use super::table::{Entry, Pending};
use crate::session::types::Breakpoint;

const PREFIX: &str = "00000000-0000-4000-8000-";

/// The id a client sees for engine breakpoint `n` of `entry`'s session.
pub fn public(entry: Option<&Entry>, n: u64) -> String {
    entry
        .and_then(|e| e.aliases.iter().find(|(_, m)| *m == n))
        .map(|(id, _)| id.clone())
        .unwrap_or_else(|| format!("{PREFIX}{n:012x}"))
}

/// The engine breakpoint `id` names, if it names one.
pub fn engine(entry: Option<&Entry>, id: &str) -> Option<u64> {
    if let Some((_, n)) = entry.and_then(|e| e.aliases.iter().find(|(a, _)| a == id)) {
        return Some(*n);
    }
    let hex = id.strip_prefix(PREFIX).filter(|h| h.len() == 12)?;
    u64::from_str_radix(hex, 16).ok()
}

/// The engine breakpoints the pending ones became at the start, matched by
/// file and line in order.
pub fn aliases(pending: &[Pending], set: &[Breakpoint]) -> Vec<(String, u64)> {
    let mut taken: Vec<u64> = vec![];
    let mut out = vec![];
    for p in pending {
        let hit = set.iter().find(|b| {
            !taken.contains(&b.id)
                && b.line == p.request.line.max(0) as u64
                && b.file == Path::new(&p.request.file)
        });
        if let Some(b) = hit {
            taken.push(b.id);
            out.push((p.id.clone(), b.id));
        }
    }
    out
}

pub fn is_function(b: &Breakpoint) -> bool {
    b.function.is_some()
}

/// A line breakpoint as mcp-debugger lists it.
pub fn line_json(id: String, b: &Breakpoint) -> Value {
    let mut v = json!({
        "id": id,
        "file": b.file.display().to_string(),
        "line": b.at_line(),
        "verified": b.verified,
    });
    if let Some(c) = &b.condition {
        v["condition"] = json!(c);
    }
    if let Some(m) = &b.log_message {
        v["logMessage"] = json!(m);
    }
    if let Some(m) = &b.message {
        v["message"] = json!(m);
    }
    v
}

/// A function breakpoint as mcp-debugger lists it; where it bound only
/// once the adapter said.
pub fn function_json(id: String, b: &Breakpoint) -> Value {
    let mut v = json!({
        "id": id,
        "functionName": b.function.clone().unwrap_or_default(),
        "verified": b.verified,
    });
    if let Some(c) = &b.condition {
        v["condition"] = json!(c);
    }
    if let Some(m) = &b.message {
        v["message"] = json!(m);
    }
    if !b.file.as_os_str().is_empty() {
        v["boundFile"] = json!(b.file.display().to_string());
        v["boundLine"] = json!(b.at_line());
    }
    v
}

/// A breakpoint kept for the start, not yet sent to an adapter.
pub fn pending_json(p: &Pending) -> Value {
    let mut v = json!({
        "id": p.id,
        "file": p.request.file,
        "line": p.request.line,
        "verified": false,
    });
    if let Some(c) = &p.request.condition {
        v["condition"] = json!(c);
    }
    v
}
