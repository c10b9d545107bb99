//! Values being opened: a container's first children are read while the
//! screen keeps working; its row says so, and Esc gives up on it (its
//! answer, when it comes, is dropped).

use crossterm::event::{KeyCode, KeyEvent};

use super::App;
use crate::session::SessionError;
use crate::session::types::Var;

/// Why a value's children were not read.
#[derive(Debug)]
pub enum ReadFailed {
    /// The value is not there at this stop.
    Gone,
    Error(String),
}

impl From<SessionError> for ReadFailed {
    fn from(e: SessionError) -> Self {
        match e {
            SessionError::NoSuchValue { .. } => ReadFailed::Gone,
            other => ReadFailed::Error(other.to_string()),
        }
    }
}

impl App {
    /// Opens `path`: its row shows it is loading until the children come.
    pub(super) fn open_value(&mut self, path: String, stop_seq: u64) {
        self.ui.loading.insert(path.clone());
        self.fetch_children(path, stop_seq, 0, crate::tui::panes::variables::PAGE);
    }

    /// Esc while values are loading gives up on them; other keys pass.
    pub(super) fn on_loading_key(&mut self, k: &KeyEvent) -> bool {
        if k.code != KeyCode::Esc || self.ui.loading.is_empty() {
            return false;
        }
        let given_up: Vec<String> = std::mem::take(&mut self.ui.loading).into_iter().collect();
        self.ui.message = Some(format!("gave up reading {}", given_up.join(", ")));
        true
    }

    /// The answer to a read of children; one for a value given up on (or
    /// opened at an earlier stop) is dropped.
    pub(super) fn children_answered(
        &mut self,
        path: String,
        start: usize,
        result: Result<(Vec<Var>, usize), ReadFailed>,
    ) {
        let was_loading = self.ui.loading.remove(&path);
        let reopened = self.ui.reopening.remove(&path);
        let paging = self.ui.children.contains_key(&path);
        if start == 0 && !(was_loading || reopened || paging) {
            return;
        }
        match result {
            Ok(kids) => self.children_read(path, start, kids),
            Err(ReadFailed::Gone) => {
                self.collapse(&path);
                // What was open inside it is gone with it: their answers
                // are dropped, and the message names the outermost.
                let nested = format!("{path}.");
                self.ui.reopening.retain(|p| !p.starts_with(&nested));
                self.ui.message = Some(if reopened {
                    format!("{path} is gone since the last stop")
                } else {
                    format!("{path} is not there at this stop")
                });
            }
            Err(ReadFailed::Error(e)) if start > 0 => self.ui.message = Some(e),
            Err(ReadFailed::Error(e)) => {
                self.collapse(&path);
                self.ui.message = Some(format!("{path}: not read: {e}"));
            }
        }
    }
}
