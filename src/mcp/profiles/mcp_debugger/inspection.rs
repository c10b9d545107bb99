//! Reading a stop: stack, scopes, variables by reference, locals,
//! evaluation and threads. A `variablesReference` handed out here names a
//! frame, scope and path the engine reads again (see table::Handle).

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};
use serde_json::{Value, json};

use super::params::*;
use super::reply::{self, failure, refused};
use super::table::Handle;
use super::{McpDebuggerServer, ToolResult};
use crate::session::types::{StopInfo, Var};
use crate::session::{Origin, SessionHandle, Snapshot, VariablesQuery};
use crate::viewport::redact;

/// Children listed at most, as debugpy cuts collections.
const MAX_CHILDREN: usize = 300;

fn not_paused() -> CallToolResult {
    failure(
        "Session is not paused",
        Some("The session must be paused at a breakpoint."),
    )
}

/// The stop, or the failure to answer with.
fn stop_of(snap: &Snapshot) -> Result<&StopInfo, CallToolResult> {
    snap.stop.as_ref().ok_or_else(not_paused)
}

/// Where `frame_id` is in the stop's stack (default: the top).
fn frame_index(stop: &StopInfo, frame_id: Option<i64>) -> Result<usize, CallToolResult> {
    let Some(id) = frame_id else { return Ok(0) };
    stop.frames.iter().position(|f| f.id == id).ok_or_else(|| {
        let ids: Vec<i64> = stop.frames.iter().map(|f| f.id).collect();
        failure(
            format!("frameId: no frame {id} at this stop; get_stack_trace lists {ids:?}"),
            None,
        )
    })
}

/// A child's path under its container's.
fn child_path(parent: Option<&str>, name: &str) -> String {
    match parent {
        Some(p) => format!("{p}[{name}]"),
        None => name.to_string(),
    }
}

impl McpDebuggerServer {
    /// Variables as mcp-debugger lists them, each container given a
    /// reference to read it by.
    fn listed(
        &self,
        s: &SessionHandle,
        stop_seq: u64,
        frame_index: usize,
        scope: Option<&str>,
        parent: Option<&str>,
        mut vars: Vec<Var>,
    ) -> Vec<Value> {
        if self.agent.views.redacts() {
            // The parts of a secret are as secret as it is.
            redact::vars(&mut vars, parent.is_some_and(redact::path_is_secret));
        }
        vars.iter()
            .map(|v| {
                let reference = if v.reference > 0 {
                    self.table.reference(
                        &s.id,
                        stop_seq,
                        Handle {
                            frame_index,
                            scope: scope.map(str::to_string),
                            path: Some(child_path(parent, &v.name)),
                        },
                    )
                } else {
                    0
                };
                json!({
                    "name": v.name,
                    "value": v.value,
                    "type": v.type_name,
                    "variablesReference": reference,
                    "expandable": reference > 0,
                })
            })
            .collect()
    }

