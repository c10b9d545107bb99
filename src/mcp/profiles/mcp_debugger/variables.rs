//! Variables by reference: the scopes of a frame, a scope's or a value's
//! children, and the top frame's locals in one call. A
//! `variablesReference` handed out here names a frame, scope and path the
//! engine reads again (see table::Handle), valid for the stop it was read at.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use serde_json::{Value, json};

use super::inspection::{frame_index, not_paused, stop_of};
use super::params::*;
use super::reply::{self, failure, refused};
use super::table::Handle;
use super::{McpDebuggerServer, ToolResult};
use crate::session::types::Var;
use crate::session::{Origin, SessionHandle, VariablesQuery};
use crate::viewport::redact;

/// Children listed at most: the cut mcp-debugger documents for Python
/// collections, for every language.
const MAX_CHILDREN: usize = 300;

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
            let under = parent.is_some_and(redact::path_is_secret);
            redact::vars(&mut vars, under, &s.taint());
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
}

#[tool_router(router = variables_router, vis = "pub(crate)")]
impl McpDebuggerServer {
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
        let (vars, not_found) = only_named(vars, p.names.as_deref());
        let count = vars.len();
        let mut body = json!({
            "success": true,
            "variables": vars,
            "count": count,
            "variablesReference": p.scope,
        });
        if let Some(missing) = not_found {
            body["notFound"] = json!(missing);
        }
        Ok(reply::json(body))
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
        let (vars, not_found) = only_named(vars, p.names.as_deref());
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
        if let Some(missing) = not_found {
            body["notFound"] = json!(missing);
        } else if count == 0 {
            body["message"] = json!("The Locals scope is empty.");
        }
        Ok(reply::json(body))
    }
}

/// The variables named in `names` (all when none are given), and the names
/// not found.
fn only_named(vars: Vec<Value>, names: Option<&[String]>) -> (Vec<Value>, Option<Vec<String>>) {
    let Some(names) = names else {
        return (vars, None);
    };
    let named = |v: &Value| names.iter().any(|n| v["name"].as_str() == Some(n.as_str()));
    let missing = names
        .iter()
        .filter(|n| !vars.iter().any(|v| v["name"].as_str() == Some(n.as_str())))
        .cloned()
        .collect();
    (vars.into_iter().filter(named).collect(), Some(missing))
}
