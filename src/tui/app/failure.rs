//! A session that failed (the adapter refused the launch, or died) says why
//! on the message line, once, rather than only "failed".

use super::App;
use crate::session::types::{RunState, Snapshot};

impl App {
    pub(super) fn show_failure(&mut self, snap: &Snapshot) {
        let reason = snap
            .error
            .as_deref()
            .filter(|_| snap.state == RunState::Error && snap.compile_error.is_none());
        let Some(reason) = reason else {
            self.failure_shown = false;
            return;
        };
        if self.failure_shown {
            return;
        }
        self.failure_shown = true;
        self.ui.message = Some(format!("the session failed: {reason} (R restarts)"));
    }
}