    fn stopped(
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
    async fn get_stack_trace(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
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
        })))
    }

    #[tool(description = "Get variable scopes for a stack frame")]
    async fn get_scopes(&self, Parameters(p): Parameters<ScopesParams>) -> ToolResult {
        let (s, snap) = match self.stopped(&p.session_id) {
            Ok(x) => x,
            Err(e) => return Ok(e),
        };
        let index = match stop_of(&snap).and_then(|stop| frame_index(stop, Some(p.frame_id))) {
            Ok(i) => i,
            Err(e) => return Ok(e),
        };
        let others = match self.agent.checked(&s, s.scopes(Origin::Agent, index).await) {
            Ok(o) => o,
            Err(r) => return Ok(refused(r)),
        };
        let mut scopes = vec![];
        let locals = self.table.reference(
            &s.id,
            snap.stop_seq,
            Handle {
                frame_index: index,
                scope: None,
                path: None,
            },
        );
        scopes.push(json!({
            "name": "Locals",
            "variablesReference": locals,
            "expensive": false,
            "presentationHint": "locals",
            "source": {},
        }));
        for name in others {
            let reference = self.table.reference(
                &s.id,
                snap.stop_seq,
                Handle {
                    frame_index: index,
                    scope: Some(name.clone()),
                    path: None,
                },
            );
            scopes.push(json!({
                "name": name,
                "variablesReference": reference,
                "expensive": false,
                "source": {},
            }));
        }
        Ok(reply::json(json!({"success": true, "scopes": scopes})))
    }

    #[tool(description = "Get variables within a scope (a variablesReference)")]
    async fn get_variables(&self, Parameters(p): Parameters<VariablesParams>) -> ToolResult {
        let (s, snap) = match self.stopped(&p.session_id) {
            Ok(x) => x,
            Err(e) => return Ok(e),
        };
        if snap.stop.is_none() {
            return Ok(not_paused());
        }
        let Some(h) = self.table.resolve(&s.id, snap.stop_seq, p.scope) else {
            return Ok(failure(
                format!(
                    "Invalid scope: variablesReference {} was not given at this stop; get it from get_scopes, get_variables or evaluate_expression",
                    p.scope
                ),
                None,
            ));
        };
        let q = VariablesQuery {
            frame_index: h.frame_index,
            scope: h.scope.clone(),
            path: h.path.clone(),
            filter: None,
            start: 0,
            count: MAX_CHILDREN,
        };
        let (vars, _) = match self.agent.checked(&s, s.variables(Origin::Agent, q).await) {
            Ok(v) => v,
            Err(r) => return Ok(refused(r)),
        };
        let vars = self.listed(
            &s,
            snap.stop_seq,
            h.frame_index,
            h.scope.as_deref(),
            h.path.as_deref(),
            vars,
        );
        let count = vars.len();
        Ok(reply::json(json!({
            "success": true,
            "variables": vars,
            "count": count,
            "variablesReference": p.scope,
        })))
    }

    #[tool(
        description = "Get the local variables of the current frame in one call, without internals unless includeSpecial"
    )]
    async fn get_local_variables(&self, Parameters(p): Parameters<LocalsParams>) -> ToolResult {
        let (s, snap) = match self.stopped(&p.session_id) {
            Ok(x) => x,
            Err(e) => return Ok(e),
        };
        let Some(stop) = snap.stop.as_ref() else {
            return Ok(failure(
                "Session is not paused",
                Some("Cannot get local variables. The session must be paused at a breakpoint."),
            ));
        };
        let special = p.include_special.unwrap_or(false);
        let locals: Vec<Var> = stop
            .locals
            .iter()
            .filter(|v| special || !v.hidden)
            .cloned()
            .collect();
        let vars = self.listed(&s, snap.stop_seq, 0, None, None, locals);
        let count = vars.len();
        let frame = stop.frames.first().map(|f| {
            json!({
                "name": f.name,
                "file": f.file.as_ref().map(|p| p.display().to_string()),
                "line": f.line,
            })
        });
        let mut body = json!({
            "success": true,
            "variables": vars,
            "count": count,
            "frame": frame,
            "scopeName": "Locals",
        });
        if count == 0 {
            body["message"] = json!("The Locals scope is empty.");
        }
        Ok(reply::json(body))
    }

    #[tool(
        description = "Evaluate an expression in the current (or given) frame. Expressions may change program state"
    )]
    async fn evaluate_expression(&self, Parameters(p): Parameters<EvaluateParams>) -> ToolResult {
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
                "evaluate_expression",
                "expression",
                &[p.expression.as_str()],
                Some(true),
                std::time::Duration::from_millis(crate::agent::DEFAULT_WAIT_MS),
            )
            .await
        {
            return Ok(refused(r));
        }
        let res = s.evaluate(Origin::Agent, p.expression.clone(), index).await;
        let mut v = match res {
            Ok(v) => v,
            Err(e) => return Ok(failure(e.to_string(), None)),
        };
        if self.agent.views.redacts() {
            redact::var(&mut v, false);
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
            .map(|(id, name)| json!({"id": id, "name": name}))
            .collect();
        let count = threads.len();
        Ok(reply::json(json!({
            "success": true,
            "threads": threads,
            "count": count,
        })))
    }
}
