//! expose_session and unexpose_session. mcp-debugger can serve a session
//! as a read-only DAP endpoint for an IDE; pairdbg serves no DAP endpoint
//! (a second client watches through its terminal UI or its HTTP MCP
//! endpoint), so a session is never exposed: exposing is refused, and
//! unexposing is the no-op mcp-debugger answers for a session not exposed.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use serde_json::json;

use super::params::SessionParams;
use super::reply::{self, state_name};
use super::{McpDebuggerServer, ToolResult};

const NO_MIRROR: &str = "pairdbg serves no DAP mirror endpoint for an IDE to attach to; watch the session from pairdbg's terminal UI or its HTTP MCP endpoint instead";

impl McpDebuggerServer {
    /// The session's state as mcp-debugger names it, or the failure when
    /// there is no such session.
    fn state_of(&self, id: &str) -> Result<&'static str, rmcp::model::CallToolResult> {
        match self.table.get(id) {
            Some(e) if e.engine.is_none() => Ok("created"),
            Some(e) if e.engine.as_deref() == Some("") => Ok("initializing"),
            _ => self
                .engine_session(id)
                .map(|s| state_name(s.snapshot().state)),
        }
    }
}

#[tool_router(router = mirror_router, vis = "pub(crate)")]
impl McpDebuggerServer {
    #[tool(
        description = "Expose a debug session as a read-only DAP mirror endpoint for an IDE. Not supported by pairdbg: answers success false with the reason"
    )]
    async fn expose_session(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
        let state = match self.state_of(&p.session_id) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        Ok(reply::json(json!({
            "success": false,
            "state": state,
            "error": NO_MIRROR,
        })))
    }

    #[tool(
        description = "Close a session's DAP mirror endpoint. pairdbg never exposes one, so this succeeds as a no-op"
    )]
    async fn unexpose_session(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
        let state = match self.state_of(&p.session_id) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        Ok(reply::json(json!({
            "success": true,
            "state": state,
            "wasExposed": false,
            "message": "Session was not exposed — nothing to close",
        })))
    }
}
