//! `debug_journal`: the session's hand-off card, the same markdown that
//! `pairdbg journal export` prints, with secrets masked for the agent.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::mcp::format::{err, ok};
use crate::mcp::server::{PairdbgServer, ToolResult};
use crate::session::journal::{Record, render_card};
use crate::viewport::redact;

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct JournalParams {
    pub session_id: Option<String>,
}

#[tool_router(router = journal_router, vis = "pub(crate)")]
impl PairdbgServer {
    #[tool(description = "Hand-off card.")]
    async fn debug_journal(&self, Parameters(p): Parameters<JournalParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let mut records = match s.journal_records(self.agent.origin).await {
            Ok(r) => r,
            Err(e) => return Ok(err(Some(&s.snapshot()), &e)),
        };
        // Written masked; a journal an older version wrote may not be.
        if self.views.redacts() {
            mask(&mut records, &s.taint());
        }
        Ok(ok(&self.views, &s.snapshot(), render_card(&records)))
    }
}

/// The values and notes of a journal as an agent may read them.
fn mask(records: &mut [Record], taint: &redact::Taint) {
    for r in records {
        match r {
            Record::Stop(s) => {
                for v in &mut s.locals {
                    v.value = if redact::is_secret_name(&v.name) {
                        redact::mask(&v.value)
                    } else {
                        redact::text(&v.value, taint)
                    };
                }
                s.exception = s.exception.as_deref().map(|e| redact::text(e, taint));
                s.viewport.clear();
            }
            Record::Note { text, .. } => *text = redact::text(text, taint),
            Record::Command { command, .. } => *command = redact::text(command, taint),
            _ => {}
        }
    }
}
