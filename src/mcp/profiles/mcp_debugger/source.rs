//! Source lines around a line, as set_breakpoint's `context` and
//! get_source_context show them.

use std::path::Path;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use serde_json::{Value, json};

use super::params::SourceParams;
use super::reply::{self, failure};
use super::{McpDebuggerServer, ToolResult};
use crate::session::SessionError;

/// The most lines either side that one call returns.
pub const MAX_CONTEXT: i64 = 200;

/// `line`'s text and the lines within `around` of it, kept inside the file.
pub fn context(file: &Path, line: i64, around: i64) -> Result<(String, Vec<Value>), SessionError> {
    let text = std::fs::read_to_string(file).map_err(|e| {
        SessionError::invalid("file", format!("cannot read {}: {e}", file.display()))
    })?;
    let lines: Vec<&str> = text.lines().collect();
    let first = (line - around).max(1);
    let last = (line + around).min(lines.len() as i64);
    let surrounding = (first..=last)
        .map(|n| json!({"line": n, "content": lines[(n - 1) as usize]}))
        .collect();
    let at = lines
        .get((line - 1).max(0) as usize)
        .copied()
        .unwrap_or_default();
    Ok((at.to_string(), surrounding))
}

#[tool_router(router = source_router, vis = "pub(crate)")]
impl McpDebuggerServer {
    #[tool(description = "Get source code context around a specific line in a file")]
    async fn get_source_context(&self, Parameters(p): Parameters<SourceParams>) -> ToolResult {
        if self.table.get(&p.session_id).is_none()
            && self.agent.registry.get(Some(&p.session_id)).is_err()
        {
            return Ok(failure(
                format!("Managed session not found: {}", p.session_id),
                None,
            ));
        }
        let around = p.lines_context.unwrap_or(5);
        if !(0..=MAX_CONTEXT).contains(&around) {
            return Ok(failure(
                format!("linesContext: {around} is out of range; use 0 to {MAX_CONTEXT}"),
                None,
            ));
        }
        let checked = self
            .agent
            .workspace
            .resolve_file("file", &p.file)
            .and_then(|f| {
                crate::session::validate::check_line("line", &f, p.line, &p.file).map(|_| f)
            });
        let file = match checked {
            Ok(f) => f,
            Err(e) => return Ok(failure(e.to_string(), None)),
        };
        Ok(match context(&file, p.line, around) {
            Ok((line_content, surrounding)) => reply::json(json!({
                "success": true,
                "file": file.display().to_string(),
                "line": p.line,
                "lineContent": line_content,
                "surrounding": surrounding,
                "contextLines": around,
            })),
            Err(e) => failure(e.to_string(), None),
        })
    }
}
