//! Waiting for hits, and reading an exception whole.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use crate::agent::waiting;
use crate::mcp::format::{self, err, ok};
use crate::mcp::server::{DEFAULT_WAIT_MS, PairdbgServer, ToolResult};
use crate::session::autopsy::{ExceptionContext, ExceptionQuery};
use crate::session::handle::WaitOutcome;
use crate::session::types::{RunState, Snapshot};
use crate::session::{SessionError, validate};

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct BreakpointWaitParams {
    pub timeout_ms: Option<u64>,
    pub breakpoint_id: Option<u64>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ExceptionContextParams {
    /// 1-100, default 10.
    pub max_frames: Option<u64>,
    /// 0-10, default 1.
    pub include_variables_for_frames: Option<u64>,
    /// 0-20, default 5.
    pub max_inner_exceptions: Option<u64>,
    pub max_tokens: Option<usize>,
    pub session_id: Option<String>,
}

fn in_range(
    field: &str,
    v: Option<u64>,
    default: u64,
    min: u64,
    max: u64,
) -> Result<usize, SessionError> {
    let v = v.unwrap_or(default);
    if v < min || v > max {
        return Err(SessionError::invalid(
            field,
            format!("{v} is out of range; use {min} to {max}"),
        ));
    }
    Ok(v as usize)
}

impl ExceptionContextParams {
    fn query(&self) -> Result<ExceptionQuery, SessionError> {
        Ok(ExceptionQuery {
            max_frames: in_range("max_frames", self.max_frames, 10, 1, 100)?,
            variables_for_frames: in_range(
                "include_variables_for_frames",
                self.include_variables_for_frames,
                1,
                0,
                10,
            )?,
            max_inner: in_range("max_inner_exceptions", self.max_inner_exceptions, 5, 0, 20)?,
        })
    }
}

/// The context as the reference shapes it, paths workspace-relative.
fn context_json(snap: &Snapshot, c: &ExceptionContext) -> serde_json::Value {
    let mut v = serde_json::to_value(c).unwrap_or_default();
    if let Some(frames) = v["frames"].as_array_mut() {
        for (f, cf) in frames.iter_mut().zip(&c.frames) {
            let location = cf.file.as_deref().map(|p| {
                json!({"file": snap.display_path(p), "line": cf.line, "functionName": cf.function})
            });
            if let Some(o) = f.as_object_mut() {
                o.remove("file");
                o.remove("line");
                o.insert("location".into(), location.unwrap_or_default());
            }
        }
    }
    v
}

/// The hit a stop is, as `breakpoint_wait` answers it, when it is the one
/// waited for.
fn hit_json(snap: &Snapshot, wanted: Option<u64>) -> Option<serde_json::Value> {
    let hit = snap.stop.as_ref()?.hit.as_ref()?;
    if wanted.is_some() && hit.breakpoint_id != wanted {
        return None;
    }
    let file = hit.location.file.as_deref().map(|p| snap.display_path(p));
    Some(json!({
        "hit": true,
        "breakpoint_id": hit.breakpoint_id,
        "type": hit.kind,
        "thread_id": hit.thread_id,
        "location": {"file": file, "line": hit.location.line, "function": hit.location.function_name},
        "hit_count": hit.hit_count,
        "exception": hit.exception_info,
    }))
}

#[tool_router(router = events_router, vis = "pub(crate)")]
impl PairdbgServer {
    #[tool(description = "Wait for a breakpoint hit.")]
    async fn breakpoint_wait(&self, Parameters(p): Parameters<BreakpointWaitParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let snap = s.snapshot();
        let timeout = match validate::check_timeout(p.timeout_ms, DEFAULT_WAIT_MS) {
            Ok(t) => t,
            Err(e) => return Ok(err(Some(&snap), &e)),
        };
        if let Some(id) = p.breakpoint_id
            && !snap.breakpoints.iter().any(|b| b.id == id)
        {
            let ids: Vec<String> = snap.breakpoints.iter().map(|b| b.id.to_string()).collect();
            let e = SessionError::invalid(
                "breakpoint_id",
                format!(
                    "{id} is not a breakpoint here; the ids are [{}]",
                    ids.join(", ")
                ),
            );
            return Ok(err(Some(&snap), &e));
        }
        // Already paused: at the hit waited for, that is the answer; anywhere
        // else nothing will hit until the program is moved.
        let waited = if snap.state == RunState::Stopped {
            waiting::Waited {
                outcome: WaitOutcome::Stopped(snap),
                capped: None,
            }
        } else {
            let after = snap.stop_seq;
            waiting::long_wait(timeout, |d| s.wait_for_stop(after, d)).await
        };
        let ms = timeout.as_millis() as u64;
        let head = match &waited.outcome {
            WaitOutcome::Stopped(snap) => {
                match hit_json(&self.views.agent_snapshot(snap), p.breakpoint_id) {
                    Some(h) => h,
                    None => json!({"hit": false, "reason": "stopped",
                    "message": "The program is paused elsewhere; move it (debug_continue) before waiting."}),
                }
            }
            WaitOutcome::TimedOut(snap) if waited.capped.is_some() => json!({
                "hit": false, "reason": "still_running", "epoch": snap.epoch,
                "message": "Still running; call breakpoint_wait again to keep waiting."}),
            WaitOutcome::TimedOut(_) | WaitOutcome::Running(_) => json!({
                "hit": false, "reason": "timeout",
                "message": format!("No breakpoint hit within {ms}ms")}),
            WaitOutcome::Exited(snap) => json!({
                "hit": false, "reason": "exited",
                "exit_code": snap.exit.as_ref().and_then(|e| e.exit_code)}),
            WaitOutcome::Failed(_) => {
                return self.moved(Ok(crate::agent::Moved {
                    session: s,
                    waited,
                    timeout,
                    preface: vec![],
                }));
            }
        };
        match waited.outcome {
            o @ (WaitOutcome::Stopped(_) | WaitOutcome::Exited(_)) => {
                let mut view = format::outcome(&self.views, &s, o, ms);
                if let Some(t) = view.content.first().and_then(|c| c.as_text()) {
                    let text = format!("{head}\n{}", t.text);
                    view.content[0] = rmcp::model::ContentBlock::text(text);
                }
                Ok(view)
            }
            WaitOutcome::TimedOut(snap)
            | WaitOutcome::Running(snap)
            | WaitOutcome::Failed(snap) => Ok(ok(&self.views, &snap, head.to_string())),
        }
    }

    #[tool(description = "The exception: type, causes, frames, values.")]
    async fn exception_get_context(
        &self,
        Parameters(p): Parameters<ExceptionContextParams>,
    ) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let q = match p.query() {
            Ok(q) => q,
            Err(e) => return Ok(err(Some(&s.snapshot()), &e)),
        };
        let bytes = match crate::agent::budget::check("max_tokens", p.max_tokens) {
            Ok(b) => b,
            Err(e) => return Ok(err(Some(&s.snapshot()), &e)),
        };
        match Self::checked(&s, s.exception_context(self.agent.origin, q).await) {
            Ok(mut c) => {
                if self.views.redacts() {
                    crate::viewport::redact::exception_context(&mut c, &s.taint());
                }
                let snap = s.snapshot();
                let mut v = context_json(&snap, &c);
                if let Some(b) = bytes {
                    // The footer (and a note on others' changes) need room.
                    v = super::handles::fit_context(v, b.saturating_sub(120));
                }
                let body = serde_json::to_string(&v).unwrap_or_default();
                Ok(ok(&self.views, &snap, body))
            }
            Err(e) => Ok(e),
        }
    }
}
