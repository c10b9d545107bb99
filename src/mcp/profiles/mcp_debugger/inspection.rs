//! Reading a stop: its stack, an evaluation in one of its frames, and the
//! threads.

use std::time::Duration;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};
use serde_json::{Value, json};

use super::params::*;
use super::reply::{self, failure, refused};
use super::table::Handle;
use super::{McpDebuggerServer, ToolResult};
use crate::agent::side_effects::Gate;
use crate::session::types::StopInfo;
use crate::session::{Origin, SessionHandle, Snapshot};
use crate::viewport::redact;

/// mcp-debugger's ceiling on evaluate_expression's timeout.
const MAX_EVALUATE_MS: u64 = 600_000;

pub(super) fn not_paused() -> CallToolResult {
    failure(
        "Session is not paused",
        Some("The session must be paused at a breakpoint."),
    )
}

/// The stop, or the failure to answer with.
pub(super) fn stop_of(snap: &Snapshot) -> Result<&StopInfo, CallToolResult> {
    snap.stop.as_ref().ok_or_else(not_paused)
}

/// Where `frame_id` is in the stop's stack (default: the top).
pub(super) fn frame_index(stop: &StopInfo, frame_id: Option<i64>) -> Result<usize, CallToolResult> {
    let Some(id) = frame_id else { return Ok(0) };
    stop.frames.iter().position(|f| f.id == id).ok_or_else(|| {
        let ids: Vec<i64> = stop.frames.iter().map(|f| f.id).collect();
        failure(
            format!("frameId: no frame {id} at this stop; get_stack_trace lists {ids:?}"),
            None,
        )
    })
}

impl McpDebuggerServer {
    pub(super) fn stopped(
        &self,
        id: &str,
    ) -> Result<(SessionHandle, std::sync::Arc<Snapshot>), CallToolResult> {
        let s = self.engine_session(id)?;
        let snap = s.snapshot();
        Ok((s, snap))
    }
}

#[tool_router(router = inspection_router, vis = "pub(crate)")]
impl McpDebuggerServer {
    #[tool(description = "Get the current call stack, innermost frame first")]
    async fn get_stack_trace(&self, Parameters(p): Parameters<StackParams>) -> ToolResult {
        let (_, snap) = match self.stopped(&p.session_id) {
            Ok(x) => x,
            Err(e) => return Ok(e),
        };
        let stop = match stop_of(&snap) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        // pairdbg tracks lines, not columns: every frame says column 1.
        let frames: Vec<Value> = stop
            .frames
            .iter()
            .map(|f| {
                json!({
                    "id": f.id,
                    "name": f.name,
                    "file": f.file.as_ref().map(|p| p.display().to_string()),
                    "line": f.line,
                    "column": 1,
                })
            })
            .collect();
        let count = frames.len();
        Ok(reply::json(json!({
            "success": true,
            "stackFrames": frames,
            "count": count,
            "stopReason": stop.reason,
            "lastStop": super::last_stop::json(stop),
        })))
    }

    #[tool(
        description = "Evaluate an expression in the current (or given) frame. Expressions may change program state"
    )]
    async fn evaluate_expression(&self, Parameters(p): Parameters<EvaluateParams>) -> ToolResult {
        if let Some(ms) = p.timeout.filter(|ms| !(1..=MAX_EVALUATE_MS).contains(ms)) {
            return Ok(failure(
                format!("timeout: {ms} is out of range; use 1 to {MAX_EVALUATE_MS} (ms)"),
                None,
            ));
        }
        let (s, snap) = match self.stopped(&p.session_id) {
            Ok(x) => x,
            Err(e) => return Ok(e),
        };
        let index = match stop_of(&snap).and_then(|stop| frame_index(stop, p.frame_id)) {
            Ok(i) => i,
            Err(e) => return Ok(e),
        };
        // mcp-debugger runs side effects by design; the person who asked to
        // approve them is still asked.
        if let Err(r) = self
            .agent
            .side_effects_gate(
                &s,
                Gate {
                    tool: "evaluate_expression",
                    field: "expression",
                    expressions: &[p.expression.as_str()],
                    frame_index: index,
                    allow: Some(true),
                    timeout: std::time::Duration::from_millis(crate::agent::DEFAULT_WAIT_MS),
                },
            )
            .await
        {
            return Ok(refused(r));
        }
        let evaluated = s.evaluate(Origin::Agent, p.expression.clone(), index);
        let res = match p.timeout {
            None => evaluated.await,
            Some(ms) => match tokio::time::timeout(Duration::from_millis(ms), evaluated).await {
                Ok(r) => r,
                Err(_) => {
                    return Ok(failure(
                        format!(
                            "Evaluation timed out after {ms} ms; the expression may still be running in the program"
                        ),
                        None,
                    ));
                }
            },
        };
        let mut v = match res {
            Ok(v) => v,
            Err(e) => return Ok(failure(e.to_string(), None)),
        };
        if self.agent.views.redacts() {
            redact::var(&mut v, false, &s.taint());
        }
        let reference = if v.reference > 0 {
            self.table.reference(
                &s.id,
                snap.stop_seq,
                Handle {
                    frame_index: index,
                    scope: None,
                    path: Some(p.expression),
                },
            )
        } else {
            0
        };
        Ok(reply::json(json!({
            "success": true,
            "result": v.value,
            "type": v.type_name,
            "variablesReference": reference,
            "presentationHint": {},
        })))
    }

    #[tool(description = "List all threads in the debug session")]
    async fn list_threads(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
        let s = match self.engine_session(&p.session_id) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let threads = match self.agent.checked(&s, s.threads(Origin::Agent).await) {
            Ok(t) => t,
            Err(r) => return Ok(refused(r)),
        };
        let threads: Vec<Value> = threads
            .into_iter()
            .map(|t| json!({"id": t.id, "name": t.name}))
            .collect();
        let count = threads.len();
        Ok(reply::json(json!({
            "success": true,
            "threads": threads,
            "count": count,
        })))
    }
}
