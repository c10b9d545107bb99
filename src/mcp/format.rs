//! Agent replies as MCP tool results, with MCP's names for the calls they
//! suggest.

use rmcp::model::{CallToolResult, ContentBlock};

use super::names::MCP;
use crate::agent::budget::Fit;
use crate::agent::{Names, Reply, Views, format};
use crate::session::handle::WaitOutcome;
use crate::session::types::Snapshot;
use crate::session::{SessionError, SessionHandle};

pub use crate::agent::format::{VALUE_CHARS, breakpoint_line, exception_line, var_line};

tokio::task_local! {
    /// How the client of the current call spells the calls a result
    /// suggests: the shell CLI's commands differ from MCP's tool names.
    static NAMES: &'static Names;
}

/// Runs a tool call whose results suggest calls by `names`.
pub async fn speaking<F: std::future::Future>(names: &'static Names, call: F) -> F::Output {
    NAMES.scope(names, call).await
}

pub(crate) fn names() -> &'static Names {
    NAMES.try_with(|n| *n).unwrap_or(&MCP)
}

/// A reply as a tool result: a failed call is an error result.
pub fn result(r: Reply) -> CallToolResult {
    let content = vec![ContentBlock::text(r.text)];
    if r.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    }
}

pub fn ok(views: &Views, snap: &Snapshot, body: String) -> CallToolResult {
    result(format::ok(views, snap, body))
}

pub fn err(snap: Option<&Snapshot>, e: &SessionError) -> CallToolResult {
    result(format::err(names(), snap, e))
}

pub fn ok_fit(views: &Views, snap: &Snapshot, body: Fit, bytes: Option<usize>) -> CallToolResult {
    result(format::ok_fit(views, snap, body, bytes))
}

pub fn outcome(
    views: &Views,
    session: &SessionHandle,
    o: WaitOutcome,
    timeout_ms: u64,
) -> CallToolResult {
    result(format::outcome(views, names(), session, o, timeout_ms))
}

/// The result, led by the person's answer when they were asked.
pub fn with_approval(result: CallToolResult, approved: Option<&str>) -> CallToolResult {
    match approved {
        Some(note) => prefixed(result, note),
        None => result,
    }
}

/// The same result with `head` as its first line.
pub fn prefixed(mut result: CallToolResult, head: &str) -> CallToolResult {
    if let Some(ContentBlock::Text(t)) = result.content.first_mut() {
        t.text = format!("{head}\n{}", t.text);
    }
    result
}
