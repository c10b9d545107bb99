//! Typing into the program: the output pane passes keys to the program's
//! terminal, as an integrated terminal does, until Esc.

use crossterm::event::KeyEvent;

use super::App;
use crate::session::Origin;
use crate::tui::state::Focus;
use crate::tui::terminal_keys::key_bytes;

impl App {
    pub(super) fn type_to_program(&mut self) {
        self.ui.focus = Focus::Output;
        self.ui.typing_to_program = true;
        self.ui.output_scroll_from_end = 0;
    }

    pub(super) fn on_program_key(&mut self, k: KeyEvent) {
        if k.code == crossterm::event::KeyCode::Esc {
            self.ui.typing_to_program = false;
            return;
        }
        let Some(bytes) = key_bytes(&k) else {
            return;
        };
        self.ui.output_scroll_from_end = 0;
        self.send(move |s| async move { s.send_input(Origin::Human, bytes).await });
    }
}
