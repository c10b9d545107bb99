//! Past sessions from their journals on disk: list, search, show, diff.
//! The same answers `pairdbg journal` prints; the journals hold secrets
//! masked, and are masked again as they are read.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{tool, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::mcp::params::Format;
use crate::mcp::server::{PairdbgServer, ToolResult};
use crate::session::journal::{journals_dir, query};

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct JournalFilterParams {
    /// Part of the program's path.
    pub program: Option<String>,
    /// UTC date: YYYY-MM-DD[THH:MM].
    pub since: Option<String>,
    pub until: Option<String>,
    /// exited, exited:N, crashed, killed, failed, open.
    pub outcome: Option<String>,
    /// Every workspace's, not only this one's.
    pub all_workspaces: Option<bool>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct JournalListParams {
    #[serde(flatten)]
    pub filter: JournalFilterParams,
    pub format: Option<Format>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct JournalSearchParams {
    /// Found ignoring case.
    pub text: String,
    #[serde(flatten)]
    pub filter: JournalFilterParams,
    pub format: Option<Format>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct JournalShowParams {
    /// A journal id from debug_journal_list, or a session id.
    pub journal_id: String,
    /// Only this stop (from 1).
    pub stop: Option<usize>,
    pub format: Option<Format>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct JournalDiffParams {
    /// Journal id of the first run.
    pub a: String,
    /// Journal id of the second run.
    pub b: String,
    pub format: Option<Format>,
}

#[tool_router(router = journals_router, vis = "pub(crate)")]
impl PairdbgServer {
    #[tool(description = "Past sessions' journals, filtered.")]
    async fn debug_journal_list(
        &self,
        Parameters(p): Parameters<JournalListParams>,
    ) -> ToolResult {
        Ok(reply(p.format, || {
            let list: Vec<query::Summary> = query::list(&dir()?, &self.filter(&p.filter)?)
                .iter()
                .map(query::Loaded::summary)
                .collect();
            Ok((query::list_text(&list), json(&list)))
        }))
    }

    #[tool(description = "Find text in past sessions' stops, values, notes, output.")]
    async fn debug_journal_search(
        &self,
        Parameters(p): Parameters<JournalSearchParams>,
    ) -> ToolResult {
        Ok(reply(p.format, || {
            let journals = query::list(&dir()?, &self.filter(&p.filter)?);
            let found = query::search(&journals, &p.text).map_err(|e| e.replace("TEXT", "text"))?;
            Ok((found.text(), json(&found)))
        }))
    }

    #[tool(description = "A past session's stops with stacks and locals, or one stop.")]
    async fn debug_journal_show(
        &self,
        Parameters(p): Parameters<JournalShowParams>,
    ) -> ToolResult {
        Ok(reply(p.format, || {
            let j = query::resolve(&dir()?, &self.workspace.root, "journal_id", &p.journal_id)?;
            let shown = query::show(&j, p.stop).map_err(|e| e.replace("--stop", "stop"))?;
            Ok((shown.text().to_string(), json(&shown)))
        }))
    }

    #[tool(description = "Two runs of a program: first differing stop and value.")]
    async fn debug_journal_diff(
        &self,
        Parameters(p): Parameters<JournalDiffParams>,
    ) -> ToolResult {
        Ok(reply(p.format, || {
            let dir = dir()?;
            let a = query::resolve(&dir, &self.workspace.root, "a", &p.a)?;
            let b = query::resolve(&dir, &self.workspace.root, "b", &p.b)?;
            let d = query::diff(&a, &b)?;
            Ok((d.text(), json(&d)))
        }))
    }
}

impl PairdbgServer {
    fn filter(&self, f: &JournalFilterParams) -> Result<query::Filter, String> {
        query::Filter::new(
            (!f.all_workspaces.unwrap_or(false)).then(|| self.workspace.root.display().to_string()),
            f.program.as_deref(),
            f.since.as_deref(),
            f.until.as_deref(),
            f.outcome.as_deref(),
        )
        // The fields as the tool names them, not as the command line does.
        .map_err(|e| e.replace("--", ""))
    }
}

fn dir() -> Result<std::path::PathBuf, String> {
    journals_dir().ok_or_else(|| "no state directory: set HOME or XDG_STATE_HOME".into())
}

fn json(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// The answer as text or JSON, or the error naming the field.
fn reply(
    format: Option<Format>,
    answer: impl FnOnce() -> Result<(String, String), String>,
) -> CallToolResult {
    match answer() {
        Ok((text, json)) => CallToolResult::success(vec![ContentBlock::text(
            match format.unwrap_or_default() {
                Format::Text => text,
                Format::Json => json,
            },
        )]),
        Err(e) => CallToolResult::error(vec![ContentBlock::text(e)]),
    }
}
