//! Results as mcp-debugger gives them: one JSON text, `success` inside;
//! a failure also sets isError, so a client checking either sees it.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Value, json};

use crate::agent::Reply;
use crate::session::RunState;

/// `body` as the result; isError follows its `success`.
pub fn json(body: Value) -> CallToolResult {
    let ok = body.get("success").and_then(Value::as_bool) == Some(true);
    let content = vec![ContentBlock::text(body.to_string())];
    if ok {
        CallToolResult::success(content)
    } else {
        CallToolResult::error(content)
    }
}

/// `{success: false, error, message?}`.
pub fn failure(error: impl Into<String>, message: Option<&str>) -> CallToolResult {
    let mut body = json!({"success": false, "error": error.into()});
    if let Some(m) = message {
        body["message"] = json!(m);
    }
    json(body)
}

/// An agent-layer refusal, without the `[session · epoch]` footer the
/// pairdbg profile's text carries.
pub fn refused(r: Reply) -> CallToolResult {
    let text = match r.text.rsplit_once("\n[session ") {
        Some((head, _)) => head.to_string(),
        None => r.text,
    };
    failure(text, None)
}

/// mcp-debugger's name for a session's state (its SessionState enum).
pub fn state_name(state: RunState) -> &'static str {
    match state {
        RunState::Starting => "initializing",
        RunState::Running => "running",
        RunState::Stopped => "paused",
        RunState::Exited => "stopped",
        RunState::Error => "error",
    }
}

/// A failure that is not yet JSON (the protocol layer's refusal of
/// arguments it cannot read) made `{success: false, error}`, so a client
/// that parses every result can.
pub fn as_json(response: &mut rmcp::model::CallToolResponse) {
    let rmcp::model::CallToolResponse::Complete(r) = response else {
        return;
    };
    if r.is_error != Some(true) {
        return;
    }
    let text: String = r
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect();
    if serde_json::from_str::<serde_json::Map<String, Value>>(&text).is_err() {
        *r = failure(text, None);
    }
}
