//! Creating, listing, starting, attaching and closing sessions.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use serde_json::{Value, json};

use super::params::*;
use super::reply::{self, failure, refused, state_name};
use super::table::Entry;
use super::{McpDebuggerServer, ToolResult, clock};
use crate::adapters::{self, LaunchSpec};
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

#[tool_router(router = sessions_router, vis = "pub(crate)")]
impl McpDebuggerServer {
    #[tool(description = "Create a new debugging session")]
    async fn create_debug_session(&self, Parameters(p): Parameters<CreateParams>) -> ToolResult {
        if p.port.is_some() || p.host.is_some() {
            return Ok(failure(
                "port: attaching to a debug server by port is not supported",
                Some("Create the session, then attach_to_process {processId}."),
            ));
        }
        let language = p.language.to_lowercase();
        if let Err(e) = adapters::for_language(&language) {
            return Ok(failure(format!("Invalid language: {e}"), None));
        }
        let id = uuid::Uuid::new_v4().to_string();
        let name = p.name.unwrap_or_else(|| format!("session-{}", &id[..8]));
        let now = clock::now();
        let entry = Entry {
            id: id.clone(),
            name: name.clone(),
            language: language.clone(),
            executable: p.executable_path,
            created_at: now.clone(),
            updated_at: now,
            pending: vec![],
            engine: None,
        };
        if !self.table.insert(entry) {
            return Ok(failure(
                format!(
                    "{} sessions wait unstarted, the limit; start or close one",
                    super::table::MAX_CREATED
                ),
                None,
            ));
        }
        Ok(reply::json(json!({
            "success": true,
            "sessionId": id,
            "message": format!("Created {language} debug session: {name}"),
        })))
    }

    #[tool(description = "List all active debugging sessions")]
    async fn list_debug_sessions(&self) -> ToolResult {
        let mut sessions: Vec<Value> = vec![];
        for e in self.table.all() {
            let state = match &e.engine {
                None => "created",
                Some(engine) if engine.is_empty() => "initializing",
                Some(engine) => match self.agent.registry.get(Some(engine)) {
                    Ok(s) => state_name(s.snapshot().state),
                    Err(_) => "stopped",
                },
            };
            sessions.push(json!({
                "id": e.id,
                "name": e.name,
                "language": e.language,
                "state": state,
                "createdAt": e.created_at,
                "updatedAt": e.updated_at,
            }));
        }
        // Sessions started elsewhere (the person's, in the TUI) by their
        // engine id, so a client of this profile can pair with them.
        let (others, _) = self.agent.registry.list();
        for s in others {
            if self.table.by_engine(&s.id).is_some() {
                continue;
            }
            let snap = s.snapshot();
            let language =
                adapters::infer_language(std::path::Path::new(&snap.program)).unwrap_or("unknown");
            sessions.push(json!({
                "id": s.id,
                "name": snap.program,
                "language": language,
                "state": state_name(snap.state),
            }));
        }
        let count = sessions.len();
        Ok(reply::json(json!({
            "success": true,
            "sessions": sessions,
            "count": count,
        })))
    }

    #[tool(description = "Close a debugging session")]
    async fn close_debug_session(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
        let engine = match self.table.get(&p.session_id) {
            Some(e) => e.engine,
            None if self.agent.registry.get(Some(&p.session_id)).is_ok() => {
                Some(p.session_id.clone())
            }
            None => {
                return Ok(failure(
                    format!("Session not found: {}", p.session_id),
                    Some(&format!("Failed to close debug session: {}", p.session_id)),
                ));
            }
        };
        if let Some(engine) = engine
            && self.agent.registry.get(Some(&engine)).is_ok()
        {
            let r = self.agent.terminate(Some(&engine), false).await;
            if r.is_error {
                return Ok(refused(r));
            }
        }
        self.table.remove(&p.session_id);
        Ok(reply::json(json!({
            "success": true,
            "message": format!("Closed debug session: {}", p.session_id),
        })))
    }

    #[tool(
        description = "Start debugging a script; returns once it stops (breakpoint, entry) or exits"
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
        let request = LaunchRequest {
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
            let checked = request.validate(
                &self.agent.workspace,
                std::time::Duration::from_millis(crate::agent::DEFAULT_REQUEST_MS),
            );
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
        self.table
            .update(&entry.id, |e| e.engine = Some(String::new()));
        let moved = match self.agent.launch(request, None, None).await {
            Ok(m) => m,
            Err(r) => {
                self.table.update(&entry.id, |e| e.engine = None);
                return Ok(refused(r));
            }
        };
        let engine = moved.session.id.clone();
        self.table.update(&entry.id, |e| e.engine = Some(engine));
        let (state, reason) = landed(&moved);
        let message = format!(
            "Debugging started for {}. Current state: {state}",
            p.script_path
        );
        let mut data = json!({"message": message});
        if let Some(r) = reason.filter(|_| state == "paused") {
            data["reason"] = json!(r);
        }
        Ok(reply::json(json!({
            "success": true,
            "state": state,
            "message": message,
            "data": data,
        })))
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
        if entry.engine.is_some() {
            return Ok(failure("Session already started", None));
        }
        let request = LaunchRequest {
            attach: Some(pid),
            language: Some(entry.language.clone()),
            breakpoints: entry.pending.iter().map(|b| b.request.clone()).collect(),
            ..Default::default()
        };
        self.table
            .update(&entry.id, |e| e.engine = Some(String::new()));
        let moved = match self.agent.attach(request, None).await {
            Ok(m) => m,
            Err(r) => {
                self.table.update(&entry.id, |e| e.engine = None);
                return Ok(refused(r));
            }
        };
        let engine = moved.session.id.clone();
        self.table.update(&entry.id, |e| e.engine = Some(engine));
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
        let r = self.agent.terminate(Some(&s.id), true).await;
        if r.is_error {
            return Ok(refused(r));
        }
        self.table.remove(&p.session_id);
        Ok(reply::json(json!({
            "success": true,
            "message": "Detached from process",
        })))
    }

    #[tool(description = "List supported debugging languages")]
    async fn list_supported_languages(&self) -> ToolResult {
        let spec = LaunchSpec::for_workspace(&self.agent.workspace.root);
        let mut languages = vec![];
        for a in adapters::all() {
            let found = a.probe(&spec).await.ok();
            for l in a.languages() {
                languages.push(json!({
                    "id": l,
                    "displayName": l,
                    "installed": found.is_some(),
                    "adapter": a.name(),
                    "defaultExecutable": found.as_ref().map(|f| f.path.clone()),
                }));
            }
        }
        let count = languages.len();
        Ok(reply::json(json!({
            "success": true,
            "languages": languages,
            "count": count,
        })))
    }

    #[tool(description = "Hot-swap changed Java classes (Java only)")]
    async fn redefine_classes(&self, Parameters(p): Parameters<RedefineParams>) -> ToolResult {
        let _ = (p.classes_dir, p.since_timestamp);
        Ok(failure(
            format!(
                "Session {} is not a Java session; pairdbg does not debug Java",
                p.session_id
            ),
            None,
        ))
    }
}
