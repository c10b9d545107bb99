//! The MCP tools: each one a thin translation into a session command, plus
//! waiting for the event that completes it.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolResult, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool_handler};

use super::call::ToolCall;
use super::format::result;
use super::params::*;
use crate::agent::{Agent, Moved, Reply, Views};
use crate::session::validate::Workspace;
use crate::shell::names as ctl;

use crate::session::{BreakpointRequest, Origin, Registry, SessionError, SessionHandle};

pub const INSTRUCTIONS: &str = "\
pairdbg drives a live debugger for Python, C, C++, Rust, Go, Java, JavaScript (Node.js) and TypeScript. Workflow:
1. debug_launch {program, breakpoints:[{file,line}]} (a .py, .js, .ts or .java file, a binary, a jar, a Go package or Maven project directory; debug_attach {pid} for a running process; debug_launch {core, program} opens a crashed program's core file) runs to the first stop and returns the viewport: location, stack, source, locals, watches. If a person already runs a session in pairdbg's TUI (debug_status shows it), work in that one.
2. Move with debug_step {kind: over|into|out}, debug_continue, debug_run_to {file,line}; each returns the next viewport, or the exit code and last output. On gdb, debug_record {on:true} at a stop lets debug_step {kind: back|back_into|back_out} and debug_continue {direction:back} go backwards.
3. Inspect with debug_evaluate {expression}, debug_variables {expand:\"obj.attr\"}, debug_watch {add:[...]}. Set viewport_config {diff_mode:true} to see only changes.
Every tool takes session_id (default: the current session; debug_sessions lists them). Paths are workspace-relative. Results end with [session · epoch]; if a person moved the program since your last call, the result says so first. Errors say what failed and the session's state.";

pub(crate) use crate::agent::DEFAULT_WAIT_MS;

#[derive(Clone)]
pub struct PairdbgServer {
    /// The calls every agent front end shares.
    pub(crate) agent: Agent,
    pub(crate) registry: Registry,
    pub(crate) views: Views,
    pub(crate) workspace: Workspace,
    /// This connection's notifications and resource subscriptions.
    pub(crate) push: std::sync::Arc<super::push::Push>,
    tool_router: ToolRouter<Self>,
}

pub(crate) type ToolResult = Result<CallToolResult, rmcp::ErrorData>;

impl PairdbgServer {
    pub fn new(registry: Registry, workspace: Workspace) -> Self {
        Self::with_views(registry, workspace, Views::default())
    }

    /// A server sharing what the agent has seen with other instances: the
    /// HTTP transport makes one per MCP session.
    pub fn with_views(registry: Registry, workspace: Workspace, views: Views) -> Self {
        let mut tool_router = Self::execution_router()
            + Self::inspection_router()
            + Self::breakpoints_router()
            + Self::find_router()
            + Self::run_until_router()
            + Self::events_router()
            + Self::action_log_router()
            + Self::journal_router()
            + Self::input_router();
        for route in tool_router.map.values_mut() {
            route.attr.annotations = Some(super::annotations::annotations(&route.attr.name));
            let mut schema = serde_json::Value::Object((*route.attr.input_schema).clone());
            super::schema::compact_tool(&mut schema);
            if let Some(serde_json::Value::Object(props)) = schema.get_mut("properties") {
                for name in crate::agent::arguments::EVERY_TOOL {
                    props.remove(*name);
                }
            }
            if let serde_json::Value::Object(m) = schema {
                route.attr.input_schema = std::sync::Arc::new(m);
            }
        }
        let push = std::sync::Arc::new(super::push::Push::new(views.redacts()));
        let driven = push.clone();
        PairdbgServer {
            push,
            agent: Agent::new(
                registry.clone(),
                workspace.clone(),
                views.clone(),
                &super::names::MCP,
            )
            .on_session(std::sync::Arc::new(move |id| driven.drive(id))),
            registry,
            views,
            workspace,
            tool_router,
        }
    }

    /// The same server acting for `origin` and suggesting calls by `names`
    /// (a shell user types `pairdbg ctl wait`, not `debug_wait`).
    fn answering_in(&self, origin: Origin, names: &'static crate::agent::Names) -> Self {
        let mut other = self.clone();
        other.agent = other.agent.speaking_for(origin, names);
        other
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    pub(crate) fn session(&self, id: Option<&str>) -> Result<SessionHandle, CallToolResult> {
        self.agent.session(id).map_err(result)
    }

    /// A session call's result, its failure rendered with the session's state.
    pub(crate) fn checked<T>(
        s: &SessionHandle,
        res: Result<T, SessionError>,
    ) -> Result<T, CallToolResult> {
        res.map_err(|e| super::format::err(Some(&s.snapshot()), &e))
    }

    /// Checks `field`'s expressions for side effects before they run (see
    /// the agent's gate); a refusal is the tool's answer.
    pub(crate) async fn side_effects_gate(
        &self,
        s: &SessionHandle,
        gate: crate::agent::side_effects::Gate<'_>,
    ) -> Result<crate::agent::side_effects::Allowed, CallToolResult> {
        self.agent.side_effects_gate(s, gate).await.map_err(result)
    }

    /// The tool result of a move that was waited for, or of its refusal.
    pub(crate) fn moved(&self, m: Result<Moved, Reply>) -> ToolResult {
        Ok(result(match m {
            Ok(m) => m.reply(&self.agent),
            Err(refused) => refused,
        }))
    }
}

pub(crate) fn to_breakpoint_request(b: BreakpointParam) -> BreakpointRequest {
    BreakpointRequest {
        file: b.file.unwrap_or_default(),
        line: b.line.unwrap_or(0),
        function: b.function,
        statement: b.statement,
        expected_content: b.expected_content,
        condition: b.condition,
        hit_condition: b.hit_count.map(|h| h.as_condition()),
        log_message: b.log_message,
        trace: None,
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for PairdbgServer {
    /// Every call is timed and logged on its session for the activity pane.
    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        let call = match ToolCall::check(&self.tool_router, &request) {
            Ok(call) => call,
            Err(refusal) => {
                return Ok(
                    CallToolResult::error(vec![rmcp::model::ContentBlock::text(refusal)]).into(),
                );
            }
        };
        let (tool, args) = (&call.tool, &call.args);
        // Every tool takes session_id, but these start a session of their
        // own: an id that names none is a mistake, not a request for one.
        if matches!(tool.as_str(), "debug_launch" | "debug_attach")
            && let Some(id) = args.get("session_id").and_then(|v| v.as_str())
            && self.registry.get(Some(id)).is_err()
        {
            return Ok(CallToolResult::error(vec![rmcp::model::ContentBlock::text(format!(
                "session_id: no session {id}; {tool} starts a new session, so leave session_id out"
            ))])
            .into());
        }
        // A client that calls a tool before `initialized` still gets events.
        self.push.start(self.registry.clone(), context.peer.clone());
        let from_shell = context
            .peer
            .peer_info()
            .is_some_and(|i| i.client_info.name == ctl::CTL_CLIENT);
        if !from_shell {
            self.registry.note_agent_joined();
        }
        let shell;
        let this = if from_shell {
            shell = self.answering_in(Origin::Ctl, &ctl::CTL);
            &shell
        } else {
            self
        };
        let run = ToolCall::run(&this.tool_router, this, request, context);
        let mut result = super::format::speaking(this.agent.names, run).await;
        let session_id = args.get("session_id").and_then(|v| v.as_str());
        let session = self.registry.get(session_id).ok();
        if let Some(session) = &session {
            let label = if from_shell {
                ctl::ctl_label(tool)
            } else {
                tool.clone()
            };
            call.record(session, label, &result);
        }
        if let Ok(r) = result.as_mut() {
            let id = session.as_ref().map(|s| s.id.as_str());
            if let Some(note) = id.and_then(|id| super::economy::count(&self.views, id, args)) {
                super::economy::lead_with(r, &note);
            }
            if let Some(bytes) = super::economy::budget_of(&self.views, id, tool, args) {
                super::economy::enforce(r, bytes);
            }
        }
        result
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_resources_subscribe()
                .enable_completions()
                .build(),
        )
        .with_instructions(INSTRUCTIONS)
    }

    async fn complete(
        &self,
        request: rmcp::model::CompleteRequestParams,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::CompleteResult, rmcp::ErrorData> {
        Ok(self.complete_argument(&request))
    }

    async fn on_initialized(&self, context: rmcp::service::NotificationContext<rmcp::RoleServer>) {
        // The person's own `pairdbg ctl` is no agent.
        let from_shell = context
            .peer
            .peer_info()
            .is_some_and(|i| i.client_info.name == ctl::CTL_CLIENT);
        if !from_shell {
            self.registry.note_agent_joined();
        }
        self.push.start(self.registry.clone(), context.peer);
    }

    async fn list_resources(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListResourcesResult, rmcp::ErrorData> {
        Ok(self.list_debug_resources())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<rmcp::model::PaginatedRequestParams>,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ListResourceTemplatesResult, rmcp::ErrorData> {
        Ok(self.list_debug_templates())
    }

    async fn read_resource(
        &self,
        request: rmcp::model::ReadResourceRequestParams,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<rmcp::model::ReadResourceResponse, rmcp::ErrorData> {
        self.read_debug_resource(&request.uri).map(Into::into)
    }

    // The subscription calls of the protocol versions with an `initialize`
    // handshake, which every client we know still speaks.
    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: rmcp::model::SubscribeRequestParams,
        context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<(), rmcp::ErrorData> {
        self.check_resource(&request.uri)?;
        self.push.subscribe(request.uri);
        self.push.start(self.registry.clone(), context.peer);
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: rmcp::model::UnsubscribeRequestParams,
        _context: rmcp::service::RequestContext<rmcp::RoleServer>,
    ) -> Result<(), rmcp::ErrorData> {
        self.push.unsubscribe(&request.uri);
        Ok(())
    }
}
