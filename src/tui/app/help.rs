//! Keys while the help overlay shows: j/k, arrows, PgUp/PgDn, g/G scroll it;
//! any other key closes it.

use super::App;
use crossterm::event::{KeyCode, KeyEvent};

impl App {
    pub(super) fn on_help_key(&mut self, k: KeyEvent) {
        let page = self.size.height.saturating_sub(3).max(1) as usize;
        let at =
            crate::tui::panes::help::clamp_scroll(&self.keymap, self.size, self.ui.help_scroll);
        self.ui.help_scroll = match k.code {
            KeyCode::Char('j') | KeyCode::Down => at + 1,
            KeyCode::Char('k') | KeyCode::Up => at.saturating_sub(1),
            KeyCode::PageDown | KeyCode::Char(' ') => at + page,
            KeyCode::PageUp => at.saturating_sub(page),
            KeyCode::Char('g') | KeyCode::Home => 0,
            KeyCode::Char('G') | KeyCode::End => usize::MAX / 2,
            _ => {
                self.ui.show_help = false;
                return;
            }
        };
        self.ui.help_scroll =
            crate::tui::panes::help::clamp_scroll(&self.keymap, self.size, self.ui.help_scroll);
    }
}
