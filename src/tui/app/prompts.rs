//! The one-line prompts, the command palette and the file picker.

use super::{App, UiEvent};
use crate::session::{BreakpointUpdate, Origin};
use crate::tui::state::{ConsoleEntry, Focus, Prompt};
use crate::viewport::ViewportConfig;
use crate::viewport::value::render as render_value;
use crossterm::event::{KeyCode, KeyEvent};

impl App {
    pub(super) fn on_picker_key(&mut self, k: KeyEvent) {
        let Some((query, selected)) = self.ui.picker.as_mut() else {
            return;
        };
        let n = crate::tui::picker::filter(&self.ui.files, &self.ui.workspace, query).len();
        match list_key(query, selected, n, k.code) {
            ListKey::Close => self.ui.picker = None,
            ListKey::Choose(i) => {
                let chosen = crate::tui::picker::filter(&self.ui.files, &self.ui.workspace, query)
                    .get(i)
                    .map(|p| (*p).clone());
                self.ui.picker = None;
                if let Some(p) = chosen {
                    self.show_location(Some(p), 1);
                    self.ui.focus = Focus::Source;
                }
            }
            ListKey::Edited => {}
        }
    }

    pub(super) fn search(&mut self, query: String) {
        let query = if query.is_empty() {
            self.ui.last_search.clone()
        } else {
            query
        };
        let Some(file) = self.source.clone() else {
            return;
        };
        match crate::tui::picker::find_line(&file.lines, self.ui.cursor, &query) {
            Some(line) => {
                self.show_location(None, line);
                self.ui.message = None;
            }
            None => self.ui.message = Some(format!("{query:?} is not in this file")),
        }
        self.ui.last_search = query;
    }

    pub(super) fn on_palette_key(&mut self, k: KeyEvent) {
        let Some((query, selected)) = self.ui.palette.as_mut() else {
            return;
        };
        let n = crate::tui::panes::palette::matches(&self.keymap, query).len();
        match list_key(query, selected, n, k.code) {
            ListKey::Close => self.ui.palette = None,
            ListKey::Choose(_) if crate::tui::panes::palette::line_query(query).is_some() => {
                let line = crate::tui::panes::palette::line_query(query).unwrap_or(1);
                self.ui.palette = None;
                self.go_to_line(line);
            }
            ListKey::Choose(i) => {
                let chosen = crate::tui::panes::palette::matches(&self.keymap, query)
                    .get(i)
                    .map(|(a, _)| *a);
                self.ui.palette = None;
                if let Some(a) = chosen {
                    self.apply(a);
                }
            }
            ListKey::Edited => {}
        }
    }

    pub(super) fn on_prompt_key(&mut self, prompt: Prompt, k: KeyEvent) {
        // Ctrl-C leaves a prompt as in a shell.
        let ctrl_c = k.code == KeyCode::Char('c')
            && k.modifiers
                .contains(crossterm::event::KeyModifiers::CONTROL);
        match k.code {
            _ if ctrl_c => {
                self.ui.typing = None;
                self.ui.input.reset();
                self.history.leave();
            }
            KeyCode::Esc => {
                self.ui.typing = None;
                self.ui.input.reset();
                self.history.leave();
            }
            KeyCode::Enter => {
                let text = self.ui.input.value_and_reset();
                self.ui.typing = None;
                self.history.record(prompt, &text);
                self.submit(prompt, text);
            }
            KeyCode::Up | KeyCode::Down => {
                let back = k.code == KeyCode::Up;
                if let Some(text) = self.history.recall(prompt, back) {
                    self.ui.input = tui_input::Input::new(text);
                }
            }
            // Shell editing (Ctrl-A, Ctrl-E, Ctrl-U, Ctrl-W, arrows, Home,
            // End) comes from the line-editor crate.
            _ => {
                let event = crossterm::event::Event::Key(k);
                if let Some(req) = tui_input::backend::crossterm::to_input_request(&event) {
                    self.ui.input.handle(req);
                }
            }
        }
    }

