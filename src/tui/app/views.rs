//! The views over a stop beside the panes' own: the frame's other scopes,
//! inline values, the exception's traceback, and what a restart resets.

use crossterm::event::{KeyCode, KeyEvent};

use super::{App, UiEvent};
use crate::session::autopsy::ExceptionQuery;
use crate::session::types::{Origin, RunState, Snapshot, Var};
use crate::tui::action::Action;
use crate::tui::panes::traceback::Traceback;

/// How much of an exception the traceback view reads.
const TRACEBACK: ExceptionQuery = ExceptionQuery {
    max_frames: 200,
    variables_for_frames: 0,
    max_inner: 16,
};

impl App {
    /// The selected frame's scopes beside its locals, read at each stop
    /// and frame change; shown folded below the locals.
    pub(super) fn fetch_scopes(&mut self, stop_seq: u64, frame_index: usize) {
        self.ui.scopes.clear();
        self.ask(
            move |s| async move { s.scopes(Origin::Human, frame_index).await },
            move |res| {
                res.ok().map(|names| UiEvent::Scopes {
                    stop_seq,
                    frame_index,
                    names,
                })
            },
        );
    }

    pub(super) fn scopes_read(&mut self, stop_seq: u64, frame_index: usize, names: Vec<String>) {
        if stop_seq != self.ui.followed_stop || frame_index != self.ui.selected_frame {
            return;
        }
        self.ui.scopes = names
            .into_iter()
            .map(|name| Var {
                name,
                // Any reference: a scope always opens.
                reference: 1,
                ..Default::default()
            })
            .collect();
    }

    pub(super) fn toggle_inline_values(&mut self) {
        self.ui.inline_values = !self.ui.inline_values;
        self.ui.message = Some(
            if self.ui.inline_values {
                "values in the source: on"
            } else {
                "values in the source: off"
            }
            .into(),
        );
    }

    /// Reads the exception the program stopped at and shows its traceback.
    pub(super) fn show_traceback(&mut self, snap: &Snapshot) {
        let at_exception = snap.state == RunState::Stopped
            && snap.stop.as_ref().is_some_and(|s| s.exception.is_some());
        if !at_exception {
            self.ui.message =
                Some("no traceback: the program is not stopped at an exception".into());
            return;
        }
        self.ask(
            |s| async move { s.exception_context(Origin::Human, TRACEBACK).await },
            |res| {
                Some(match res {
                    Ok(c) => UiEvent::Traceback(Box::new(Traceback::new(&c))),
                    Err(e) => UiEvent::Message(format!("cannot read the traceback: {e}")),
                })
            },
        );
    }

    /// Movement keys scroll the traceback; Esc, q and its own key close it.
    pub(super) fn on_traceback_key(&mut self, k: KeyEvent) {
        let page = self.size.height.saturating_sub(5).max(1) as i64;
        let action = self.keymap.action_for_in(&k, self.ui.focus);
        let Some(tb) = self.ui.traceback.as_mut() else {
            return;
        };
        let delta = match (k.code, action) {
            (_, Some(Action::Up)) => -1,
            (_, Some(Action::Down)) => 1,
            (_, Some(Action::PageUp)) => -page,
            (_, Some(Action::PageDown)) => page,
            (_, Some(Action::Top)) => i64::MIN / 2,
            (_, Some(Action::Bottom)) => i64::MAX / 2,
            (KeyCode::Esc, _) | (_, Some(Action::Quit | Action::Traceback)) => {
                self.ui.traceback = None;
                return;
            }
            _ => return,
        };
        tb.scroll_by(delta);
    }

    /// The wheel scrolls the traceback; a click outside it closes it.
    pub(super) fn on_traceback_mouse(&mut self, m: crossterm::event::MouseEvent) {
        use crossterm::event::MouseEventKind;
        let area = crate::tui::panes::traceback::area(self.size);
        let Some(tb) = self.ui.traceback.as_mut() else {
            return;
        };
        match m.kind {
            MouseEventKind::ScrollUp => tb.scroll_by(-3),
            MouseEventKind::ScrollDown => tb.scroll_by(3),
            MouseEventKind::Down(_) => {
                let inside = m.column >= area.x
                    && m.column < area.x + area.width
                    && m.row >= area.y
                    && m.row < area.y + area.height;
                if !inside {
                    self.ui.traceback = None;
                }
            }
            _ => {}
        }
    }

    /// A restart leaves nothing for the views to point at: selections,
    /// scrolls and open values start again.
    pub(super) fn reset_views(&mut self) {
        self.ui.selected_frame = 0;
        self.ui.selected_var = 0;
        self.ui.selected_watch = 0;
        self.ui.frame_locals = None;
        self.ui.children.clear();
        self.ui.loading.clear();
        self.ui.reopening.clear();
        self.ui.scopes.clear();
        self.ui.traceback = None;
        self.ui.threads.clear();
        self.previous = None;
        self.shown_stop = None;
    }
}
