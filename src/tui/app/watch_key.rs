//! The watchpoint key: the program stops when the selected variable is
//! written, through the engine's data breakpoint; the key again removes it.

use super::{App, UiEvent};
use crate::session::types::{Origin, Snapshot};
use crate::tui::state::Focus;

impl App {
    pub(super) fn toggle_data_watch(&mut self, snap: &Snapshot) {
        if self.ui.focus != Focus::Variables {
            self.ui.message = Some("W watches a variable of the variables pane".into());
            return;
        }
        let Some(sel) = self.selected_value(snap) else {
            return;
        };
        let expression = sel.expression.unwrap_or(sel.title);
        if snap.data_watch.as_deref() == Some(expression.as_str()) {
            return self.stop_watching(expression);
        }
        let asked = expression.clone();
        self.ask(
            move |s| async move { s.watch_data(Origin::Human, Some(asked)).await },
            move |res| {
                Some(UiEvent::Message(match res {
                    Ok(_) => {
                        format!("the program stops when {expression} is written (W again: no more)")
                    }
                    Err(e) => format!("cannot watch {expression}: {e}"),
                }))
            },
        );
    }

    pub(super) fn stop_watching(&mut self, expression: String) {
        self.ask(
            |s| async move { s.watch_data(Origin::Human, None).await },
            move |res| {
                Some(UiEvent::Message(match res {
                    Ok(_) => format!("writes to {expression} no longer stop the program"),
                    Err(e) => format!("cannot stop watching {expression}: {e}"),
                }))
            },
        );
    }
}