    fn submit(&mut self, prompt: Prompt, text: String) {
        // An empty field clears a breakpoint's condition; elsewhere it is nothing.
        if prompt == Prompt::Search {
            self.search(text);
            return;
        }
        if prompt == Prompt::ViewerSearch {
            self.find_in_viewer(Some(text));
            return;
        }
        let edits_breakpoint = matches!(
            prompt,
            Prompt::Condition(_) | Prompt::HitCount(_) | Prompt::LogMessage(_)
        );
        if text.trim().is_empty() && !edits_breakpoint {
            return;
        }
        match prompt {
            Prompt::Search | Prompt::ViewerSearch => {}
            Prompt::GoToIndex => self.go_to_index(&text),
            Prompt::Memory => self.open_memory(text),
            Prompt::EditWatch(i) => {
                let snap = self.session.snapshot();
                let old: Vec<String> = snap
                    .watches
                    .get(i)
                    .map(|w| w.expression.clone())
                    .into_iter()
                    .collect();
                self.send(move |s| async move { s.watch(Origin::Human, vec![text], old).await });
            }
            Prompt::Condition(id) => self.edit_condition(id, text),
            Prompt::HitCount(id) => self.update_breakpoint(BreakpointUpdate {
                id,
                hit_condition: Some(text),
                ..Default::default()
            }),
            Prompt::LogMessage(id) => self.update_breakpoint(BreakpointUpdate {
                id,
                log_message: Some(text),
                ..Default::default()
            }),
            Prompt::Evaluate => self.evaluate(text),
            Prompt::SetValue => {
                let path = std::mem::take(&mut self.ui.value_path);
                let frame = self.ui.selected_frame;
                self.send(
                    move |s| async move { s.set_variable(Origin::Human, path, text, frame).await },
                )
            }
            Prompt::AddWatch => {
                self.send(move |s| async move { s.watch(Origin::Human, vec![text], vec![]).await })
            }
            Prompt::Note => {
                self.send(move |s| async move { s.note(Origin::Human, text).await });
                self.ui.message = Some("note sent: the agent sees it in its next result".into());
            }
        }
    }

    /// A condition that does not compile is refused: the status line says
    /// why and the edit stays open with the text as typed.
    fn edit_condition(&self, id: u64, text: String) {
        let update = BreakpointUpdate {
            id,
            condition: Some(text.clone()),
            ..Default::default()
        };
        self.ask(
            move |s| async move { s.update_breakpoint(Origin::Human, update).await },
            move |res| {
                let error = res.err()?.to_string();
                Some(UiEvent::Update(Box::new(move |app: &mut App| {
                    app.ui.message = Some(error);
                    app.ui.input = tui_input::Input::new(text);
                    app.ui.typing = Some(Prompt::Condition(id));
                })))
            },
        );
    }

    pub(super) fn evaluate(&self, expression: String) {
        let (asked, frame) = (expression.clone(), self.ui.selected_frame);
        let call = move |s: crate::session::SessionHandle| async move {
            s.evaluate(Origin::Human, asked, frame).await
        };
        self.ask(call, move |res| {
            let cfg = ViewportConfig {
                string_truncate_length: 1000,
                collection_preview_items: 20,
                ..Default::default()
            };
            let output = match res {
                Ok(v) if v.value.is_empty() && v.type_name.is_empty() => Ok("(done)".to_string()),
                // An adapter that names no type (a core's text) shows none.
                Ok(v) if v.type_name.is_empty() => Ok(render_value(&v, &cfg, 0)),
                Ok(v) => Ok(format!("{}  ({})", render_value(&v, &cfg, 0), v.type_name)),
                Err(e) => Err(e.to_string()),
            };
            Some(UiEvent::Console(ConsoleEntry {
                input: Some(expression),
                output,
            }))
        });
    }
}

/// What a key did to a filtered list with a query line (palette, picker).
pub(super) enum ListKey {
    Close,
    Choose(usize),
    Edited,
}

pub(super) fn list_key(
    query: &mut String,
    selected: &mut usize,
    n: usize,
    code: KeyCode,
) -> ListKey {
    match code {
        KeyCode::Esc => return ListKey::Close,
        KeyCode::Enter => return ListKey::Choose(*selected),
        KeyCode::Up => *selected = selected.saturating_sub(1),
        KeyCode::Down => *selected = (*selected + 1).min(n.saturating_sub(1)),
        KeyCode::Backspace => {
            query.pop();
            *selected = 0;
        }
        KeyCode::Char(c) => {
            query.push(c);
            *selected = 0;
        }
        _ => {}
    }
    ListKey::Edited
}
