//! get_output: the program's output as mcp-debugger's entries. Its `seq`
//! is the engine's byte cursor after the entry, so `since: nextSince`
//! continues where the last read ended; a read starts at the current run,
//! as mcp-debugger's buffer starts afresh at each launch. `dropped` counts
//! bytes (the engine keeps bytes, not entries), and entries carry no
//! timestamp, as the engine keeps none.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use serde_json::{Value, json};

use super::params::OutputParams;
use super::reply::{self, failure};
use super::{McpDebuggerServer, ToolResult};
use crate::session::output::Stream;

pub const MAX_ENTRIES: i64 = 1000;

#[tool_router(router = output_router, vis = "pub(crate)")]
impl McpDebuggerServer {
    #[tool(
        description = "Get debuggee output (stdout/stderr/console) captured for a session, from the current launch. Works while the program is running and after it finishes, until the session is closed. Pass since=nextSince from the previous response to fetch only new output"
    )]
    async fn get_output(&self, Parameters(p): Parameters<OutputParams>) -> ToolResult {
        let limit = p.limit.unwrap_or(100);
        if !(1..=MAX_ENTRIES).contains(&limit) {
            return Ok(failure(
                format!("limit: {limit} is out of range; use 1 to {MAX_ENTRIES}"),
                None,
            ));
        }
        let since = p.since.unwrap_or(0);
        let empty = json!({
            "success": true,
            "sessionId": p.session_id,
            "entries": [],
            "nextSince": since,
            "hasMore": false,
            "dropped": 0,
        });
        if let Some(e) = self.table.get(&p.session_id)
            && e.engine.as_deref().is_none_or(str::is_empty)
        {
            return Ok(reply::json(empty));
        }
        let s = match self.engine_session(&p.session_id) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let read = s.read_output_entries(since, limit as usize);
        let taint = s.taint();
        let entries: Vec<Value> = read
            .entries
            .into_iter()
            .map(|(stream, text, seq)| {
                let category = match stream {
                    Stream::Stdout => "stdout",
                    Stream::Stderr => "stderr",
                    Stream::Console => "console",
                    Stream::Build => "build",
                };
                // Secrets are masked as the default tools mask them.
                let output = self.agent.views.agent_text(&taint, &text);
                json!({"seq": seq, "category": category, "output": output})
            })
            .collect();
        Ok(reply::json(json!({
            "success": true,
            "sessionId": p.session_id,
            "entries": entries,
            "nextSince": read.next,
            "hasMore": read.more,
            "dropped": read.dropped,
        })))
    }
}
