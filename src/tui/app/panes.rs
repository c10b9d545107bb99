//! Actions on the selection of the variables and breakpoints panes.

use super::{App, UiEvent, copy_to_clipboard};
use crate::session::types::Snapshot;
use crate::session::{BreakpointSelector, BreakpointUpdate, Origin, VariablesQuery};
use crate::tui::action::Action;
use crate::tui::panes::variables::{SCOPE_MARK, split_scope};
use crate::tui::state::{Focus, Prompt, UiState};

impl App {
    /// The variables pane's own keys act on its selected row.
    pub(super) fn variable_action(&mut self, action: Action, snap: &Snapshot) {
        if self.ui.focus != Focus::Variables {
            return;
        }
        let Some(stop) = snap.stop.as_ref() else {
            return;
        };
        let rows = crate::tui::panes::variables::tree(&self.ui, stop);
        let Some(row) = rows.get(self.ui.selected_var) else {
            return;
        };
        if let Some((_, later)) = row.gap {
            if action == Action::Expand {
                let path = row.path.clone();
                self.read_gap(path, later, snap.stop_seq);
            }
            return;
        }
        let (path, expandable, expanded) = (row.path.clone(), row.var.reference > 0, row.expanded);
        match action {
            Action::Expand if expandable && !expanded => self.open_value(path, snap.stop_seq),
            // A leaf has nothing to open: Enter shows it whole.
            Action::Expand if !expandable => self.open_viewer(snap),
            Action::Expand | Action::Collapse if expanded => self.collapse(&path),
            Action::CopyValue => {
                let text = row.var.value.clone();
                copy_to_clipboard(&text);
                self.ui.message = Some(format!("copied {} characters", text.chars().count()));
            }
            Action::SetValue if row.is_scope() || path.starts_with(SCOPE_MARK) => {
                self.ui.message = Some("values are set among the locals".into());
            }
            Action::SetValue => {
                // Start from the current value, as VS Code's Set Value does.
                self.ui.input = tui_input::Input::new(row.var.value.clone());
                self.ui.value_path = path;
                self.ui.typing = Some(Prompt::SetValue);
            }
            _ => {}
        }
    }

    /// Reads `count` children of `path` from index `start`; the answer is
    /// joined to the ones already read when it borders them.
    pub(super) fn fetch_children(&self, path: String, stop_seq: u64, start: usize, count: usize) {
        // A scope's rows are read by the scope's name, not as locals.
        let (scope, inner) = match split_scope(&path) {
            Some((scope, inner)) => (Some(scope.to_string()), inner.map(str::to_string)),
            None => (None, Some(path.clone())),
        };
        let q = VariablesQuery {
            frame_index: self.ui.selected_frame,
            scope,
            path: inner,
            filter: None,
            start,
            count,
        };
        self.ask(
            move |s| async move { s.variables(Origin::Human, q).await },
            move |res| {
                let result = res.map_err(super::loading::ReadFailed::from);
                Some(UiEvent::Children {
                    stop_seq,
                    path,
                    start,
                    result,
                })
            },
        );
    }

    /// A new frame is selected: its locals are read, and the tree's paths,
    /// which belong to the old frame, are dropped.
    pub(super) fn frame_changed(&mut self, stop_seq: u64) {
        self.ui.children.clear();
        self.ui.loading.clear();
        self.ui.reopening.clear();
        self.ui.pages.clear();
        self.ui.selected_var = 0;
        self.ui.frame_locals = None;
        self.native_frame_changed(stop_seq);
        let frame_index = self.ui.selected_frame;
        self.fetch_scopes(stop_seq, frame_index);
        if frame_index == 0 {
            let snap = self.session.snapshot();
            if let Some(stop) = snap.stop.as_ref() {
                self.read_top_locals(stop, stop_seq);
            }
            return;
        }
        self.read_frame_locals(stop_seq, frame_index);
    }

    /// The top frame's locals come with the stop, but only the first few
    /// with the children their previews need: past those, they are read
    /// again as any other frame's, so a value reads the same in every frame.
    pub(super) fn read_top_locals(&self, stop: &crate::session::types::StopInfo, stop_seq: u64) {
        let containers = stop.locals.iter().filter(|v| v.reference > 0).count();
        if containers > crate::session::fetch::PREVIEW_LOCALS {
            self.read_frame_locals(stop_seq, 0);
        }
    }

    fn read_frame_locals(&self, stop_seq: u64, frame_index: usize) {
        let q = VariablesQuery {
            frame_index,
            scope: None,
            path: None,
            filter: None,
            start: 0,
            count: crate::tui::panes::variables::PAGE,
        };
        self.ask(
            move |s| async move { s.variables(Origin::Human, q).await },
            move |res| match res {
                Ok((vars, _)) => Some(UiEvent::FrameLocals {
                    stop_seq,
                    frame_index,
                    vars,
                }),
                Err(_) => None,
            },
        );
    }

    pub(super) fn update_breakpoint(&self, update: BreakpointUpdate) {
        self.send(move |s| async move { s.update_breakpoint(Origin::Human, update).await });
    }

    pub(super) fn collapse(&mut self, path: &str) {
        let nested = format!("{path}.");
        self.ui
            .children
            .retain(|k, _| k != path && !k.starts_with(&nested));
        self.ui
            .pages
            .retain(|k, _| k != path && !k.starts_with(&nested));
    }

    /// The breakpoints pane's own keys act on its selected breakpoint.
    pub(super) fn breakpoint_action(&mut self, action: Action, snap: &Snapshot) {
        if self.ui.focus != Focus::Breakpoints {
            return;
        }
        use crate::tui::panes::breakpoints::{Entry, entries};
        let b = match entries(snap).get(self.ui.selected_breakpoint) {
            Some(Entry::Breakpoint(b)) => (*b).clone(),
            Some(Entry::DataWatch(expression)) => {
                if action == Action::DeleteBreakpoint {
                    self.stop_watching(expression.to_string());
                }
                return;
            }
            Some(Entry::Filter { id, on, .. }) => {
                // Space turns an exception filter on or off; nothing else applies.
                if action == Action::ToggleEnabled {
                    let mut filters: Vec<String> = snap
                        .exception_filters
                        .iter()
                        .filter(|f| f.as_str() != *id)
                        .cloned()
                        .collect();
                    if !on {
                        filters.push(id.to_string());
                    }
                    self.send(move |s| async move {
                        s.set_exception_filters(Origin::Human, filters).await
                    });
                }
                return;
            }
            None => return,
        };
        let prompt = |p: Prompt, current: &Option<String>, ui: &mut UiState| {
            ui.typing = Some(p);
            ui.input = tui_input::Input::new(current.clone().unwrap_or_default());
        };
        match action {
            Action::ToggleEnabled => self.update_breakpoint(BreakpointUpdate {
                id: b.id,
                enabled: Some(!b.enabled),
                ..Default::default()
            }),
            Action::DeleteBreakpoint => {
                let id = b.id;
                self.send(move |s| async move {
                    s.remove_breakpoint(Origin::Human, BreakpointSelector::Id(id))
                        .await
                })
            }
            Action::EditCondition => prompt(Prompt::Condition(b.id), &b.condition, &mut self.ui),
            Action::EditHitCount => prompt(Prompt::HitCount(b.id), &b.hit_condition, &mut self.ui),
            Action::EditLogMessage => {
                prompt(Prompt::LogMessage(b.id), &b.log_message, &mut self.ui)
            }
            _ => {}
        }
    }
}
