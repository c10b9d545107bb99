//! What can be debugged here, and the Java-only tool pairdbg does not do.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use serde_json::json;

use super::params::RedefineParams;
use super::reply::{self, failure};
use super::{McpDebuggerServer, ToolResult};
use crate::adapters::{self, LaunchSpec};

#[tool_router(router = languages_router, vis = "pub(crate)")]
impl McpDebuggerServer {
    #[tool(description = "List supported debugging languages")]
    async fn list_supported_languages(&self) -> ToolResult {
        let spec = LaunchSpec::for_workspace(&self.agent.workspace.root);
        let mut languages = vec![];
        for a in adapters::all().iter().filter(|a| !a.only_core_files()) {
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
                "Session {}: pairdbg does not redefine Java classes (hot code replace); \
                 restart the session to run changed classes",
                p.session_id
            ),
            None,
        ))
    }
}
