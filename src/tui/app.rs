//! The event loop: terminal events, snapshot changes and command results in;
//! a redraw out whenever something changed. It never waits on the adapter:
//! every command runs in a task of its own.

use std::path::PathBuf;
use std::time::Duration;

use crossterm::event::{
    Event, EventStream, KeyCode, KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind,
};
use futures::StreamExt;
use ratatui::DefaultTerminal;
use tokio::sync::mpsc;

use super::action::{Action, Keymap};
use super::draw::{View, draw, source_rows};
use super::highlight::Highlighter;
use super::state::{ConsoleEntry, Focus, Prompt, UiState};
use super::theme::Theme;
use crate::session::command::{
    BreakpointSelector, BreakpointUpdate, Command, Reply, StepKind, VariablesQuery,
};
use crate::session::fetch::{SharedSourceCache, SourceCache};
use crate::session::types::{Origin, RunState, Snapshot, Var};
use crate::session::{BreakpointRequest, ControlMode, SessionEvent, SessionHandle};
use crate::viewport::ViewportConfig;
use crate::viewport::value::render as render_value;

enum UiEvent {
    Redraw,
    Message(String),
    Console(ConsoleEntry),
    /// The locals of a frame other than the top one.
    FrameLocals {
        stop_seq: u64,
        frame_index: usize,
        vars: Vec<Var>,
    },
    /// Children read for an expanded value, for the stop they belong to.
    Children {
        stop_seq: u64,
        path: String,
        result: Result<(Vec<Var>, usize), String>,
    },
}

pub struct App {
    session: SessionHandle,
    ui: UiState,
    theme: Theme,
    highlighter: Highlighter,
    sources: SharedSourceCache,
    previous: Option<Vec<Var>>,
    shown_stop: Option<Vec<Var>>,
    output_cursor: u64,
    tx: mpsc::UnboundedSender<UiEvent>,
    rx: mpsc::UnboundedReceiver<UiEvent>,
    quit: bool,
    size: ratatui::layout::Rect,
    keymap: Keymap,
}

impl App {
    pub fn new(
        session: SessionHandle,
        theme: Theme,
        keymap: Keymap,
        endpoint: Option<String>,
    ) -> App {
        let (tx, rx) = mpsc::unbounded_channel();
        let workspace = session.snapshot().workspace.clone();
        App {
            session,
            ui: UiState {
                endpoint,
                workspace,
                ..Default::default()
            },
            theme,
            highlighter: Highlighter::default(),
            sources: Default::default(),
            previous: None,
            shown_stop: None,
            output_cursor: 0,
            tx,
            rx,
            quit: false,
            size: ratatui::layout::Rect::new(0, 0, 80, 24),
            keymap,
        }
    }

