//! Keys: actions from the keymap, and moving within the focused pane.

use super::App;
use crate::session::recording::BackMove;
use crate::session::types::Snapshot;
use crate::session::{BreakpointRequest, ControlMode};
use crate::session::{BreakpointSelector, Origin, StepKind};
use crate::tui::action::Action;
use crate::tui::draw::{pane_rows, source_rows};
use crate::tui::state::{Focus, Prompt};
use crossterm::event::KeyEvent;

impl App {
    pub(super) fn on_key(&mut self, k: KeyEvent) {
        self.ui.message = None;
        if let Some(request) = self.registry.approvals().pending() {
            self.on_approval_key(request, k);
            return;
        }
        if self.ui.typing_to_program {
            self.on_program_key(k);
            return;
        }
        if let Some(prompt) = self.ui.typing {
            self.on_prompt_key(prompt, k);
            return;
        }
        if self.quit_pending {
            self.on_quit_answer(k);
            return;
        }
        if self.ui.viewer.is_some() {
            self.on_viewer_key(k);
            return;
        }
        if self.ui.traceback.is_some() {
            self.on_traceback_key(k);
            return;
        }
        if self.ui.show_help {
            self.on_help_key(k);
            return;
        }
        if self.ui.show_messages {
            self.ui.show_messages = false;
            return;
        }
        if self.stops.browsing() {
            self.on_history_key(k);
            return;
        }
        if self.ui.palette.is_some() {
            self.on_palette_key(k);
            return;
        }
        if self.ui.picker.is_some() {
            self.on_picker_key(k);
            return;
        }
        if self.on_loading_key(&k) {
            return;
        }
        if self.on_count_key(&k) {
            return;
        }
        let Some(action) = self.keymap.action_for_in(&k, self.ui.focus) else {
            return;
        };
        self.apply(action);
    }

