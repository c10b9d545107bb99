//! Going to a line: `42G` in the source pane, `:42` in the palette, and
//! Enter on a breakpoint.

use super::App;
use crate::tui::state::Focus;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

impl App {
    /// Digits in the source pane build a count for `G`; true when the key
    /// was taken.
    pub(super) fn on_count_key(&mut self, k: &KeyEvent) -> bool {
        let plain = k.modifiers.difference(KeyModifiers::SHIFT).is_empty();
        match k.code {
            KeyCode::Char(d @ '0'..='9')
                if plain
                    && self.ui.focus == Focus::Source
                    && (d != '0' || !self.count.is_empty()) =>
            {
                self.count.push(d);
                self.ui.message = Some(format!("{}G goes to line {}", self.count, self.count));
                true
            }
            KeyCode::Char('G') if !self.count.is_empty() => {
                let line = std::mem::take(&mut self.count).parse().unwrap_or(1);
                self.go_to_line(line);
                true
            }
            _ => {
                self.count.clear();
                false
            }
        }
    }

    pub(super) fn go_to_line(&mut self, line: usize) {
        let Some(len) = self.source.as_ref().map(|f| f.lines.len()) else {
            self.ui.message = Some("no file is shown to go to a line in".into());
            return;
        };
        if line == 0 || line > len {
            self.ui.message = Some(format!("line {line} is not in this file (1 to {len})"));
            return;
        }
        self.ui.focus = Focus::Source;
        self.show_location(None, line);
    }

    /// Enter in the breakpoints pane shows the breakpoint's line.
    pub(super) fn go_to_breakpoint(&mut self) {
        use crate::tui::panes::breakpoints::{Entry, entries};
        let snap = self.session.snapshot();
        if let Some(Entry::Breakpoint(b)) = entries(&snap).get(self.ui.selected_breakpoint) {
            let line = b.bound_line.unwrap_or(b.line).max(1) as usize;
            self.show_location(Some(b.file.clone()), line);
            self.ui.focus = Focus::Source;
        }
    }
}
