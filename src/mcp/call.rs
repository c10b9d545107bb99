//! What every MCP tool set does around a tool call: it refuses arguments
//! the tool does not take, paces a long wait as the client asked, and tells
//! the person watching what the call did.

use std::time::Instant;

use rmcp::RoleServer;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolRequestParams, CallToolResponse};
use rmcp::service::RequestContext;
use serde_json::{Map, Value};

use crate::agent::waiting;
use crate::session::SessionHandle;

pub type Answer = Result<CallToolResponse, rmcp::ErrorData>;

pub struct ToolCall {
    pub tool: String,
    pub args: Map<String, Value>,
    started: Instant,
}

impl ToolCall {
    /// The call, or why its arguments are refused.
    pub fn check<S: Send + Sync + 'static>(
        router: &ToolRouter<S>,
        request: &CallToolRequestParams,
    ) -> Result<Self, String> {
        let tool = request.name.to_string();
        let args = request.arguments.clone().unwrap_or_default();
        for (field, v) in &args {
            crate::session::validate::check_json(field, v).map_err(|e| e.to_string())?;
        }
        match super::schema::refusal(router, &tool, &args) {
            Some(refusal) => Err(refusal),
            None => Ok(ToolCall {
                tool,
                args,
                started: Instant::now(),
            }),
        }
    }

    /// Runs the tool, waiting at the pace the client's request allows.
    pub async fn run<S: Send + Sync + 'static>(
        router: &ToolRouter<S>,
        handler: &S,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Answer {
        let pace = super::progress::pace_of(&context);
        let tcc = ToolCallContext::new(handler, request, context);
        waiting::with_pace(pace, router.call(tcc)).await
    }

    /// Puts the call, named `label`, in the session's activity.
    pub fn record(&self, session: &SessionHandle, label: String, answer: &Answer) {
        session.record_activity(super::activity::describe(
            &label,
            &self.args,
            answer,
            self.started.elapsed(),
            &session.snapshot(),
        ));
    }
}
