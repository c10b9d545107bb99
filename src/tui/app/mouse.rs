//! The mouse: click to focus and select, the gutter for breakpoints, the wheel.

use super::App;
use crate::session::Origin;
use crate::tui::action::Action;
use crate::tui::panes::thread_rows;
use crate::tui::state::Focus;
use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};

impl App {
    /// Click to focus and select; a click in the source gutter toggles a
    /// breakpoint; the wheel scrolls the pane under it.
    pub(super) fn on_mouse(&mut self, m: MouseEvent) {
        if self.ui.traceback.is_some() {
            self.on_traceback_mouse(m);
            return;
        }
        if self.ui.viewer.is_some() {
            self.on_viewer_mouse(m);
            return;
        }
        let a = crate::tui::draw::layout(self.size, &self.ui);
        let hit = |r: ratatui::layout::Rect| {
            m.column >= r.x && m.column < r.x + r.width && m.row >= r.y && m.row < r.y + r.height
        };
        let on_native = hit(a.native);
        let panes = [
            (Focus::Source, a.native),
            (Focus::Source, a.source),
            (Focus::Stack, a.stack),
            (Focus::Variables, a.variables),
            (Focus::Watches, a.watches),
            (Focus::Breakpoints, a.breakpoints),
            (Focus::Output, a.output),
            (Focus::Console, a.console),
            (Focus::Activity, a.activity),
        ];
        let Some(&(pane, area)) = panes.iter().find(|(_, r)| hit(*r)) else {
            return;
        };
        // Rows inside the border.
        let row = (m.row as usize).saturating_sub(area.y as usize + 1);
        match m.kind {
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown => {
                let up = matches!(m.kind, MouseEventKind::ScrollUp);
                let old = self.ui.focus;
                self.ui.focus = pane;
                if on_native {
                    let page = crate::tui::layout::native_rows(self.size, &self.ui).max(1);
                    self.scroll_native(if up { -3 } else { 3 }, page);
                } else if pane == Focus::Source {
                    self.ui.scroll = if up {
                        self.ui.scroll.saturating_sub(3).max(1)
                    } else {
                        self.ui.scroll + 3
                    };
                } else {
                    for _ in 0..3 {
                        let snap = self.session.snapshot();
                        self.move_cursor(if up { Action::Up } else { Action::Down }, &snap);
                    }
                }
                self.ui.focus = old;
            }
            MouseEventKind::Down(MouseButton::Left) => {
                self.ui.focus = pane;
                let snap = self.session.snapshot();
                match pane {
                    // The native views have no cursor: a click only focuses.
                    Focus::Source if on_native => {}
                    Focus::Source => {
                        self.ui.cursor = self.ui.scroll + row;
                        // The gutter: the border, then the breakpoint column.
                        if (m.column as usize) <= area.x as usize + 1 {
                            self.toggle_breakpoint(&snap);
                        }
                    }
                    Focus::Stack => {
                        let n = snap.stop.as_ref().map(|s| s.frames.len()).unwrap_or(0);
                        let rows = area.height.saturating_sub(2);
                        let used = thread_rows::rows_used(&self.ui, rows);
                        if row < used {
                            let column = (m.column as usize).saturating_sub(area.x as usize + 1);
                            let width = area.width.saturating_sub(2) as usize;
                            let shown = snap
                                .stop
                                .as_ref()
                                .map_or((None, 0), |s| (s.child, s.thread_id));
                            if let Some((child, id)) =
                                thread_rows::thread_at(&self.ui, shown, (width, rows), row, column)
                                && (child, id) != shown
                            {
                                self.send(move |s| async move {
                                    s.select_thread_in(Origin::Human, child, id).await
                                });
                            }
                            return;
                        }
                        let row = row - used;
                        let rows = rows - used as u16;
                        let start = crate::tui::panes::window_start(
                            self.ui.selected_frame,
                            rows as usize,
                            n,
                        );
                        if start + row < n {
                            let changed = self.ui.selected_frame != start + row;
                            self.ui.selected_frame = start + row;
                            if changed {
                                self.frame_changed(snap.stop_seq);
                            }
                            if let Some(fr) =
                                snap.stop.as_ref().and_then(|s| s.frames.get(start + row))
                            {
                                self.show_location(fr.file.clone(), fr.line as usize);
                            }
                        }
                    }
                    Focus::Variables => self.ui.selected_var = row,
                    Focus::Watches => self.ui.selected_watch = row,
                    Focus::Breakpoints => {
                        use crate::tui::panes::breakpoints::{Entry, entries};
                        let all = entries(&snap);
                        let start = crate::tui::panes::window_start(
                            self.ui.selected_breakpoint,
                            area.height.saturating_sub(2) as usize,
                            all.len(),
                        );
                        if let Some(entry) = all.get(start + row) {
                            self.ui.selected_breakpoint = start + row;
                            if let Entry::Breakpoint(b) = entry {
                                self.show_location(Some(b.file.clone()), b.line as usize);
                            }
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
}