    pub fn apply(&mut self, action: Action) {
        let snap = self.session.snapshot();
        match action {
            Action::Continue => self.send(|s| async move { s.resume(Origin::Human).await }),
            Action::StepOver => self.step(StepKind::Over),
            Action::StepInto => self.step(StepKind::Into),
            Action::StepOut => self.step(StepKind::Out),
            Action::Record => {
                let on = !snap.recording.is_on();
                self.send(move |s| async move { s.record(Origin::Human, on, None).await });
            }
            Action::BackOver => self.back(BackMove::Over),
            Action::BackInto => self.back(BackMove::Into),
            Action::BackOut => self.back(BackMove::Out),
            Action::ContinueBack => self.back(BackMove::Continue),
            Action::Pause => self.send(|s| async move { s.pause(Origin::Human).await }),
            Action::Interrupt => self.interrupt(),
            Action::GoToBreakpoint => self.go_to_breakpoint(),
            Action::Messages => self.ui.show_messages = true,
            Action::StopHistory | Action::HistoryBack => self.enter_history(-1),
            Action::HistoryForward => self.enter_history(0),
            Action::GoToIndex => self.ask_index(&snap),
            Action::ScrollLeft => self.ui.hscroll = self.ui.hscroll.saturating_sub(8),
            Action::ScrollRight => self.ui.hscroll += 8,
            Action::NextThread => self.next_thread(),
            Action::NextSession => self.next_session(),
            Action::Restart => {
                self.reset_views();
                self.send(|s| async move { s.restart(Origin::Human).await })
            }
            Action::RunToCursor => {
                if let Some(f) = &self.ui.file {
                    let (file, line) = (f.display().to_string(), self.ui.cursor as i64);
                    self.send(move |s| async move { s.run_to(Origin::Human, file, line).await });
                }
            }
            Action::ToggleBreakpoint => self.toggle_breakpoint(&snap),
            Action::Quit => self.ask_quit(),
            Action::Help => {
                self.ui.show_help = true;
                self.ui.help_scroll = 0;
            }
            Action::FocusNext => {
                self.ui.focus = self.ui.focus.next(false);
                self.ui.zoomed = self.ui.zoomed.map(|_| self.ui.focus);
            }
            Action::FocusPrev => {
                self.ui.focus = self.ui.focus.next(true);
                self.ui.zoomed = self.ui.zoomed.map(|_| self.ui.focus);
            }
            Action::Evaluate => {
                self.ui.typing = Some(Prompt::Evaluate);
                self.ui.focus = Focus::Console;
            }
            Action::ToggleControl => {
                let next = match self.session.control_mode() {
                    ControlMode::Shared => ControlMode::HumanOnly,
                    ControlMode::HumanOnly => ControlMode::Shared,
                };
                self.send(move |s| async move { s.set_control(Origin::Human, next).await });
                self.ui.message = Some(match next {
                    ControlMode::HumanOnly => {
                        "you drive; the agent can only read (T hands back)".into()
                    }
                    ControlMode::Shared => "the agent may drive again".into(),
                });
            }
            Action::ToggleApproval => self.toggle_approval(),
            Action::Disassembly => self.toggle_disassembly(),
            Action::Memory => {
                if self.native_refused("the memory view", |n| n.read_memory) {
                    return;
                }
                // On a variable: where it points, read without asking.
                if self.ui.focus == Focus::Variables
                    && let Some(sel) = self.selected_value(&snap)
                {
                    return self.open_memory(sel.expression.unwrap_or(sel.title));
                }
                self.ui.typing = Some(Prompt::Memory);
                self.ui.focus = Focus::Console;
            }
            Action::CloseView => self.close_native_view(),
            Action::InlineValues => self.toggle_inline_values(),
            Action::Traceback => self.show_traceback(&snap),
            Action::ViewValue => self.open_viewer(&snap),
            Action::CycleFormat => self.cycle_format(&snap),
            Action::WatchWrites => self.toggle_data_watch(&snap),
            Action::TypeToProgram => self.type_to_program(),
            Action::Palette => self.ui.palette = Some((String::new(), 0)),
            Action::Search => {
                self.ui.typing = Some(Prompt::Search);
                self.ui.focus = Focus::Source;
            }
            Action::OpenFile => {
                if self.ui.files.is_empty() {
                    self.ui.files = crate::tui::picker::workspace_files(&self.ui.workspace, 20_000);
                }
                self.ui.picker = Some((String::new(), 0));
            }
            Action::Expand | Action::Collapse | Action::CopyValue | Action::SetValue => {
                self.variable_action(action, &snap)
            }
            Action::ToggleEnabled
            | Action::DeleteBreakpoint
            | Action::EditCondition
            | Action::EditHitCount
            | Action::EditLogMessage => self.breakpoint_action(action, &snap),
            Action::Zoom => {
                self.ui.zoomed = match self.ui.zoomed {
                    Some(_) => None,
                    None => Some(self.ui.focus),
                };
                self.keep_cursor_visible();
            }
            Action::Note => {
                self.ui.typing = Some(Prompt::Note);
                self.ui.focus = Focus::Console;
            }
            Action::AddWatch => {
                self.ui.typing = Some(Prompt::AddWatch);
                self.ui.focus = Focus::Console;
            }
            Action::EditWatch => {
                if self.ui.focus == Focus::Watches
                    && let Some(w) = snap.watches.get(self.ui.selected_watch)
                {
                    self.ui.input = tui_input::Input::new(w.expression.clone());
                    self.ui.typing = Some(Prompt::EditWatch(self.ui.selected_watch));
                }
            }
            Action::RemoveWatch => {
                if let Some(w) = snap.watches.get(self.ui.selected_watch) {
                    let remove = vec![w.expression.clone()];
                    self.send(move |s| async move { s.watch(Origin::Human, vec![], remove).await });
                }
            }
            Action::Up
            | Action::Down
            | Action::PageUp
            | Action::PageDown
            | Action::Top
            | Action::Bottom => self.move_cursor(action, &snap),
        }
    }

