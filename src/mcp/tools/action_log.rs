//! The investigation so far, one line per action: an agent resuming after a
//! long session (or a second agent) reads what was tried and what it showed
//! instead of repeating it.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::mcp::format::ok;
use crate::mcp::server::{PairdbgServer, ToolResult};
use crate::session::Activity;
use crate::session::person_log::PERSON_ACTIONS_KEPT;
use crate::session::types::{Change, Snapshot};

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ActionLogParams {
    pub session_id: Option<String>,
}

/// Calls that are about the log itself, or whose point is shown as a note.
const UNLOGGED: &[&str] = &["debug_action_log", "debug_note"];

#[tool_router(router = action_log_router, vis = "pub(crate)")]
impl PairdbgServer {
    #[tool(description = "Actions, outcomes, notes so far.")]
    async fn debug_action_log(&self, Parameters(p): Parameters<ActionLogParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let snap = s.snapshot();
        let (mut person, dropped) = s.person_actions();
        // The person's moves and the notes can hold a value they typed.
        for c in &mut person {
            c.what = self.views.agent_text(&snap.taint, &c.what);
        }
        let body = render(
            &self.views.agent_snapshot(&snap),
            &s.activity(),
            &person,
            dropped,
        );
        Ok(ok(&self.views, &snap, body))
    }
}

/// Agent calls, the person's moves and everyone's notes, by epoch.
pub fn render(
    snap: &Snapshot,
    calls: &[Activity],
    person_actions: &[Change],
    dropped: u64,
) -> String {
    // (epoch, order within the epoch, line): the person's move made the
    // epoch an agent call then saw, and a note explains what came before.
    let mut rows: Vec<(u64, u8, String)> = vec![];
    let mut agent = 0;
    for a in calls
        .iter()
        .filter(|a| !UNLOGGED.contains(&a.tool.as_str()))
    {
        agent += 1;
        let args = a
            .args
            .split(' ')
            .filter(|p| !p.starts_with("session_id="))
            .collect::<Vec<_>>()
            .join(" ");
        let outcome = match (a.is_error, a.summary.trim()) {
            (true, s) => format!("error: {s}"),
            (false, "") => "ok".to_string(),
            (false, s) => s.to_string(),
        };
        let call = if args.is_empty() {
            a.tool.clone()
        } else {
            format!("{} {args}", a.tool)
        };
        rows.push((a.epoch, 1, format!("{call} → {}", one_line(&outcome))));
    }
    let mut person = 0;
    for c in person_actions {
        person += 1;
        rows.push((c.epoch, 0, format!("person: {}", one_line(&c.what))));
    }
    for n in &snap.notes {
        let who = n.origin.tag();
        rows.push((n.epoch, 2, format!("note ({who}): {}", one_line(&n.text))));
    }
    rows.sort_by_key(|(e, o, _)| (*e, *o));
    let mut out = format!(
        "Investigation of {} ({}): {agent} agent calls, {person} person actions, {} notes.\n",
        snap.session_id,
        snap.program,
        snap.notes.len()
    );
    if calls.len() >= 200 {
        out.push_str("(only the last 200 calls are kept)\n");
    }
    if dropped > 0 {
        out.push_str(&format!(
            "(only the person's last {PERSON_ACTIONS_KEPT} actions are kept; {dropped} older ones were dropped)\n"
        ));
    }
    for (epoch, _, line) in rows {
        out.push_str(&format!("  e{epoch:<4} {line}\n"));
    }
    out
}

fn one_line(s: &str) -> String {
    let s = s.lines().next().unwrap_or("").trim();
    crate::viewport::value::truncate(s, 160)
}
