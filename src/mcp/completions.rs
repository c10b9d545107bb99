//! `completion/complete` for the resource templates' arguments: session
//! ids, workspace files, breakpoint ids and journal ids, each filtered by
//! what the client has typed so far.

use rmcp::model::{CompleteRequestParams, CompleteResult, CompletionInfo, Reference};

use super::server::PairdbgServer;

/// Files walked at most, so a huge workspace cannot stall an answer.
const FILES_WALKED: usize = 20_000;

impl PairdbgServer {
    pub(crate) fn complete_argument(&self, request: &CompleteRequestParams) -> CompleteResult {
        let Reference::Resource(_) = &request.r#ref else {
            return CompleteResult::default();
        };
        let typed = request.argument.value.as_str();
        let chosen = |name: &str| {
            request
                .context
                .as_ref()
                .and_then(|c| c.arguments.as_ref())
                .and_then(|a| a.get(name).cloned())
        };
        let values: Vec<String> = match request.argument.name.as_str() {
            "id" => self.registry.list().0.into_iter().map(|s| s.id).collect(),
            "path" => self.workspace_files(),
            "breakpoint_id" => match self.registry.get(chosen("id").as_deref()) {
                Ok(s) => s
                    .snapshot()
                    .breakpoints
                    .iter()
                    .map(|b| b.id.to_string())
                    .collect(),
                Err(_) => vec![],
            },
            "journal_id" | "a" | "b" => journal_ids(),
            _ => vec![],
        };
        let matching: Vec<String> = values
            .into_iter()
            .filter(|v| v.starts_with(typed))
            .collect();
        let total = matching.len();
        let shown: Vec<String> = matching
            .into_iter()
            .take(CompletionInfo::MAX_VALUES)
            .collect();
        let more = total > shown.len();
        CompleteResult::new(
            CompletionInfo::with_pagination(shown, Some(total as u32), more).unwrap_or_default(),
        )
    }

    /// The workspace's files, relative, as the source template takes them;
    /// ignored files (.gitignore) left out.
    fn workspace_files(&self) -> Vec<String> {
        let root = &self.workspace.root;
        let mut files: Vec<String> = ignore::WalkBuilder::new(root)
            .build()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
            .take(FILES_WALKED)
            .filter_map(|e| {
                e.path()
                    .strip_prefix(root)
                    .ok()
                    .map(|p| p.display().to_string())
            })
            .collect();
        files.sort();
        files
    }
}

/// The journals kept, newest first, by id.
fn journal_ids() -> Vec<String> {
    let Some(dir) = crate::session::journal::journals_dir() else {
        return vec![];
    };
    crate::session::journal::list(&dir)
        .iter()
        .rev()
        .map(|p| crate::session::journal::query::id_of(p))
        .collect()
}
