//! Starting a created session: launching its script or attaching to a
//! process, with the breakpoints set while it waited; and detaching.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use serde_json::json;

use super::params::*;
use super::reply::{self, failure, refused};
use super::{McpDebuggerServer, ToolResult};
use crate::agent::Moved;
use crate::session::LaunchRequest;
use crate::session::handle::WaitOutcome;

/// The state a waited move ended in, and the stop's reason when it stopped.
pub(super) fn landed(m: &Moved) -> (&'static str, Option<String>) {
    let snap = m.snapshot();
    let state = match &m.waited.outcome {
        WaitOutcome::Stopped(_) => "paused",
        WaitOutcome::Exited(_) => "stopped",
        WaitOutcome::Failed(_) => "error",
        WaitOutcome::Running(_) | WaitOutcome::TimedOut(_) => "running",
    };
    let reason = snap.stop.as_ref().map(|s| s.reason.clone());
    (state, reason)
}

/// The adapter's exception filters for mcp-debugger's breakOnExceptions.
fn exception_filters(language: &str, mode: &str) -> Result<Vec<String>, String> {
    let adapter = crate::adapters::for_language(language)?;
    let filters: &[&str] = match mode {
        "uncaught" => adapter.default_exception_filters(),
        "all" => adapter.every_exception_filters(),
        "none" => &[],
        other => {
            return Err(format!(
                "breakOnExceptions must be one of 'uncaught', 'all', 'none' (got '{other}')"
            ));
        }
    };
    Ok(filters.iter().map(|f| f.to_string()).collect())
}