    pub(super) fn move_cursor(&mut self, action: Action, snap: &Snapshot) {
        // Each pane pages by its own height.
        let page = pane_rows(self.size, &self.ui, self.ui.focus).max(1);
        let delta: i64 = match action {
            Action::Up => -1,
            Action::Down => 1,
            Action::PageUp => -(page as i64),
            Action::PageDown => page as i64,
            Action::Top => i64::MIN / 2,
            _ => i64::MAX / 2,
        };
        let clamp = |v: usize, d: i64, len: usize| -> usize {
            (v as i64)
                .saturating_add(d)
                .clamp(0, len.saturating_sub(1) as i64) as usize
        };
        let stop = snap.stop.as_ref();
        match self.ui.focus {
            Focus::Source if self.ui.native.shown() => self.scroll_native(delta, page),
            Focus::Source => {
                let len = self.source.as_ref().map(|f| f.lines.len()).unwrap_or(1);
                self.ui.cursor = clamp(self.ui.cursor - 1, delta, len) + 1;
                let page = source_rows(self.size, &self.ui).max(1);
                if self.ui.cursor < self.ui.scroll {
                    self.ui.scroll = self.ui.cursor;
                } else if self.ui.cursor >= self.ui.scroll + page {
                    self.ui.scroll = self.ui.cursor + 1 - page;
                }
            }
            Focus::Breakpoints => {
                use crate::tui::panes::breakpoints::{Entry, entries};
                let all = entries(snap);
                self.ui.selected_breakpoint = clamp(self.ui.selected_breakpoint, delta, all.len());
                if let Some(Entry::Breakpoint(b)) = all.get(self.ui.selected_breakpoint) {
                    self.show_location(Some(b.file.clone()), b.line as usize);
                }
            }
            Focus::Stack => {
                let n = stop.map(|s| s.frames.len()).unwrap_or(0);
                let before = self.ui.selected_frame;
                self.ui.selected_frame = clamp(self.ui.selected_frame, delta, n);
                if before != self.ui.selected_frame {
                    self.frame_changed(snap.stop_seq);
                }
                if let Some(fr) = stop.and_then(|s| s.frames.get(self.ui.selected_frame)) {
                    self.show_location(fr.file.clone(), fr.line as usize);
                }
            }
            Focus::Variables => {
                let n = stop
                    .map(|s| crate::tui::panes::variables::tree(&self.ui, s).len())
                    .unwrap_or(0);
                self.ui.selected_var = clamp(self.ui.selected_var, delta, n);
            }
            Focus::Watches => {
                self.ui.selected_watch = clamp(self.ui.selected_watch, delta, snap.watches.len())
            }
            Focus::Output => {
                // The window ends where the last line shows; output_window
                // clamps the top.
                let top = self.output.total().saturating_sub(page);
                self.ui.output_scroll_from_end =
                    clamp(self.ui.output_scroll_from_end, -delta, top + 1);
            }
            Focus::Console | Focus::Activity => {}
        }
    }

    pub(super) fn toggle_breakpoint(&mut self, snap: &Snapshot) {
        let Some(file) = self.ui.file.clone() else {
            return;
        };
        let line = self.ui.cursor as i64;
        let exists = snap.breakpoints.iter().any(|b| {
            b.file == file
                && (b.line as i64 == line || b.bound_line.map(|l| l as i64) == Some(line))
        });
        let path = file.display().to_string();
        if exists {
            let at = BreakpointSelector::Location { file: path, line };
            self.send(move |s| async move { s.remove_breakpoint(Origin::Human, at).await });
        } else {
            let request = BreakpointRequest {
                file: path,
                line,
                ..Default::default()
            };
            self.set_breakpoint_here(request);
        }
    }
}

impl App {
    /// Shows the thread after the shown one, wrapping; the engine reads its
    /// stack and steps then move it.
    fn next_thread(&mut self) {
        let snap = self.session.snapshot();
        let Some(shown) = snap.stop.as_ref().map(|s| (s.child, s.thread_id)) else {
            self.ui.message = Some("threads can be switched only while stopped".into());
            return;
        };
        let ids: Vec<(Option<u32>, i64)> =
            self.ui.threads.iter().map(|t| (t.child, t.id)).collect();
        if ids.len() < 2 {
            self.ui.message = Some("the program has one thread".into());
            return;
        }
        let at = ids.iter().position(|id| *id == shown).unwrap_or(0);
        let (child, next) = ids[(at + 1) % ids.len()];
        self.send(move |s| async move { s.select_thread_in(Origin::Human, child, next).await });
    }

    /// Shows the session after the shown one, wrapping: after following a
    /// program the agent launched, the person can go back to theirs.
    fn next_session(&mut self) {
        let (sessions, _) = self.registry.list();
        if sessions.len() < 2 {
            self.ui.message = Some("there is one session".into());
            return;
        }
        let at = sessions
            .iter()
            .position(|s| s.id == self.session.id)
            .unwrap_or(0);
        let next = &sessions[(at + 1) % sessions.len()];
        if let Err(e) = self.registry.set_current(&next.id) {
            self.ui.message = Some(e.to_string());
        }
    }
}

impl super::App {
    /// A move back; where the session cannot go back, the reason shows.
    fn back(&mut self, mv: BackMove) {
        if let Err(why) = self.session.snapshot().recording.can_step_back() {
            self.ui.message = Some(format!("cannot go back: {why} (C-r records)"));
            return;
        }
        self.send(move |s| async move { s.step_back(Origin::Human, mv).await });
    }
}
