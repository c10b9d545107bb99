//! Saves the workspace's state whenever it changes, so the next run in
//! this workspace starts where this one left off.

use super::App;
use crate::tui::workspace_state::{self, WorkspaceState};

/// What was last saved, and for which session and adapter.
#[derive(Default)]
pub(super) struct Persist {
    /// None: nothing is saved (the session was not launched by this UI).
    session: Option<(String, &'static str)>,
    last: WorkspaceState,
}

impl App {
    /// Remembers this session's breakpoints, watches and layout for the
    /// workspace, and puts back the layout saved last time.
    pub fn remember(mut self, adapter: &'static str) -> Self {
        let ws = self.ui.workspace.clone();
        if let Some(saved) = workspace_state::load(&ws) {
            saved.restore_layout(&mut self.ui);
            self.persist.last = saved;
        }
        self.persist.session = Some((self.session.id.clone(), adapter));
        self
    }

    /// Writes the state when it differs from what was written last.
    pub(super) fn save_state(&mut self) {
        let Some((id, adapter)) = &self.persist.session else {
            return;
        };
        if *id != self.session.id {
            return;
        }
        let snap = self.session.snapshot();
        let now = WorkspaceState::of(&snap, &self.ui, adapter, &self.persist.last);
        if now == self.persist.last {
            return;
        }
        if let Err(e) = workspace_state::save(&now) {
            tracing::warn!("cannot save the workspace's state: {e}");
        }
        self.persist.last = now;
    }
}
