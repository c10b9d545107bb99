//! Steps, continue and pause. Each waits for the program to stop again
//! (or exit) before it answers: mcp-debugger's continue answers while the
//! program still runs, which leaves a client's next read racing the stop;
//! waiting keeps its result shape and removes the race. Continue waits
//! RUN_WAIT_MS at most, as a run may have no next stop.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use serde_json::json;

use super::params::{PauseParams, SessionParams};
use super::reply::{self, refused};
use super::start::landed;
use super::{McpDebuggerServer, ToolResult};
use crate::agent::moves::Move;
use crate::agent::{Moved, Reply};
use crate::session::{RunState, StepKind};

impl McpDebuggerServer {
    async fn step(&self, id: &str, kind: StepKind, done: &str) -> ToolResult {
        let s = match self.engine_session(id) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        Ok(answer(
            self.agent
                .go(Some(&s.id), Move::Step { kind, count: 1 }, None)
                .await,
            done,
        ))
    }
}

/// `{success, state, message}` after a waited move.
fn answer(m: Result<Moved, Reply>, done: &str) -> rmcp::model::CallToolResult {
    match m {
        Ok(m) => {
            let (state, _) = landed(&m);
            let mut body = json!({"success": true, "state": state, "message": done});
            if let Some(exit) = m.snapshot().exit.as_ref() {
                body["exitCode"] = json!(exit.exit_code);
            }
            reply::json(body)
        }
        Err(r) => refused(r),
    }
}

#[tool_router(router = execution_router, vis = "pub(crate)")]
impl McpDebuggerServer {
    #[tool(description = "Step over")]
    async fn step_over(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
        self.step(&p.session_id, StepKind::Over, "Stepped over")
            .await
    }

    #[tool(description = "Step into")]
    async fn step_into(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
        self.step(&p.session_id, StepKind::Into, "Stepped into")
            .await
    }

    #[tool(description = "Step out")]
    async fn step_out(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
        self.step(&p.session_id, StepKind::Out, "Stepped out").await
    }

    #[tool(
        description = "Continue execution; returns at the next stop, at the exit, or after 5 s still running"
    )]
    async fn continue_execution(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
        let s = match self.engine_session(&p.session_id) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        Ok(answer(
            self.agent
                .go(Some(&s.id), Move::Resume, Some(super::RUN_WAIT_MS))
                .await,
            "Continued execution",
        ))
    }

    #[tool(description = "Pause execution; returns once paused")]
    async fn pause_execution(&self, Parameters(p): Parameters<PauseParams>) -> ToolResult {
        let s = match self.engine_session(&p.session_id) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        if s.snapshot().state == RunState::Stopped {
            return Ok(reply::json(json!({
                "success": true,
                "state": "paused",
                "message": "Already paused",
                "data": {"message": "Already paused"},
            })));
        }
        let moved = self
            .agent
            .go(Some(&s.id), Move::Pause { child: None }, None)
            .await;
        Ok(match moved {
            Ok(m) => {
                let (state, _) = landed(&m);
                reply::json(json!({
                    "success": true,
                    "state": state,
                    "data": {"message": "Execution paused"},
                }))
            }
            Err(r) => refused(r),
        })
    }
}
