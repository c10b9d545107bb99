//! restart_debugging: the engine's restart, which relaunches the program as
//! it was started, with the session's breakpoints.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use serde_json::json;

use super::params::SessionParams;
use super::reply::{self, refused};
use super::start::landed;
use super::{McpDebuggerServer, ToolResult};
use crate::agent::moves::Move;

/// `{success: false, state, error}`, mcp-debugger's refusal of a restart.
fn refusal(state: &str, error: &str) -> rmcp::model::CallToolResult {
    reply::json(json!({"success": false, "state": state, "error": error, "message": error}))
}

#[tool_router(router = restart_router, vis = "pub(crate)")]
impl McpDebuggerServer {
    #[tool(
        description = "Restart the debuggee: terminate the current program (if still running) and relaunch it with the same configuration as the last start_debugging. All current breakpoints are re-applied. get_output starts fresh: read from since=0 after a restart. Works while running, paused, or after the program has exited; returns at the next stop, at the exit, or after 5 s still running. Not available for attach sessions or sessions never launched"
    )]
    async fn restart_debugging(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
        if let Some(e) = self.table.get(&p.session_id)
            && e.engine.as_deref().is_none_or(str::is_empty)
        {
            let (state, why) = match e.engine {
                None => (
                    "created",
                    "Nothing to restart: this session has not been launched (start_debugging has not run, or only a dry run was performed).",
                ),
                Some(_) => (
                    "initializing",
                    "Session is still initializing; wait for the current start to complete before restarting.",
                ),
            };
            return Ok(refusal(state, why));
        }
        let s = match self.engine_session(&p.session_id) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        if s.is_attached() {
            return Ok(refusal(
                reply::state_name(s.snapshot().state),
                "Cannot restart an attach session: there is no launch configuration to replay. Detach and re-attach instead.",
            ));
        }
        let moved = match self
            .agent
            .go(Some(&s.id), Move::Restart, Some(super::RUN_WAIT_MS))
            .await
        {
            Ok(m) => m,
            Err(r) => return Ok(refused(r)),
        };
        let (state, reason) = landed(&moved);
        let message = format!("Debugging restarted. Current state: {state}");
        let mut data = json!({
            "message": message,
            "breakpointsReapplied": moved.snapshot().breakpoints.len(),
            "outputReset": true,
        });
        if let Some(r) = reason.filter(|_| state == "paused") {
            data["reason"] = json!(r);
        }
        Ok(reply::json(json!({
            "success": true,
            "state": state,
            "message": message,
            "data": data,
        })))
    }
}
