//! Typing into the program: the output pane passes keys to the program's
//! terminal, as an integrated terminal does, until Esc.

use crossterm::event::KeyEvent;

use super::{App, UiEvent};
use crate::session::{Origin, SessionHandle};
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
        let (session, ui) = (self.session.clone(), self.tx.clone());
        let typing = self.typing.get_or_insert_with(|| typist(session, ui));
        let _ = typing.send(bytes);
    }
}

/// One task that passes typed keys on in the order they came: a task per
/// key would race, and `Ada` could reach the program as `Aad`.
fn typist(
    session: SessionHandle,
    ui: tokio::sync::mpsc::UnboundedSender<UiEvent>,
) -> tokio::sync::mpsc::UnboundedSender<String> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    tokio::spawn(async move {
        while let Some(bytes) = rx.recv().await {
            if let Err(e) = session.send_input(Origin::Human, bytes).await {
                let _ = ui.send(UiEvent::Message(e.to_string()));
            }
        }
    });
    tx
}
