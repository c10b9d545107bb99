//! The MCP tools: each one a thin translation into a session command, plus
//! waiting for the event that completes it.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool_handler};

use super::format::{self, err};
use super::params::*;
use super::view::Views;
use crate::session::validate::{self, Workspace};
use crate::session::{BreakpointRequest, Command, Origin, Registry, Reply, SessionHandle};

pub const INSTRUCTIONS: &str = "\
pairdbg drives a live debugger. Workflow:
1. debug_launch {program, breakpoints:[{file,line}]} runs to the first stop and returns the viewport: location, stack, source, locals, watches.
2. Move with debug_step {kind: over|into|out}, debug_continue, debug_run_to {file,line}; each returns the next viewport, or the exit code and last output.
3. Inspect with debug_evaluate {expression}, debug_variables {expand:\"obj.attr\"}, debug_watch {add:[...]}. Set viewport_config {diff_mode:true} to see only changes.
Paths are workspace-relative. Results end with [session · epoch]; if a person moved the program since your last call, the result says so first. Errors say what failed and the session's state.";

pub(crate) const DEFAULT_WAIT_MS: u64 = 30_000;
pub(crate) const DEFAULT_REQUEST_MS: u64 = 20_000;

#[derive(Clone)]
pub struct PairdbgServer {
    pub(crate) registry: Registry,
    pub(crate) views: Views,
    pub(crate) workspace: Workspace,
    tool_router: ToolRouter<Self>,
}

pub(crate) type ToolResult = Result<CallToolResult, rmcp::ErrorData>;

impl PairdbgServer {
    pub fn new(registry: Registry, workspace: Workspace) -> Self {
        let mut tool_router =
            Self::execution_router() + Self::inspection_router() + Self::breakpoints_router();
        for route in tool_router.map.values_mut() {
            let mut schema = serde_json::Value::Object((*route.attr.input_schema).clone());
            super::schema::compact(&mut schema);
            if let serde_json::Value::Object(m) = schema {
                route.attr.input_schema = std::sync::Arc::new(m);
            }
        }
        PairdbgServer {
            registry,
            views: Views::default(),
            workspace,
            tool_router,
        }
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    pub(crate) fn session(&self, id: Option<&str>) -> Result<SessionHandle, CallToolResult> {
        self.registry.get(id).map_err(|e| err(None, &e))
    }

    /// Sends a command and renders a failure with the session's state.
    pub(crate) async fn send(
        &self,
        s: &SessionHandle,
        cmd: Command,
    ) -> Result<Reply, CallToolResult> {
        s.send(Origin::Agent, cmd)
            .await
            .map_err(|e| err(Some(&s.snapshot()), &e))
    }

    pub(crate) async fn move_and_wait(
        &self,
        session_id: Option<String>,
        cmd: Command,
        timeout_ms: Option<u64>,
    ) -> ToolResult {
        let s = match self.session(session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let timeout = match validate::check_timeout(timeout_ms, DEFAULT_WAIT_MS) {
            Ok(t) => t,
            Err(e) => return Ok(err(Some(&s.snapshot()), &e)),
        };
        let stop_seq = match self.send(&s, cmd).await {
            Ok(Reply::Moved { stop_seq }) => stop_seq,
            Ok(_) => s.snapshot().stop_seq,
            Err(e) => return Ok(e),
        };
        let o = s.wait_for_stop(stop_seq, timeout).await;
        Ok(format::outcome(
            &self.views,
            &s,
            o,
            timeout.as_millis() as u64,
        ))
    }
}

pub(crate) fn to_breakpoint_request(b: BreakpointParam) -> BreakpointRequest {
    BreakpointRequest {
        file: b.file,
        line: b.line,
        condition: b.condition,
        hit_condition: b.hit_count.map(|h| h.as_condition()),
        log_message: b.log_message,
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for PairdbgServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_instructions(INSTRUCTIONS)
    }
}
