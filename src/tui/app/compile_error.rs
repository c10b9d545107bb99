//! A program that did not compile: the source pane shows the bad line, and
//! the status line the error, instead of "no source".

use super::App;
use crate::session::types::{RunState, Snapshot};

impl App {
    /// Brings the compile error to the source pane once per run.
    pub(super) fn show_compile_error(&mut self, snap: &Snapshot) {
        let Some(c) = snap
            .compile_error
            .as_ref()
            .filter(|_| matches!(snap.state, RunState::Exited | RunState::Error))
        else {
            self.compile_error_shown = false;
            return;
        };
        if self.compile_error_shown {
            return;
        }
        self.compile_error_shown = true;
        self.show_location(Some(c.file.clone()), c.line as usize);
        self.ui.message = Some(format!(
            "{} ({}:{}); fix it and press R",
            c.message,
            snap.display_path(&c.file),
            c.line
        ));
    }
}
