//! Listing and removing breakpoints: those kept for the start while a
//! session waits, else the engine's own.

use std::path::{Path, PathBuf};

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::CallToolResult;
use rmcp::{tool, tool_router};
use serde_json::{Value, json};

use super::bp_ids::{self, is_function};
use super::params::{FileFilterParams, RemoveBreakpointParams};
use super::reply::{self, failure, refused};
use super::table::Entry;
use super::{McpDebuggerServer, ToolResult};
use crate::session::types::Breakpoint;
use crate::session::{BreakpointSelector, Origin, SessionHandle};

/// Where a session's breakpoints are.
enum Held {
    /// Kept for the start.
    Pending(Entry),
    /// The engine's.
    Engine(Option<Entry>, SessionHandle),
}

impl McpDebuggerServer {
    fn held(&self, id: &str) -> Result<Held, CallToolResult> {
        let entry = self.table.get(id);
        if let Some(e) = &entry
            && e.engine.is_none()
        {
            return Ok(Held::Pending(e.clone()));
        }
        let s = self.engine_session(id)?;
        Ok(Held::Engine(entry, s))
    }

    /// `file` as the breakpoints hold it: resolved in the workspace, or as
    /// given when it no longer exists (a breakpoint on a deleted file can
    /// still be removed).
    fn breakpoint_file(&self, file: &str) -> PathBuf {
        self.agent
            .workspace
            .resolve_file("file", file)
            .unwrap_or_else(|_| PathBuf::from(file))
    }

    async fn remove_engine(
        &self,
        s: &SessionHandle,
        selector: BreakpointSelector,
    ) -> Result<Vec<Breakpoint>, CallToolResult> {
        let removed = s.remove_breakpoint(Origin::Agent, selector).await;
        self.agent
            .checked(s, removed)
            .map(|(b, _)| b)
            .map_err(refused)
    }
}

fn in_file(b: &Path, file: &Path) -> bool {
    b == file || (file.is_relative() && b.ends_with(file))
}