    pub async fn run(mut self, terminal: &mut DefaultTerminal) -> std::io::Result<()> {
        let mut events = EventStream::new();
        let mut snaps = self.session.watch_snapshots();
        let mut session_events = self.session.subscribe();
        let mut tick = tokio::time::interval(Duration::from_millis(120));
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        let mut hangup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())?;
        let mut dirty = true;
        self.size = terminal
            .size()
            .map(|s| ratatui::layout::Rect::new(0, 0, s.width, s.height))?;
        self.on_snapshot(&snaps.borrow_and_update().clone());
        loop {
            if dirty {
                let snap = self.session.snapshot();
                self.draw(terminal, &snap)?;
                dirty = false;
            }
            tokio::select! {
                ev = events.next() => match ev {
                    Some(Ok(Event::Key(k))) if k.kind != KeyEventKind::Release => { self.on_key(k); dirty = true; }
                    Some(Ok(Event::Resize(w, h))) => { self.size = ratatui::layout::Rect::new(0, 0, w, h); dirty = true; }
                    Some(Ok(Event::Mouse(m))) => { self.on_mouse(m); dirty = true; }
                    Some(Ok(_)) => {}
                    Some(Err(_)) | None => break,
                },
                changed = snaps.changed() => {
                    if changed.is_err() { break; }
                    let snap = snaps.borrow_and_update().clone();
                    self.on_snapshot(&snap);
                    dirty = true;
                }
                ev = session_events.recv() => {
                    match ev {
                        Ok(SessionEvent::Output) => self.read_output(),
                        Ok(SessionEvent::Activity) => self.ui.activity = self.session.activity(),
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                            self.read_output();
                            self.ui.activity = self.session.activity();
                        }
                        _ => {}
                    }
                    dirty = true;
                }
                Some(ev) = self.rx.recv() => {
                    match ev {
                        UiEvent::Redraw => {}
                        UiEvent::Message(m) => self.ui.message = Some(m),
                        UiEvent::Console(e) => self.ui.console.push(e),
                        UiEvent::FrameLocals { stop_seq, frame_index, vars } => {
                            if stop_seq == self.ui.followed_stop {
                                self.ui.frame_locals = Some((frame_index, vars));
                            }
                        }
                        UiEvent::Children { stop_seq, path, result } => {
                            if stop_seq == self.ui.followed_stop {
                                match result {
                                    Ok(kids) => { self.ui.children.insert(path, kids); }
                                    Err(_) => self.collapse(&path),
                                }
                            }
                        }
                    }
                    dirty = true;
                }
                _ = tick.tick() => {
                    let s = self.session.snapshot().state;
                    if matches!(s, RunState::Running | RunState::Starting) {
                        self.ui.tick += 1;
                        dirty = true;
                    }
                }
                _ = term.recv() => break,
                // The terminal went away: end as cleanly as on q.
                _ = hangup.recv() => break,
            }
            if self.quit {
                break;
            }
        }
        let _ = tokio::time::timeout(
            Duration::from_secs(3),
            self.session.send(Origin::Human, Command::Terminate),
        )
        .await;
        Ok(())
    }

    fn draw(&mut self, terminal: &mut DefaultTerminal, snap: &Snapshot) -> std::io::Result<()> {
        let file = self
            .ui
            .file
            .as_deref()
            .and_then(|p| SourceCache::get(&self.sources, p));
        let tx = self.tx.clone();
        let colours = file.as_ref().and_then(|f| {
            self.highlighter
                .get(&f.path, &f.lines, &self.theme.syntax, move || {
                    let _ = tx.send(UiEvent::Redraw);
                })
        });
        let view = View {
            snap,
            ui: &self.ui,
            theme: &self.theme,
            mode: self.session.control_mode(),
            file: file.as_deref(),
            colours: colours.as_deref().map(|v| v.as_slice()),
            previous: self.previous.as_deref(),
            keymap: &self.keymap,
        };
        terminal.draw(|f| draw(f, &view))?;
        // The pair benchmark times agent calls to this line.
        tracing::debug!(target: "pairdbg::tui", "drawn epoch={}", snap.epoch);
        Ok(())
    }

    fn read_output(&mut self) {
        let r = self.session.read_output(self.output_cursor, 1 << 20);
        self.output_cursor = r.next;
        for line in r.text.split_inclusive('\n') {
            match line.strip_prefix("[stderr] ") {
                Some(rest) => self
                    .ui
                    .push_output(crate::session::output::Stream::Stderr, rest),
                None => self
                    .ui
                    .push_output(crate::session::output::Stream::Stdout, line),
            }
        }
    }

    /// A new stop moves the source pane to it and remembers the old locals.
    fn on_snapshot(&mut self, snap: &Snapshot) {
        self.ui.busy = matches!(snap.state, RunState::Running | RunState::Starting);
        if snap.state != RunState::Stopped || snap.stop_seq == self.ui.followed_stop {
            return;
        }
        self.ui.followed_stop = snap.stop_seq;
        self.ui.selected_frame = 0;
        self.ui.frame_locals = None;
        // Expanded values stay open across stops: read them again.
        let open: Vec<String> = std::mem::take(&mut self.ui.children).into_keys().collect();
        for path in open {
            self.fetch_children(path, snap.stop_seq);
        }
        if let Some(stop) = &snap.stop {
            self.previous = self.shown_stop.replace(stop.locals.clone());
            if let Some(top) = stop.frames.first() {
                self.show_location(top.file.clone(), top.line as usize);
            }
        }
    }

    fn show_location(&mut self, file: Option<PathBuf>, line: usize) {
        if file.is_some() {
            self.ui.file = file;
        }
        self.ui.cursor = line.max(1);
        let rows = source_rows(self.size).max(1);
        self.ui.scroll = line.saturating_sub(rows / 2).max(1);
    }

    fn send(&self, cmd: Command) {
        let s = self.session.clone();
        let tx = self.tx.clone();
        tokio::spawn(async move {
            if let Err(e) = s.send(Origin::Human, cmd).await {
                let _ = tx.send(UiEvent::Message(e.to_string()));
            }
        });
    }

    /// Click to focus and select; a click in the source gutter toggles a
    /// breakpoint; the wheel scrolls the pane under it.
    fn on_mouse(&mut self, m: MouseEvent) {
        let a = super::draw::layout(self.size, &self.ui);
        let hit = |r: ratatui::layout::Rect| {
            m.column >= r.x && m.column < r.x + r.width && m.row >= r.y && m.row < r.y + r.height
        };
        let panes = [
            (Focus::Source, a.source),
            (Focus::Stack, a.stack),
            (Focus::Variables, a.variables),
            (Focus::Watches, a.watches),
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
                if pane == Focus::Source {
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
                    Focus::Source => {
                        self.ui.cursor = self.ui.scroll + row;
                        // The gutter: the border, then the breakpoint column.
                        if (m.column as usize) <= area.x as usize + 1 {
                            self.toggle_breakpoint(&snap);
                        }
                    }
                    Focus::Stack => {
                        let n = snap.stop.as_ref().map(|s| s.frames.len()).unwrap_or(0);
                        let start = super::panes::window_start(
                            self.ui.selected_frame,
                            area.height.saturating_sub(2) as usize,
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
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn on_key(&mut self, k: KeyEvent) {
        self.ui.message = None;
        if let Some(prompt) = self.ui.typing {
            self.on_prompt_key(prompt, k);
            return;
        }
        if self.ui.show_help {
            self.ui.show_help = false;
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
        let Some(action) = self.keymap.action_for(&k) else {
            return;
        };
        self.apply(action);
    }

    pub fn apply(&mut self, action: Action) {
        let snap = self.session.snapshot();
        match action {
            Action::Continue => self.send(Command::Continue),
            Action::StepOver => self.send(Command::Step {
                kind: StepKind::Over,
                count: 1,
            }),
            Action::StepInto => self.send(Command::Step {
                kind: StepKind::Into,
                count: 1,
            }),
            Action::StepOut => self.send(Command::Step {
                kind: StepKind::Out,
                count: 1,
            }),
            Action::Pause => self.send(Command::Pause),
            Action::Restart => self.send(Command::Restart),
            Action::RunToCursor => {
                if let Some(f) = &self.ui.file {
                    self.send(Command::RunTo {
                        file: f.display().to_string(),
                        line: self.ui.cursor as i64,
                    });
                }
            }
            Action::ToggleBreakpoint => self.toggle_breakpoint(&snap),
            Action::Quit => self.quit = true,
            Action::Help => self.ui.show_help = true,
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
                self.session.set_control_mode(next);
                self.ui.message = Some(match next {
                    ControlMode::HumanOnly => {
                        "you drive; the agent can only read (T hands back)".into()
                    }
                    ControlMode::Shared => "the agent may drive again".into(),
                });
            }
            Action::Palette => self.ui.palette = Some((String::new(), 0)),
            Action::Search => {
                self.ui.typing = Some(Prompt::Search);
                self.ui.focus = Focus::Source;
            }
            Action::OpenFile => {
                if self.ui.files.is_empty() {
                    self.ui.files = super::picker::workspace_files(&self.ui.workspace, 20_000);
                }
                self.ui.picker = Some((String::new(), 0));
            }
            Action::Expand | Action::Collapse | Action::CopyValue => {
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
            }
            Action::Note => {
                self.ui.typing = Some(Prompt::Note);
                self.ui.focus = Focus::Console;
            }
            Action::AddWatch => {
                self.ui.typing = Some(Prompt::AddWatch);
                self.ui.focus = Focus::Console;
            }
            Action::RemoveWatch => {
                if let Some(w) = snap.watches.get(self.ui.selected_watch) {
                    self.send(Command::Watch {
                        add: vec![],
                        remove: vec![w.expression.clone()],
                    });
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

    /// The variables pane's own keys act on its selected row.
    fn variable_action(&mut self, action: Action, snap: &Snapshot) {
        if self.ui.focus != Focus::Variables {
            return;
        }
        let Some(stop) = snap.stop.as_ref() else {
            return;
        };
        let rows = super::panes::variables::rows(self.ui.locals(stop), &self.ui.children);
        let Some(row) = rows.get(self.ui.selected_var) else {
            return;
        };
        let (path, expandable, expanded) = (row.path.clone(), row.var.reference > 0, row.expanded);
        match action {
            Action::Expand if expandable && !expanded => self.fetch_children(path, snap.stop_seq),
            Action::Expand | Action::Collapse if expanded => self.collapse(&path),
            Action::CopyValue => {
                let text = row.var.value.clone();
                copy_to_clipboard(&text);
                self.ui.message = Some(format!("copied {} characters", text.chars().count()));
            }
            _ => {}
        }
    }

    fn fetch_children(&self, path: String, stop_seq: u64) {
        let s = self.session.clone();
        let tx = self.tx.clone();
        let frame_index = self.ui.selected_frame;
        tokio::spawn(async move {
            let q = VariablesQuery {
                frame_index,
                scope: None,
                path: Some(path.clone()),
                filter: None,
                start: 0,
                count: super::panes::variables::PAGE,
            };
            let result = match s.send(Origin::Human, Command::Variables(q)).await {
                Ok(Reply::Variables { vars, total }) => Ok((vars, total)),
                Ok(_) => Err(String::new()),
                Err(e) => Err(e.to_string()),
            };
            let _ = tx.send(UiEvent::Children {
                stop_seq,
                path,
                result,
            });
        });
    }

    /// A new frame is selected: its locals are read, and the tree's paths,
    /// which belong to the old frame, are dropped.
    fn frame_changed(&mut self, stop_seq: u64) {
        self.ui.children.clear();
        self.ui.selected_var = 0;
        self.ui.frame_locals = None;
        let frame_index = self.ui.selected_frame;
        if frame_index == 0 {
            return;
        }
        let s = self.session.clone();
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let q = VariablesQuery {
                frame_index,
                scope: None,
                path: None,
                filter: None,
                start: 0,
                count: super::panes::variables::PAGE,
            };
            if let Ok(Reply::Variables { vars, .. }) =
                s.send(Origin::Human, Command::Variables(q)).await
            {
                let _ = tx.send(UiEvent::FrameLocals {
                    stop_seq,
                    frame_index,
                    vars,
                });
            }
        });
    }

    fn collapse(&mut self, path: &str) {
        let nested = format!("{path}.");
        self.ui
            .children
            .retain(|k, _| k != path && !k.starts_with(&nested));
    }

    /// The breakpoints pane's own keys act on its selected breakpoint.
    fn breakpoint_action(&mut self, action: Action, snap: &Snapshot) {
        if self.ui.focus != Focus::Breakpoints {
            return;
        }
        let Some(b) = super::panes::breakpoints::listed(snap)
            .get(self.ui.selected_breakpoint)
            .map(|b| (*b).clone())
        else {
            return;
        };
        let prompt = |p: Prompt, current: &Option<String>, ui: &mut UiState| {
            ui.typing = Some(p);
            ui.input = current.clone().unwrap_or_default();
        };
        match action {
            Action::ToggleEnabled => self.send(Command::UpdateBreakpoint(BreakpointUpdate {
                id: b.id,
                enabled: Some(!b.enabled),
                ..Default::default()
            })),
            Action::DeleteBreakpoint => {
                self.send(Command::RemoveBreakpoint(BreakpointSelector::Id(b.id)))
            }
            Action::EditCondition => prompt(Prompt::Condition(b.id), &b.condition, &mut self.ui),
            Action::EditHitCount => prompt(Prompt::HitCount(b.id), &b.hit_condition, &mut self.ui),
            Action::EditLogMessage => {
                prompt(Prompt::LogMessage(b.id), &b.log_message, &mut self.ui)
            }
            _ => {}
        }
    }

    fn toggle_breakpoint(&mut self, snap: &Snapshot) {
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
            self.send(Command::RemoveBreakpoint(BreakpointSelector::Location {
                file: path,
                line,
            }));
        } else {
            self.send(Command::SetBreakpoint(BreakpointRequest {
                file: path,
                line,
                ..Default::default()
            }));
        }
    }

    fn move_cursor(&mut self, action: Action, snap: &Snapshot) {
        let page = source_rows(self.size).max(1);
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
            Focus::Source => {
                let len = self
                    .ui
                    .file
                    .as_deref()
                    .and_then(|p| SourceCache::get(&self.sources, p))
                    .map(|f| f.lines.len())
                    .unwrap_or(1);
                self.ui.cursor = clamp(self.ui.cursor - 1, delta, len) + 1;
                if self.ui.cursor < self.ui.scroll {
                    self.ui.scroll = self.ui.cursor;
                } else if self.ui.cursor >= self.ui.scroll + page {
                    self.ui.scroll = self.ui.cursor + 1 - page;
                }
            }
            Focus::Breakpoints => {
                let n = super::panes::breakpoints::listed(snap).len();
                self.ui.selected_breakpoint = clamp(self.ui.selected_breakpoint, delta, n);
                if let Some(b) =
                    super::panes::breakpoints::listed(snap).get(self.ui.selected_breakpoint)
                {
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
                    .map(|s| {
                        super::panes::variables::rows(self.ui.locals(s), &self.ui.children).len()
                    })
                    .unwrap_or(0);
                self.ui.selected_var = clamp(self.ui.selected_var, delta, n);
            }
            Focus::Watches => {
                self.ui.selected_watch = clamp(self.ui.selected_watch, delta, snap.watches.len())
            }
            Focus::Output => {
                self.ui.output_scroll_from_end =
                    clamp(self.ui.output_scroll_from_end, -delta, self.ui.output.len());
            }
            Focus::Console | Focus::Activity => {}
        }
    }

    fn on_picker_key(&mut self, k: KeyEvent) {
        let Some((query, selected)) = self.ui.picker.as_mut() else {
            return;
        };
        let n = super::picker::filter(&self.ui.files, &self.ui.workspace, query).len();
        match k.code {
            KeyCode::Esc => self.ui.picker = None,
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
            KeyCode::Enter => {
                let chosen = super::picker::filter(&self.ui.files, &self.ui.workspace, query)
                    .get(*selected)
                    .map(|p| (*p).clone());
                self.ui.picker = None;
                if let Some(p) = chosen {
                    self.show_location(Some(p), 1);
                    self.ui.focus = Focus::Source;
                }
            }
            _ => {}
        }
    }

    fn search(&mut self, query: String) {
        let query = if query.is_empty() {
            self.ui.last_search.clone()
        } else {
            query
        };
        let Some(file) = self
            .ui
            .file
            .as_deref()
            .and_then(|p| SourceCache::get(&self.sources, p))
        else {
            return;
        };
        match super::picker::find_line(&file.lines, self.ui.cursor, &query) {
            Some(line) => {
                self.show_location(None, line);
                self.ui.message = None;
            }
            None => self.ui.message = Some(format!("{query:?} is not in this file")),
        }
        self.ui.last_search = query;
    }

    fn on_palette_key(&mut self, k: KeyEvent) {
        let Some((query, selected)) = self.ui.palette.as_mut() else {
            return;
        };
        let n = super::panes::palette::matches(&self.keymap, query).len();
        match k.code {
            KeyCode::Esc => self.ui.palette = None,
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
            KeyCode::Enter => {
                let chosen = super::panes::palette::matches(&self.keymap, query)
                    .get(*selected)
                    .map(|(a, _)| *a);
                self.ui.palette = None;
                if let Some(a) = chosen {
                    self.apply(a);
                }
            }
            _ => {}
        }
    }

    fn on_prompt_key(&mut self, prompt: Prompt, k: KeyEvent) {
        match k.code {
            KeyCode::Esc => {
                self.ui.typing = None;
                self.ui.input.clear();
            }
            KeyCode::Enter => {
                let text = std::mem::take(&mut self.ui.input);
                self.ui.typing = None;
                self.ui.history_pos = None;
                // An empty field clears a breakpoint's condition; elsewhere it is nothing.
                if prompt == Prompt::Search {
                    self.search(text);
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
                    Prompt::Search => {}
                    Prompt::Condition(id) => {
                        self.send(Command::UpdateBreakpoint(BreakpointUpdate {
                            id,
                            condition: Some(text),
                            ..Default::default()
                        }))
                    }
                    Prompt::HitCount(id) => {
                        self.send(Command::UpdateBreakpoint(BreakpointUpdate {
                            id,
                            hit_condition: Some(text),
                            ..Default::default()
                        }))
                    }
                    Prompt::LogMessage(id) => {
                        self.send(Command::UpdateBreakpoint(BreakpointUpdate {
                            id,
                            log_message: Some(text),
                            ..Default::default()
                        }))
                    }
                    Prompt::Evaluate => self.evaluate(text),
                    Prompt::AddWatch => self.send(Command::Watch {
                        add: vec![text],
                        remove: vec![],
                    }),
                    Prompt::Note => {
                        self.send(Command::Note(text));
                        self.ui.message =
                            Some("note sent: the agent sees it in its next result".into());
                    }
                }
            }
            KeyCode::Backspace => {
                self.ui.input.pop();
            }
            KeyCode::Up | KeyCode::Down => {
                let n = self.ui.console.len();
                if n == 0 {
                    return;
                }
                let pos = match (self.ui.history_pos, k.code) {
                    (None, KeyCode::Up) => n - 1,
                    (Some(p), KeyCode::Up) => p.saturating_sub(1),
                    (Some(p), _) if p + 1 < n => p + 1,
                    _ => {
                        self.ui.history_pos = None;
                        self.ui.input.clear();
                        return;
                    }
                };
                self.ui.history_pos = Some(pos);
                self.ui.input = self.ui.console[pos].input.clone();
            }
            KeyCode::Char(c) => self.ui.input.push(c),
            _ => {}
        }
    }

    fn evaluate(&self, expression: String) {
        let s = self.session.clone();
        let tx = self.tx.clone();
        let frame_index = self.ui.selected_frame;
        tokio::spawn(async move {
            let res = s
                .send(
                    Origin::Human,
                    Command::Evaluate {
                        expression: expression.clone(),
                        frame_index,
                    },
                )
                .await;
            let cfg = ViewportConfig {
                string_truncate_length: 1000,
                collection_preview_items: 20,
                ..Default::default()
            };
            let output = match res {
                Ok(Reply::Value(v)) if v.value.is_empty() && v.type_name.is_empty() => {
                    Ok("(done)".to_string())
                }
                Ok(Reply::Value(v)) => {
                    Ok(format!("{}  ({})", render_value(&v, &cfg, 0), v.type_name))
                }
                Ok(_) => Ok(String::new()),
                Err(e) => Err(e.to_string()),
            };
            let _ = tx.send(UiEvent::Console(ConsoleEntry {
                input: expression,
                output,
            }));
        });
    }
}

/// OSC 52: the terminal puts the text on the system clipboard, over SSH and
/// inside tmux too.
fn copy_to_clipboard(text: &str) {
    use base64::Engine;
    use std::io::Write;
    let encoded = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
    let mut out = std::io::stdout();
    let _ = write!(out, "\x1b]52;c;{encoded}\x07");
    let _ = out.flush();
}