#[tool_router(router = start_router, vis = "pub(crate)")]
impl McpDebuggerServer {
    #[tool(
        description = "Start debugging a script; returns once it stops (breakpoint, entry), exits, or has run 5 s"
    )]
    async fn start_debugging(&self, Parameters(p): Parameters<StartParams>) -> ToolResult {
        let Some(entry) = self.table.get(&p.session_id) else {
            return Ok(failure(
                format!("Managed session not found: {}", p.session_id),
                None,
            ));
        };
        if entry.engine.is_some() {
            return Ok(failure(
                "Session already started",
                Some("Create a new session to debug again."),
            ));
        }
        if let Some(extra) = p.adapter_launch_config.as_ref().filter(|m| !m.is_empty()) {
            let keys: Vec<&str> = extra.keys().map(String::as_str).collect();
            return Ok(failure(
                format!(
                    "adapterLaunchConfig: not supported ({}); pairdbg configures its adapters itself",
                    keys.join(", ")
                ),
                None,
            ));
        }
        let dap = p.dap_launch_args.unwrap_or_default();
        let (mode, warning) = match (p.break_on_exceptions, dap.break_on_exceptions) {
            (Some(top), Some(nested)) => (
                Some(top.clone()),
                Some(format!(
                    "breakOnExceptions was passed both top-level ('{top}') and inside dapLaunchArgs ('{nested}'); the top-level value wins and the nested key was ignored"
                )),
            ),
            (None, Some(nested)) => (
                Some(nested.clone()),
                Some(format!(
                    "breakOnExceptions is a top-level start_debugging parameter, not a dapLaunchArgs key — honored as '{nested}' this time; pass it at the top level"
                )),
            ),
            (top, None) => (top, None),
        };
        let exception_filters = match mode.as_deref() {
            None => None,
            Some(mode) => match exception_filters(&entry.language, mode) {
                Ok(f) => Some(f),
                Err(e) => return Ok(failure(e, None)),
            },
        };
        let request = LaunchRequest {
            exception_filters,
            program: Some(p.script_path.clone()),
            args: p.args.or(dap.args).unwrap_or_default(),
            cwd: dap.cwd,
            env: dap.env.unwrap_or_default().into_iter().collect(),
            language: Some(entry.language.clone()),
            python: entry
                .executable
                .clone()
                .filter(|_| entry.language == "python"),
            stop_on_entry: dap.stop_on_entry.unwrap_or(false),
            breakpoints: entry.pending.iter().map(|b| b.request.clone()).collect(),
            just_my_code: dap.just_my_code,
            ..Default::default()
        };
        if p.dry_run_spawn == Some(true) {
            let checked = request.validate(&self.agent.workspace, crate::session::REQUEST_TIMEOUT);
            return Ok(match checked {
                Ok(_) => reply::json(json!({
                    "success": true,
                    "state": "created",
                    "dryRun": true,
                    "message": format!("Dry run: {} would start; nothing was spawned", p.script_path),
                })),
                Err(e) => failure(e.to_string(), None),
            });
        }
        if let Err(why) = self.table.claim(&entry.id) {
            return Ok(failure(why, Some("Create a new session to debug again.")));
        }
        let moved = match self
            .agent
            .launch(request, None, Some(super::RUN_WAIT_MS))
            .await
        {
            Ok(m) => m,
            Err(r) => {
                self.table.update(&entry.id, |e| e.engine = None);
                return Ok(refused(r));
            }
        };
        let engine = moved.session.id.clone();
        let aliases = super::bp_ids::aliases(&entry.pending, &moved.snapshot().breakpoints);
        self.table.update(&entry.id, |e| {
            e.engine = Some(engine);
            e.aliases = aliases;
        });
        let (state, reason) = landed(&moved);
        let message = format!(
            "Debugging started for {}. Current state: {state}",
            p.script_path
        );
        let mut data = json!({"message": message});
        if let Some(r) = reason.filter(|_| state == "paused") {
            data["reason"] = json!(r);
        }
        let mut body = json!({
            "success": true,
            "state": state,
            "message": message,
            "data": data,
        });
        if let Some(w) = warning {
            body["warning"] = json!(w);
        }
        Ok(reply::json(body))
    }

    #[tool(description = "Attach the debugger to a running process")]
    async fn attach_to_process(&self, Parameters(p): Parameters<AttachParams>) -> ToolResult {
        let Some(entry) = self.table.get(&p.session_id) else {
            return Ok(failure(
                format!("Managed session not found: {}", p.session_id),
                None,
            ));
        };
        let Some(pid) = p.process_id else {
            let port = match (p.host, p.port) {
                (_, None) => String::new(),
                (h, Some(n)) => format!(" ({}:{n})", h.as_deref().unwrap_or("localhost")),
            };
            return Ok(failure(
                format!(
                    "processId: required; attaching to a debug server by port{port} is not supported"
                ),
                None,
            ));
        };
        let entry = match self.table.claim(&entry.id) {
            Ok(e) => e,
            Err(why) => return Ok(failure(why, None)),
        };
        let request = LaunchRequest {
            attach: Some(pid),
            language: Some(entry.language.clone()),
            breakpoints: entry.pending.iter().map(|b| b.request.clone()).collect(),
            ..Default::default()
        };
        let moved = match self.agent.attach(request, Some(super::RUN_WAIT_MS)).await {
            Ok(m) => m,
            Err(r) => {
                self.table.update(&entry.id, |e| e.engine = None);
                return Ok(refused(r));
            }
        };
        let engine = moved.session.id.clone();
        let aliases = super::bp_ids::aliases(&entry.pending, &moved.snapshot().breakpoints);
        self.table.update(&entry.id, |e| {
            e.engine = Some(engine);
            e.aliases = aliases;
        });
        let (state, _) = landed(&moved);
        Ok(reply::json(json!({
            "success": true,
            "state": state,
            "message": format!("Attached to process {pid}. Current state: {state}"),
        })))
    }

    #[tool(description = "Detach from an attached process; it keeps running")]
    async fn detach_from_process(&self, Parameters(p): Parameters<DetachParams>) -> ToolResult {
        if p.terminate_process == Some(true) {
            return Ok(failure(
                "terminateProcess: not supported; pairdbg leaves an attached process running",
                None,
            ));
        }
        let s = match self.engine_session(&p.session_id) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        if !s.is_attached() {
            return Ok(failure(
                "Session is not attached to a process",
                Some("A launched program ends with close_debug_session."),
            ));
        }
        let r = self.agent.terminate(Some(&s.id), true, false).await;
        if r.is_error {
            return Ok(refused(r));
        }
        self.table.remove(&p.session_id);
        Ok(reply::json(json!({
            "success": true,
            "message": "Detached from process",
        })))
    }
}
