//! Past sessions as MCP resources: `debugger://journals` lists the
//! workspace's journals as JSON, `debugger://journals/{id}` shows one.

use rmcp::ErrorData;

use crate::session::journal::{journals_dir, query};
use crate::session::validate::Workspace;

pub const JOURNALS: &str = "debugger://journals";
pub const JOURNAL_PREFIX: &str = "debugger://journals/";

/// The workspace's journals, oldest first, as JSON.
pub fn list(ws: &Workspace) -> Result<String, String> {
    let dir = journals_dir().ok_or("no state directory: set HOME or XDG_STATE_HOME")?;
    let filter = query::Filter {
        workspace: Some(ws.root.display().to_string()),
        ..Default::default()
    };
    let list: Vec<query::Summary> = query::list(&dir, &filter)
        .iter()
        .map(query::Loaded::summary)
        .collect();
    serde_json::to_string(&list).map_err(|e| e.to_string())
}

/// One journal, every stop with its stack and locals.
pub fn show(ws: &Workspace, id: &str) -> Result<String, String> {
    let dir = journals_dir().ok_or("no state directory: set HOME or XDG_STATE_HOME")?;
    let j = query::resolve(&dir, &ws.root, "id", id)?;
    Ok(query::show(&j, None)?.text().to_string())
}

pub fn not_found(uri: &str, why: impl std::fmt::Display) -> ErrorData {
    ErrorData::resource_not_found(format!("{uri}: {why}"), None)
}
