//! set_breakpoint: before the program starts it is kept for the launch;
//! after, the engine sets it at once.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use serde_json::json;

use super::params::BreakpointParams;
use super::reply::{self, failure, refused};
use super::table::Pending;
use super::{McpDebuggerServer, ToolResult};
use crate::session::{BreakpointRequest, Origin};

#[tool_router(router = breakpoints_router, vis = "pub(crate)")]
impl McpDebuggerServer {
    #[tool(
        description = "Set a breakpoint. Setting breakpoints on non-executable lines (structural, declarative) may lead to unexpected behavior"
    )]
    async fn set_breakpoint(&self, Parameters(p): Parameters<BreakpointParams>) -> ToolResult {
        let checked = self
            .agent
            .workspace
            .resolve_file("file", &p.file)
            .and_then(|f| {
                crate::session::validate::check_line("line", &f, p.line, &p.file).map(|_| f)
            });
        let file = match checked {
            Ok(f) => f,
            Err(e) => {
                return Ok(failure(
                    format!("File not found or line invalid: {e}"),
                    None,
                ));
            }
        };
        let request = BreakpointRequest {
            file: file.display().to_string(),
            line: p.line,
            condition: p.condition,
            ..Default::default()
        };
        let entry = self.table.get(&p.session_id);
        let (id, line, verified, message) = match entry.as_ref().map(|e| e.engine.is_some()) {
            Some(false) => {
                let id = uuid::Uuid::new_v4().to_string();
                self.table.update(&p.session_id, |e| {
                    e.pending.push(Pending {
                        id: id.clone(),
                        request: request.clone(),
                    })
                });
                (id, p.line, false, None)
            }
            _ => {
                let s = match self.engine_session(&p.session_id) {
                    Ok(s) => s,
                    Err(e) => return Ok(e),
                };
                let set = s.set_breakpoint(Origin::Agent, request).await;
                match self.agent.checked(&s, set) {
                    Ok(b) => (
                        super::bp_ids::public(entry.as_ref(), b.id),
                        b.at_line() as i64,
                        b.verified,
                        b.message,
                    ),
                    Err(r) => return Ok(refused(r)),
                }
            }
        };
        let (line_content, surrounding) =
            super::source::context(&file, line, 2).unwrap_or_default();
        let shown = file.display().to_string();
        let mut body = json!({
            "success": true,
            "breakpointId": id,
            "file": shown,
            "line": line,
            "verified": verified,
            "message": format!("Breakpoint set at {shown}:{line}"),
            "context": {"lineContent": line_content, "surrounding": surrounding},
        });
        if let Some(m) = message {
            body["warning"] = json!(m);
        }
        Ok(reply::json(body))
    }
}
