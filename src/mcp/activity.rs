//! A one-line account of an agent's call, for the person watching.

use std::time::Duration;

use rmcp::model::CallToolResponse;
use serde_json::{Map, Value};

use crate::session::Activity;
use crate::session::types::Snapshot;
use crate::viewport::redact::Taint;

/// Arguments shortened to what fits a line: `file=order.py line=44`.
/// Secrets in them are masked: the log is shown to the agent as well.
pub fn short_args(args: &Map<String, Value>, taint: &Taint) -> String {
    let mut parts = vec![];
    for (k, v) in args {
        let v = match v {
            Value::String(s) if crate::viewport::redact::is_secret_name(k) => {
                crate::viewport::redact::mask(s)
            }
            Value::String(s) => crate::viewport::redact::text(s, taint),
            Value::Object(env) if k == "env" => {
                let shown: Vec<String> = env
                    .iter()
                    .map(|(name, value)| {
                        let value = match value {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        };
                        let value = if crate::viewport::redact::is_secret_name(name) {
                            crate::viewport::redact::mask(&value)
                        } else {
                            crate::viewport::redact::text(&value, taint)
                        };
                        format!("{name}={value}")
                    })
                    .collect();
                format!("{{{}}}", shown.join(", "))
            }
            other => crate::viewport::redact::text(&other.to_string(), taint),
        };
        // A note is the point of its call: keep it whole (within reason).
        let limit = if k == "text" { 300 } else { 40 };
        let v: String = if v.chars().count() > limit {
            format!("{}…", v.chars().take(limit - 1).collect::<String>())
        } else {
            v
        };
        parts.push(format!("{k}={v}"));
    }
    parts.join(" ")
}

pub fn describe(
    tool: &str,
    args: &Map<String, Value>,
    result: &Result<CallToolResponse, rmcp::ErrorData>,
    took: Duration,
    snap: &Snapshot,
) -> Activity {
    let (summary, is_error) = match result {
        Ok(CallToolResponse::Complete(r)) => {
            let text = r
                .content
                .iter()
                .find_map(|c| c.as_text().map(|t| t.text.clone()))
                .unwrap_or_default();
            // The viewport's header when there is one: notes about the
            // launch come before it.
            let first = text
                .lines()
                .find(|l| l.starts_with("── "))
                .or_else(|| {
                    text.lines()
                        .find(|l| !l.trim().is_empty() && !l.starts_with("Since your last call"))
                })
                .unwrap_or("")
                .trim_matches(|c| c == '─' || c == ' ')
                .to_string();
            (first, r.is_error.unwrap_or(false))
        }
        Ok(_) => (String::new(), false),
        Err(e) => (e.message.to_string(), true),
    };
    Activity {
        tool: tool.to_string(),
        args: short_args(args, &snap.taint),
        summary,
        is_error,
        millis: took.as_millis() as u64,
        epoch: snap.epoch,
    }
}
