//! Creating, listing and closing sessions.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use serde_json::{Value, json};

use super::params::*;
use super::reply::{self, failure, refused, state_name};
use super::table::Entry;
use super::{McpDebuggerServer, ToolResult, clock};
use crate::adapters;

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
            aliases: vec![],
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
            let snap = e
                .engine
                .as_ref()
                .filter(|engine| !engine.is_empty())
                .and_then(|engine| self.agent.registry.get(Some(engine)).ok())
                .map(|s| s.snapshot());
            let state = match (&e.engine, &snap) {
                (None, _) => "created",
                (Some(engine), _) if engine.is_empty() => "initializing",
                (_, Some(snap)) => state_name(snap.state),
                (_, None) => "stopped",
            };
            let mut row = json!({
                "id": e.id,
                "name": e.name,
                "language": e.language,
                "state": state,
                "createdAt": e.created_at,
                "updatedAt": e.updated_at,
            });
            if let Some(stop) = snap.as_ref().and_then(|s| s.stop.as_ref()) {
                row["lastStop"] = super::last_stop::json(stop);
            }
            sessions.push(row);
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
            let r = self.agent.terminate(Some(&engine), false, false).await;
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
}
