//! Leaving: `q` asks once while the program lives (a setting turns that
//! off), and Ctrl-C pauses a running program as in gdb and pudb.

use super::App;
use crate::session::types::{Origin, RunState};
use crossterm::event::{KeyCode, KeyEvent};

impl App {
    pub(super) fn ask_quit(&mut self) {
        let alive = matches!(
            self.session.snapshot().state,
            RunState::Starting | RunState::Running | RunState::Stopped
        );
        if !alive || !self.confirm_quit {
            self.quit = true;
            return;
        }
        self.quit_pending = true;
        // An attached process is left running; a launched one ends with us.
        let what = if self.session.is_attached() {
            "detaches (the process keeps running)"
        } else {
            "quits and ends it"
        };
        self.ui.message = Some(format!(
            "the program is still alive: q or y {what}, any other key stays"
        ));
    }

    /// The answer to the question `q` asked; any key but q or y stays.
    pub(super) fn on_quit_answer(&mut self, k: KeyEvent) {
        self.quit_pending = false;
        self.quit = matches!(k.code, KeyCode::Char('q' | 'y' | 'Y'));
    }

    pub(super) fn interrupt(&mut self) {
        match self.session.snapshot().state {
            RunState::Running | RunState::Starting => {
                self.send(|s| async move { s.pause(Origin::Human).await })
            }
            _ => self.ui.message = Some("Ctrl-C pauses a running program; q quits".into()),
        }
    }
}

/// `confirm_quit = false` in ~/.config/pairdbg/config.toml quits at once.
pub(super) fn confirm_quit_setting() -> bool {
    crate::paths::config_table()
        .and_then(|t| t.get("confirm_quit").and_then(|v| v.as_bool()))
        .unwrap_or(true)
}