#[tool_router(router = breakpoint_list_router, vis = "pub(crate)")]
impl McpDebuggerServer {
    #[tool(
        description = "List all breakpoints in a session with their verified state. Function breakpoints appear separately as functionBreakpoints (omitted when filtering by file). Works before launch (queued, verified=false), while running or paused"
    )]
    async fn list_breakpoints(&self, Parameters(p): Parameters<FileFilterParams>) -> ToolResult {
        let file = p.file.as_deref().map(|f| self.breakpoint_file(f));
        let keep = |b: &Path| file.as_deref().is_none_or(|f| in_file(b, f));
        let (lines, functions): (Vec<Value>, Vec<Value>) = match self.held(&p.session_id) {
            Err(e) => return Ok(e),
            Ok(Held::Pending(e)) => (
                e.pending
                    .iter()
                    .filter(|b| keep(Path::new(&b.request.file)))
                    .map(bp_ids::pending_json)
                    .collect(),
                vec![],
            ),
            Ok(Held::Engine(entry, s)) => {
                let snap = s.snapshot();
                let id = |b: &Breakpoint| bp_ids::public(entry.as_ref(), b.id);
                (
                    snap.breakpoints
                        .iter()
                        .filter(|b| !is_function(b) && keep(&b.file))
                        .map(|b| bp_ids::line_json(id(b), b))
                        .collect(),
                    snap.breakpoints
                        .iter()
                        .filter(|b| is_function(b))
                        .map(|b| bp_ids::function_json(id(b), b))
                        .collect(),
                )
            }
        };
        let mut body = json!({"success": true, "count": lines.len(), "breakpoints": lines});
        if file.is_none() {
            body["functionCount"] = json!(functions.len());
            body["functionBreakpoints"] = json!(functions);
        }
        Ok(reply::json(body))
    }

    #[tool(
        description = "Remove a breakpoint by breakpointId (returned by set_breakpoint / list_breakpoints), by function name, or by file + line (removes all breakpoints at that location). Takes effect immediately while the program is running or paused"
    )]
    async fn remove_breakpoint(
        &self,
        Parameters(p): Parameters<RemoveBreakpointParams>,
    ) -> ToolResult {
        let place = p.file.clone().zip(p.line);
        if p.breakpoint_id.is_none() && p.function.is_none() && place.is_none() {
            return Ok(failure(
                "breakpointId, function, or file and line together: one is required",
                None,
            ));
        }
        let held = match self.held(&p.session_id) {
            Ok(h) => h,
            Err(e) => return Ok(e),
        };
        let (removed, none): (Vec<Value>, String) = match held {
            Held::Pending(e) => {
                let file = place.as_ref().map(|(f, _)| self.breakpoint_file(f));
                let hit = |b: &super::table::Pending| match (&p.breakpoint_id, &file) {
                    (Some(id), _) => &b.id == id,
                    (None, Some(f)) => {
                        in_file(Path::new(&b.request.file), f)
                            && Some(b.request.line) == place.as_ref().map(|(_, l)| *l)
                    }
                    (None, None) => false,
                };
                let removed: Vec<Value> = e
                    .pending
                    .iter()
                    .filter(|b| hit(b))
                    .map(bp_ids::pending_json)
                    .collect();
                self.table.update(&e.id, |e| e.pending.retain(|b| !hit(b)));
                (removed, nothing_at(&p))
            }
            Held::Engine(entry, s) => {
                let snap = s.snapshot();
                let ids: Vec<u64> = match (&p.breakpoint_id, &p.function, &place) {
                    (Some(id), _, _) => bp_ids::engine(entry.as_ref(), id)
                        .filter(|n| snap.breakpoints.iter().any(|b| b.id == *n))
                        .into_iter()
                        .collect(),
                    (None, Some(f), _) => snap
                        .breakpoints
                        .iter()
                        .filter(|b| b.function.as_deref() == Some(f.as_str()))
                        .map(|b| b.id)
                        .collect(),
                    (None, None, Some((f, l))) => {
                        let f = self.breakpoint_file(f);
                        snap.breakpoints
                            .iter()
                            .filter(|b| {
                                !is_function(b)
                                    && in_file(&b.file, &f)
                                    && (b.line as i64 == *l || b.at_line() as i64 == *l)
                            })
                            .map(|b| b.id)
                            .collect()
                    }
                    (None, None, None) => vec![],
                };
                let mut removed = vec![];
                for n in ids {
                    let gone = match self.remove_engine(&s, BreakpointSelector::Id(n)).await {
                        Ok(g) => g,
                        Err(e) => return Ok(e),
                    };
                    for b in gone {
                        let id = bp_ids::public(entry.as_ref(), b.id);
                        removed.push(if is_function(&b) {
                            bp_ids::function_json(id, &b)
                        } else {
                            bp_ids::line_json(id, &b)
                        });
                    }
                }
                (removed, nothing_at(&p))
            }
        };
        if removed.is_empty() {
            return Ok(failure(none, None));
        }
        Ok(reply::json(json!({
            "success": true,
            "message": format!("Removed {} breakpoint(s)", removed.len()),
            "removed": removed,
        })))
    }

    #[tool(
        description = "Remove all breakpoints in a session, or all breakpoints in one file. Clearing zero breakpoints is success"
    )]
    async fn clear_breakpoints(&self, Parameters(p): Parameters<FileFilterParams>) -> ToolResult {
        let file = p.file.as_deref().map(|f| self.breakpoint_file(f));
        let keep = |b: &Path| file.as_deref().is_none_or(|f| in_file(b, f));
        let mut files: Vec<String> = vec![];
        let cleared = match self.held(&p.session_id) {
            Err(e) => return Ok(e),
            Ok(Held::Pending(e)) => {
                let gone: Vec<&super::table::Pending> = e
                    .pending
                    .iter()
                    .filter(|b| keep(Path::new(&b.request.file)))
                    .collect();
                files.extend(gone.iter().map(|b| b.request.file.clone()));
                self.table.update(&e.id, |e| {
                    e.pending.retain(|b| !keep(Path::new(&b.request.file)))
                });
                gone.len()
            }
            Ok(Held::Engine(_, s)) => {
                let snap = s.snapshot();
                let ids: Vec<u64> = snap
                    .breakpoints
                    .iter()
                    .filter(|b| keep(&b.file) && (file.is_none() || !is_function(b)))
                    .map(|b| b.id)
                    .collect();
                let mut n = 0;
                for id in ids {
                    let gone = match self.remove_engine(&s, BreakpointSelector::Id(id)).await {
                        Ok(g) => g,
                        Err(e) => return Ok(e),
                    };
                    n += gone.len();
                    files.extend(
                        gone.iter()
                            .filter(|b| !is_function(b))
                            .map(|b| b.file.display().to_string()),
                    );
                }
                n
            }
        };
        files.sort();
        files.dedup();
        Ok(reply::json(json!({
            "success": true,
            "cleared": cleared,
            "files": files,
            "message": format!("Cleared {cleared} breakpoint(s)"),
        })))
    }
}

/// What remove_breakpoint says when nothing matched, as mcp-debugger says it.
fn nothing_at(p: &RemoveBreakpointParams) -> String {
    match (&p.breakpoint_id, &p.function, &p.file, p.line) {
        (Some(id), _, _, _) => format!("No breakpoint found with id {id}"),
        (None, Some(f), _, _) => format!("No function breakpoint found for {f}"),
        (None, None, Some(f), Some(l)) => format!("No breakpoint found at {f}:{l}"),
        _ => "No breakpoint found".to_string(),
    }
}
