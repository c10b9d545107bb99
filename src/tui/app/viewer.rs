//! The value viewer from the variables and watch panes: the value shown at
//! once as stored, then read again whole by its expression.

use crossterm::event::{KeyCode, KeyEvent};

use super::{App, UiEvent};
use crate::session::types::{Origin, Snapshot, Var};
use crate::tui::action::Action;
use crate::tui::state::{Focus, Prompt};
use crate::tui::viewer::Viewer;

/// The value a pane's selected row stands for: its title, the expression
/// that reads it again, the frame it belongs to, and the value as stored.
pub(super) struct Selected {
    pub title: String,
    pub expression: Option<String>,
    pub frame: usize,
    pub var: Var,
}

impl App {
    /// The selected value of the variables or watch pane; a status line
    /// saying why there is none.
    pub(super) fn selected_value(&mut self, snap: &Snapshot) -> Option<Selected> {
        match self.ui.focus {
            Focus::Variables => {
                let stop = snap.stop.as_ref()?;
                let rows = crate::tui::panes::variables::tree(&self.ui, stop);
                let row = rows.get(self.ui.selected_var)?;
                if row.gap.is_some() || row.is_scope() {
                    self.ui.message = Some("select a value, not a scope or a gap".into());
                    return None;
                }
                Some(Selected {
                    title: row.var.evaluate_name.clone().unwrap_or(row.path.clone()),
                    expression: row.var.evaluate_name.clone(),
                    frame: self.ui.selected_frame,
                    var: row.var.clone(),
                })
            }
            Focus::Watches => {
                let w = snap.watches.get(self.ui.selected_watch)?;
                let var = match &w.value {
                    Ok(v) => v.clone(),
                    Err(e) => Var::not_read(&w.expression, e.clone()),
                };
                Some(Selected {
                    title: w.expression.clone(),
                    expression: Some(w.expression.clone()),
                    frame: 0,
                    var,
                })
            }
            _ => {
                self.ui.message = Some("select a value in the variables or watch pane".into());
                None
            }
        }
    }

    /// Opens the viewer on the selected value and reads it whole.
    pub(super) fn open_viewer(&mut self, snap: &Snapshot) {
        let Some(sel) = self.selected_value(snap) else {
            return;
        };
        let Some(expression) = sel.expression else {
            let note = "shown as stored: the adapter gives no expression to read it whole by";
            self.ui.viewer = Some(Viewer::new(&sel.title, &sel.var, Some(note.into())));
            return;
        };
        self.ui.viewer = Some(Viewer::new(
            &sel.title,
            &sel.var,
            Some("reading the whole value…".into()),
        ));
        let (title, frame, stop_seq) = (sel.title, sel.frame, self.ui.followed_stop);
        self.ask(
            move |s| async move {
                s.evaluate_value(Origin::Human, expression, frame, true)
                    .await
            },
            move |res| {
                Some(UiEvent::Update(Box::new(move |app: &mut App| {
                    // A value of an earlier stop is not shown as the current one.
                    let current = app.ui.followed_stop == stop_seq;
                    let Some(v) = app
                        .ui
                        .viewer
                        .as_mut()
                        .filter(|v| v.title == title && current)
                    else {
                        return;
                    };
                    match res {
                        Ok(var) => v.read_whole(&var),
                        Err(e) => v.note = Some(format!("shown as stored, not read whole: {e}")),
                    }
                })))
            },
        );
    }

    /// Movement keys scroll the viewer, `/` finds, `n` finds on, Esc closes.
    pub(super) fn on_viewer_key(&mut self, k: KeyEvent) {
        let (width, height) = crate::tui::panes::viewer::text_size(self.size);
        let page = height.max(1) as i64;
        let action = self.keymap.action_for_in(&k, self.ui.focus);
        let Some(v) = self.ui.viewer.as_mut() else {
            return;
        };
        let delta = match (k.code, action) {
            (KeyCode::Esc | KeyCode::Char('q'), _) => {
                self.ui.viewer = None;
                return;
            }
            (KeyCode::Char('/'), _) => {
                self.ui.input.reset();
                self.ui.typing = Some(Prompt::ViewerSearch);
                return;
            }
            (KeyCode::Char('n'), _) => {
                self.find_in_viewer(None);
                return;
            }
            (_, Some(Action::Up)) => -1,
            (_, Some(Action::Down)) => 1,
            (_, Some(Action::PageUp)) => -page,
            (_, Some(Action::PageDown)) => page,
            (_, Some(Action::Top)) => i64::MIN / 2,
            (_, Some(Action::Bottom)) => i64::MAX / 2,
            _ => return,
        };
        v.scroll_by(delta, width, height);
    }

    /// Finds `query` (None: the last one again) after the current match.
    pub(super) fn find_in_viewer(&mut self, query: Option<String>) {
        let (width, height) = crate::tui::panes::viewer::text_size(self.size);
        let Some(v) = self.ui.viewer.as_mut() else {
            return;
        };
        if let Some(q) = query.filter(|q| !q.is_empty()) {
            v.query = q;
            v.current = None;
        }
        if v.query.is_empty() {
            self.ui.message = Some("/ finds text in the value".into());
            return;
        }
        if !v.find_next(width, height) {
            self.ui.message = Some(format!("{:?} is not in the value", v.query));
        }
    }

    /// The wheel scrolls the viewer; a click outside it closes it.
    pub(super) fn on_viewer_mouse(&mut self, m: crossterm::event::MouseEvent) {
        use crossterm::event::MouseEventKind;
        let (width, height) = crate::tui::panes::viewer::text_size(self.size);
        let area = crate::tui::panes::traceback::area(self.size);
        let Some(v) = self.ui.viewer.as_mut() else {
            return;
        };
        match m.kind {
            MouseEventKind::ScrollUp => v.scroll_by(-3, width, height),
            MouseEventKind::ScrollDown => v.scroll_by(3, width, height),
            MouseEventKind::Down(_) => {
                let inside = m.column >= area.x
                    && m.column < area.x + area.width
                    && m.row >= area.y
                    && m.row < area.y + area.height;
                if !inside {
                    self.ui.viewer = None;
                }
            }
            _ => {}
        }
    }
}
