//! mcp-debugger's tools over pairdbg's engine: its tool names, arguments
//! and JSON results, so that agents and scripts written for it work
//! unchanged. Every tool translates onto the agent layer or a session
//! handle; the debugging itself is the engine's.

mod bp_ids;
mod breakpoint_list;
mod breakpoints;
mod clock;
mod execution;
mod inspection;
mod languages;
mod last_stop;
mod mirror;
mod output;
mod params;
mod reply;
mod restart;
mod sessions;
mod source;
mod start;
mod table;
mod variables;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool_handler};

use crate::agent::{Agent, Names, Views};
use crate::mcp::call::ToolCall;
use crate::session::validate::Workspace;
use crate::session::{Registry, SessionHandle};
use crate::viewport::ReadMore;

pub use table::Table;

/// How long start_debugging and continue_execution wait for a stop before
/// answering `running`. mcp-debugger answers those at once and its clients
/// poll for the stop; waiting a little spares them the race in the common
/// case, and answering soon keeps a client that must act on the running
/// program (send a server its request) from stalling.
pub const RUN_WAIT_MS: u64 = 5_000;

/// Where the HTTP app of a TUI or `pairdbg serve` serves this profile.
pub const HTTP_PATH: &str = "/mcp-debugger";

/// The calls an error may point to, in this profile's names.
static NAMES: Names = Names {
    sessions: "list_debug_sessions",
    start: "create_debug_session and start_debugging",
    end: "close_debug_session",
    breakpoints: "set_breakpoint",
    wait: "get_stack_trace",
    pause: "pause_execution",
    note: "the terminal UI",
    record: "the terminal UI's record key (Ctrl-R)",
    more: ReadMore {
        locals: "get_local_variables",
        locals_from: all_locals,
        stack: "get_stack_trace",
        watches: "evaluate_expression",
        source: "get_source_context",
    },
};

/// This profile lists a frame's locals whole.
fn all_locals(_start: usize) -> String {
    "get_local_variables".into()
}

const INSTRUCTIONS: &str = "\
mcp-debugger's tools, served by pairdbg. create_debug_session {language}, set_breakpoint {sessionId,file,line}, start_debugging {sessionId,scriptPath} and continue_execution return at the next stop or exit, or after 5 s still running (poll list_debug_sessions then); step_over/step_into/step_out/pause_execution return once paused, get_stack_trace, get_scopes {frameId}, get_variables {scope: variablesReference}, get_local_variables, evaluate_expression, list_breakpoints, remove_breakpoint, clear_breakpoints, get_output {since: nextSince}, restart_debugging, close_debug_session. start_debugging takes breakOnExceptions 'uncaught' (default), 'all' or 'none'; get_stack_trace carries lastStop (with exceptionInfo at an exception). Results are JSON with `success`; failures also set isError.";

#[derive(Clone)]
pub struct McpDebuggerServer {
    pub(crate) agent: Agent,
    pub(crate) table: Table,
    tool_router: ToolRouter<Self>,
}

pub(crate) type ToolResult = Result<CallToolResult, rmcp::ErrorData>;

impl McpDebuggerServer {
    /// A server over `registry`; connections of one HTTP app share `table`.
    pub fn new(registry: Registry, workspace: Workspace, views: Views, table: Table) -> Self {
        McpDebuggerServer {
            agent: Agent::new(registry, workspace, views, &NAMES),
            table,
            tool_router: Self::sessions_router()
                + Self::start_router()
                + Self::languages_router()
                + Self::breakpoints_router()
                + Self::breakpoint_list_router()
                + Self::restart_router()
                + Self::output_router()
                + Self::mirror_router()
                + Self::execution_router()
                + Self::inspection_router()
                + Self::variables_router()
                + Self::source_router(),
        }
    }

    /// The engine session behind `id`: a session this profile started, or
    /// any other session by the engine's own id (one the person started in
    /// the TUI), so both can be driven from here.
    pub(crate) fn engine_session(&self, id: &str) -> Result<SessionHandle, CallToolResult> {
        let engine = match self.table.get(id) {
            Some(e) => match e.engine {
                Some(engine) => engine,
                None => {
                    return Err(reply::failure(
                        "Session is not started",
                        Some("Call start_debugging first."),
                    ));
                }
            },
            None => id.to_string(),
        };
        self.agent.registry.get(Some(&engine)).map_err(|_| {
            reply::failure(
                format!("Managed session not found: {id}"),
                Some("List them with list_debug_sessions."),
            )
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for McpDebuggerServer {
    /// Refuses unknown arguments, and logs each call on its session for
    /// the person's activity pane.
    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        let call = match ToolCall::check(&self.tool_router, &request) {
            Ok(call) => call,
            Err(refusal) => return Ok(reply::failure(refusal, None).into()),
        };
        let mut result = ToolCall::run(&self.tool_router, self, request, context).await;
        if let Ok(r) = result.as_mut() {
            reply::as_json(r);
        }
        let id = call.args.get("sessionId").and_then(|v| v.as_str());
        let engine = id.and_then(|id| match self.table.get(id) {
            Some(e) => e.engine,
            None => Some(id.to_string()),
        });
        if let Some(s) = engine.and_then(|e| self.agent.registry.get(Some(&e)).ok()) {
            call.record(&s, format!("mcp-debugger {}", call.tool), &result);
        }
        result
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_instructions(INSTRUCTIONS)
    }
}
