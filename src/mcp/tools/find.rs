//! Finding code without reading files.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

use crate::mcp::format::err;
use crate::mcp::params::{FindKindParam, FindParams};
use crate::mcp::server::{PairdbgServer, ToolResult};
use crate::session::find::{self, DefinitionKind, FindKind};
use rmcp::model::{CallToolResult, ContentBlock};

const DEFAULT_RESULTS: usize = 30;

impl PairdbgServer {
    /// With `just_my_code` off, the stopped program's loaded modules outside
    /// the workspace are searched too; otherwise (or with no session) none.
    async fn loaded_modules(&self, session_id: Option<&str>) -> Vec<std::path::PathBuf> {
        let Ok(s) = self.registry.get(session_id) else {
            return Vec::new();
        };
        if s.just_my_code() || s.snapshot().state != crate::session::RunState::Stopped {
            return Vec::new();
        }
        let root = &self.workspace.root;
        s.loaded_sources(self.agent.origin)
            .await
            .unwrap_or_default()
            .into_iter()
            .filter(|f| !f.starts_with(root))
            .collect()
    }
}

#[tool_router(router = find_router, vis = "pub(crate)")]
impl PairdbgServer {
    #[tool(description = "Find text or definitions.")]
    async fn debug_find(&self, Parameters(p): Parameters<FindParams>) -> ToolResult {
        let kind = match p.kind.unwrap_or(FindKindParam::Text) {
            FindKindParam::Text => FindKind::Text,
            FindKindParam::Function => FindKind::Definition(DefinitionKind::Function),
            FindKindParam::Class => FindKind::Definition(DefinitionKind::Class),
        };
        let root = self.workspace.root.clone();
        let pattern = p.pattern.clone();
        let cap = p.max_results.unwrap_or(DEFAULT_RESULTS);
        // Exact case first; only when nothing matches so, the case is
        // ignored, and the answer says which it was.
        let res = tokio::task::spawn_blocking(move || {
            let exact = find::find(&root, &pattern, kind, cap)?;
            if !exact.hits.is_empty() {
                return Ok(exact);
            }
            find::find_cased(&root, &pattern, kind, cap, true)
        })
        .await;
        let mut found = match res {
            Ok(Ok(f)) => f,
            Ok(Err(e)) => return Ok(err(None, &e)),
            Err(e) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "search failed: {e}"
                ))]));
            }
        };
        let modules = self.loaded_modules(p.session_id.as_deref()).await;
        if !modules.is_empty() {
            let pattern = p.pattern.clone();
            let res = tokio::task::spawn_blocking(move || {
                find::also_search(&mut found, &modules, &pattern, kind, cap);
                found
            })
            .await;
            found = match res {
                Ok(f) => f,
                Err(e) => {
                    return Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                        "search failed: {e}"
                    ))]));
                }
            };
        }
        let mut text = String::new();
        if found.ignore_case && !found.hits.is_empty() {
            text.push_str(&format!(
                "No match for {:?} in its case; ignoring case:\n",
                p.pattern
            ));
        }
        for h in &found.hits {
            text.push_str(&format!("{}:{}  {}\n", h.file, h.line, h.text));
        }
        if found.hits.is_empty() {
            text.push_str(&format!(
                "No match for {:?} in {} files, in any case.\n",
                p.pattern, found.files_searched
            ));
        } else if !found.ignore_case {
            text.push_str("(matched in its case)\n");
        }
        if found.more > 0 {
            let bound = if found.files_capped { " at least" } else { "" };
            text.push_str(&format!(
                "…and{bound} {} more (raise max_results, up to {}, or narrow the pattern).\n",
                found.more,
                find::MAX_RESULTS
            ));
        } else if found.files_capped {
            text.push_str(&format!(
                "Stopped after {} files; narrow the pattern or open a smaller workspace.\n",
                find::MAX_FILES
            ));
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(
            text.trim_end().to_string(),
        )]))
    }
}
