//! Keeping a long investigation cheap: diff mode turns itself on after the
//! 20th call on a session unless the agent chose, and no result outgrows
//! the budget the agent set.

use rmcp::model::CallToolResponse;
use serde_json::{Map, Value};

use crate::agent::Views;
use crate::agent::budget;

/// Calls after which full viewports mostly repeat what the agent has seen.
pub const AUTO_DIFF_AFTER: u32 = 20;

/// Tools whose result is a viewport, bounded by `viewport_config.max_tokens`.
const MOVING: &[&str] = &[
    "debug_launch",
    "debug_attach",
    "debug_continue",
    "debug_step",
    "debug_run_to",
    "debug_pause",
    "debug_restart",
    "debug_wait",
    "debug_threads",
    "debug_run_until",
    "breakpoint_wait",
    "debug_status",
];

/// Counts a call on a session. Returns the sentence for the result that
/// turned diff mode on.
pub fn count(views: &Views, session: &str, args: &Map<String, Value>) -> Option<String> {
    let chose = args
        .get("viewport_config")
        .and_then(|c| c.get("diff_mode"))
        .is_some_and(Value::is_boolean);
    views.with(session, |view| {
        let e = &mut view.economy;
        e.actions += 1;
        e.chosen |= chose;
        if e.chosen || e.actions < AUTO_DIFF_AFTER {
            return None;
        }
        // A later viewport_config without diff_mode keeps it on.
        view.config.diff_mode = true;
        if e.told {
            return None;
        }
        e.told = true;
        Some(format!(
            "Diff mode is now on ({AUTO_DIFF_AFTER} calls in): a stop in the same frame shows only what changed. viewport_config {{diff_mode: false}} turns it off."
        ))
    })
}

/// The byte budget a call's result must keep to, if any.
pub fn budget_of(
    views: &Views,
    session: Option<&str>,
    tool: &str,
    args: &Map<String, Value>,
) -> Option<usize> {
    if let Some(t) = args.get("max_tokens").and_then(Value::as_u64) {
        return budget::check("max_tokens", Some(t as usize)).ok().flatten();
    }
    let session = session.filter(|_| MOVING.contains(&tool))?;
    views
        .config(session)
        .max_tokens
        .map(|t| t * budget::BYTES_PER_TOKEN)
}

/// Puts `note` first in a result's text.
pub fn lead_with(result: &mut CallToolResponse, note: &str) {
    if let CallToolResponse::Complete(r) = result {
        *r = super::format::prefixed(std::mem::take(r), note);
    }
}

pub fn enforce(result: &mut CallToolResponse, bytes: usize) {
    if let CallToolResponse::Complete(r) = result
        && let Some(rmcp::model::ContentBlock::Text(t)) = r.content.first_mut()
    {
        budget::enforce(&mut t.text, bytes);
    }
}
