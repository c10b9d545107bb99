//! The event loop: terminal events, snapshot changes and command results in;
//! a redraw out whenever something changed. It never waits on the adapter:
//! every command runs in a task of its own.

mod approval;
mod compile_error;
mod failure;
mod formats;
mod goto;
mod help;
mod history;
mod keys;
mod loading;
mod mouse;
mod native;
mod output_index;
mod paging;
mod panes;
mod past_journals;
mod persist;
mod placed;
mod program_input;
mod prompts;
mod queue;
mod quit;
mod requests;
mod session_events;
pub use past_journals::past_matches;
mod stop_history;
mod viewer;
mod views;
mod watch_key;

use std::path::PathBuf;
use std::time::Duration;

use crate::tui::screen::Screen;
use crossterm::event::{Event, EventStream, KeyCode, KeyEventKind};
use futures::StreamExt;
use tokio::sync::mpsc;

use super::action::Keymap;
use super::highlight::Highlighter;
use super::state::{ConsoleEntry, UiState};
use super::theme::Theme;
use crate::session::sources::{SharedSourceCache, SourceCache};
use crate::session::types::{Origin, RunState, Snapshot, Var};
use crate::session::{Registry, SessionHandle};
use crate::tui::draw::{View, draw, source_rows};

enum UiEvent {
    Redraw,
    /// A change to the UI's own state, made on the UI's task.
    Update(Box<dyn FnOnce(&mut App) + Send>),
    Message(String),
    /// The engine refused a step: the queued ones are dropped.
    StepRefused(String),
    Console(ConsoleEntry),
    /// The program's threads at a stop.
    Threads {
        stop_seq: u64,
        threads: Vec<crate::session::types::ThreadRow>,
    },
    /// The locals of a frame other than the top one.
    FrameLocals {
        stop_seq: u64,
        frame_index: usize,
        vars: Vec<Var>,
    },
    /// The scopes of a frame beside its locals.
    Scopes {
        stop_seq: u64,
        frame_index: usize,
        names: Vec<String>,
    },
    Traceback(Box<crate::tui::panes::traceback::Traceback>),
    /// Children read for an expanded value, for the stop they belong to.
    Children {
        stop_seq: u64,
        path: String,
        start: usize,
        result: Result<(Vec<Var>, usize), loading::ReadFailed>,
    },
}

/// The most queued answers taken before a frame is drawn.
const UI_BURST: usize = 4096;

pub struct App {
    registry: Registry,
    session: SessionHandle,
    ui: UiState,
    theme: Theme,
    highlighter: Highlighter,
    sources: SharedSourceCache,
    /// The file the source pane shows, read when it changes or at a stop,
    /// not at every frame.
    source: Option<std::sync::Arc<crate::session::types::SourceFile>>,
    /// PAIRDBG_TEST_PANIC: the tests' way to prove a panic restores the terminal.
    test_panic: bool,
    previous: Option<Vec<Var>>,
    shown_stop: Option<Vec<Var>>,
    output: output_index::OutputIndex,
    history: history::History,
    steps: queue::StepQueue,
    /// `q` asks before ending a live program.
    confirm_quit: bool,
    quit_pending: bool,
    /// Digits typed before `G`.
    count: String,
    tx: mpsc::UnboundedSender<UiEvent>,
    rx: mpsc::UnboundedReceiver<UiEvent>,
    quit: bool,
    size: ratatui::layout::Rect,
    keymap: Keymap,
    /// The person's commands still waiting for the engine's answer.
    in_flight: std::sync::Arc<requests::InFlight>,
    /// Keys typed to the program, sent one after another in order.
    typing: Option<tokio::sync::mpsc::UnboundedSender<String>>,
    /// A compile error already brought to the source pane.
    compile_error_shown: bool,
    failure_shown: bool,
    persist: persist::Persist,
    /// The session's stops, for going back through them.
    stops: stop_history::StopHistory,
    /// A past session's stops, from its journal, while the person reads them.
    past: Option<stop_history::StopHistory>,
    /// Breakpoints already said to have moved, by id: each is told once.
    told_moved: std::collections::HashSet<u64>,
}

impl App {
    pub fn new(
        registry: Registry,
        session: SessionHandle,
        theme: Theme,
        keymap: Keymap,
        endpoint: Option<String>,
    ) -> App {
        let (tx, rx) = mpsc::unbounded_channel();
        let workspace = session.snapshot().workspace.clone();
        App {
            registry,
            session,
            ui: UiState {
                endpoint,
                workspace,
                ..Default::default()
            },
            theme,
            highlighter: Highlighter::default(),
            sources: Default::default(),
            source: None,
            // Only a debug build (the tests') panics on purpose.
            test_panic: cfg!(debug_assertions) && std::env::var_os("PAIRDBG_TEST_PANIC").is_some(),
            previous: None,
            shown_stop: None,
            output: output_index::OutputIndex::new(),
            history: Default::default(),
            steps: Default::default(),
            confirm_quit: quit::confirm_quit_setting(),
            quit_pending: false,
            count: String::new(),
            tx,
            rx,
            quit: false,
            size: ratatui::layout::Rect::new(0, 0, 80, 24),
            keymap,
            in_flight: Default::default(),
            typing: None,
            compile_error_shown: false,
            failure_shown: false,
            persist: Default::default(),
            stops: Default::default(),
            past: None,
            told_moved: Default::default(),
        }
    }

    /// An answer from a task the UI started.
    fn on_ui_event(&mut self, ev: UiEvent) {
        match ev {
            UiEvent::Redraw => {}
            UiEvent::Update(change) => change(self),
            UiEvent::Message(m) => self.ui.message = Some(m),
            UiEvent::StepRefused(m) => self.step_refused(m),
            UiEvent::Console(e) => self.ui.push_console(e),
            UiEvent::Threads { stop_seq, threads } => {
                if stop_seq == self.ui.followed_stop {
                    self.ui.threads = threads;
                }
            }
            UiEvent::FrameLocals {
                stop_seq,
                frame_index,
                vars,
            } => {
                if stop_seq == self.ui.followed_stop {
                    self.ui.frame_locals = Some((frame_index, vars));
                }
            }
            UiEvent::Scopes {
                stop_seq,
                frame_index,
                names,
            } => {
                self.scopes_read(stop_seq, frame_index, names);
            }
            UiEvent::Traceback(tb) => self.ui.traceback = Some(*tb),
            UiEvent::Children {
                stop_seq,
                path,
                start,
                result,
            } => {
                if stop_seq == self.ui.followed_stop {
                    self.children_answered(path, start, result);
                }
            }
        }
    }

    pub async fn run(mut self, terminal: &mut Screen) -> std::io::Result<()> {
        let mut events = EventStream::new();
        let mut snaps = self.session.watch_snapshots();
        let mut session_events = self.session.subscribe();
        let mut approvals = self.registry.approvals().watch();
        let mut current = self.registry.watch_current();
        current.mark_unchanged();
        let mut tick = tokio::time::interval(Duration::from_millis(120));
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        let mut hangup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())?;
        let mut dirty = true;
        self.size = terminal
            .size()
            .map(|s| ratatui::layout::Rect::new(0, 0, s.width, s.height))?;
        self.on_snapshot(&snaps.borrow_and_update().clone());
        // What was written before the subscription (a build's first lines)
        // came with no event this receiver saw.
        self.read_output();
        loop {
            if dirty {
                let snap = self.session.snapshot();
                // A stop can land between the snapshot branch and this draw:
                // follow it first, so no frame shows it with the last stop's
                // view (its values unlit, its source not yet moved).
                if snap.state == RunState::Stopped && snap.stop_seq != self.ui.followed_stop {
                    self.on_snapshot(&snap);
                }
                self.draw(terminal, &snap)?;
                dirty = false;
            }
            tokio::select! {
                ev = events.next() => match ev {
                    Some(Ok(Event::Key(k))) if k.kind != KeyEventKind::Release => {
                        // The key-to-frame benchmark starts its clock here.
                        // A character may belong to a secret typed into a
                        // prompt, so the log says only that one came.
                        match k.code {
                            KeyCode::Char(_) => tracing::debug!(target: "pairdbg::tui", "key (a character)"),
                            code => tracing::debug!(target: "pairdbg::tui", "key {code:?}"),
                        }
                        self.on_key(k);
                        dirty = true;
                    }
                    Some(Ok(Event::Resize(w, h))) => {
                        self.size = ratatui::layout::Rect::new(0, 0, w, h);
                        self.keep_cursor_visible();
                        dirty = true;
                    }
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
                    let burst = session_events::drain(ev, &mut session_events);
                    if burst.output {
                        self.read_output();
                    }
                    if burst.activity {
                        self.ui.activity = self.session.activity();
                    }
                    dirty = true;
                }
                Some(ev) = self.rx.recv() => {
                    // Everything queued is taken before the next frame: one
                    // frame per answer fell behind an agent stepping flat
                    // out, and the queue grew without end.
                    self.on_ui_event(ev);
                    for _ in 0..UI_BURST {
                        let Ok(ev) = self.rx.try_recv() else { break };
                        self.on_ui_event(ev);
                    }
                    dirty = true;
                }
                // Another session became current (the agent launched one, or
                // the person switched): show it.
                changed = current.changed() => {
                    if changed.is_err() { continue; }
                    let id = current.borrow_and_update().clone();
                    if let Some(next) = id.and_then(|i| self.registry.get(Some(&i)).ok()).filter(|n| n.id != self.session.id) {
                        self.session = next;
                        snaps = self.session.watch_snapshots();
                        session_events = self.session.subscribe();
                        let keep = (self.ui.endpoint.clone(), self.ui.workspace.clone());
                        self.ui = UiState { endpoint: keep.0, workspace: keep.1, ..Default::default() };
                        let snap = self.session.snapshot();
                        self.ui.message = Some(format!("now showing session {} ({})", self.session.id, snap.program));
                        self.previous = None;
                        self.shown_stop = None;
                        self.output = output_index::OutputIndex::new();
                        self.steps = Default::default();
                        self.stops = Default::default();
                        self.past = None;
                        self.told_moved = Default::default();
                        self.read_output();
                        self.ui.activity = self.session.activity();
                        let snap = snaps.borrow_and_update().clone();
                        self.on_snapshot(&snap);
                        dirty = true;
                    }
                }
                changed = approvals.changed() => {
                    if changed.is_ok() { dirty = true; }
                }
                _ = tick.tick() => {
                    if self.registry.agent_joined() != self.ui.agent_joined {
                        dirty = true;
                    }
                    let s = self.session.snapshot().state;
                    if matches!(s, RunState::Running | RunState::Starting) || self.waiting() {
                        self.ui.tick += 1;
                        dirty = true;
                    }
                }
                _ = term.recv() => break,
                // The terminal went away: end as cleanly as on q.
                _ = hangup.recv() => {
                    tracing::info!("the terminal hung up");
                    crate::tui::hangup::note();
                    break;
                }
            }
            self.save_state();
            if self.quit {
                break;
            }
        }
        let _ = tokio::time::timeout(
            Duration::from_secs(3),
            self.session.terminate(Origin::Human),
        )
        .await;
        Ok(())
    }

    fn draw(&mut self, terminal: &mut Screen, snap: &Snapshot) -> std::io::Result<()> {
        self.ui.sessions = self.registry.list().0.into_iter().map(|s| s.id).collect();
        self.ui.waiting = self.waiting();
        self.ui.approve_required = self.registry.approvals().required();
        self.ui.agent_joined = self.registry.agent_joined();
        self.ui.approval = self.registry.approvals().pending();
        let rows = crate::tui::draw::layout(self.size, &self.ui)
            .output
            .height
            .saturating_sub(2);
        self.output_window(rows as usize);
        if let Some(m) = &self.ui.message
            && self.ui.messages.last() != Some(m)
        {
            self.ui.messages.push(m.clone());
            let n = self.ui.messages.len();
            self.ui.messages.drain(..n.saturating_sub(100));
        }
        let past = self.history_view();
        let (snap, ui, file, previous) = match &past {
            Some(h) => (&*h.snap, &h.ui, h.source.clone(), h.previous.as_deref()),
            None => (
                snap,
                &self.ui,
                self.source.clone(),
                self.previous.as_deref(),
            ),
        };
        let tx = self.tx.clone();
        let colours = file.as_ref().and_then(|f| {
            self.highlighter.get(f, &self.theme.syntax, move || {
                let _ = tx.send(UiEvent::Redraw);
            })
        });
        let view = View {
            snap,
            ui,
            theme: &self.theme,
            mode: self.session.control_mode(),
            file: file.as_deref(),
            colours: colours.as_deref().map(|v| v.as_slice()),
            previous,
            keymap: &self.keymap,
        };
        let started = std::time::Instant::now();
        crate::tui::screen::draw_frame(terminal, |f| draw(f, &view))?;
        // The benchmarks time keys and agent calls to this line, and read
        // the frame's own cost from it.
        tracing::debug!(
            target: "pairdbg::tui",
            "drawn epoch={} stop={} in {}us",
            snap.epoch,
            snap.stop_seq,
            started.elapsed().as_micros()
        );
        // Lets the tests prove that a panic restores the terminal.
        if snap.stop_seq > 0 && self.test_panic {
            panic!("PAIRDBG_TEST_PANIC is set");
        }
        Ok(())
    }

    /// A new stop moves the source pane to it and remembers the old locals.
    fn on_snapshot(&mut self, snap: &std::sync::Arc<Snapshot>) {
        self.ui.busy = matches!(snap.state, RunState::Running | RunState::Starting);
        self.show_compile_error(snap);
        self.show_failure(snap);
        self.step_landed(snap);
        self.tell_moved(snap);
        // A restart: what the views pointed at is gone.
        if snap.state == RunState::Starting && self.shown_stop.is_some() {
            self.reset_views();
        }
        if snap.state != RunState::Stopped || snap.stop_seq == self.ui.followed_stop {
            return;
        }
        self.ui.followed_stop = snap.stop_seq;
        if let Some(v) = self.ui.viewer.as_mut() {
            v.note = Some("read at an earlier stop: Esc, then V reads it again".into());
        }
        self.stops.record(snap.clone());
        self.ui.selected_frame = 0;
        self.ui.frame_locals = None;
        // Expanded values stay open across stops: read them again.
        // Each is read again from where it was read, as much as was read.
        let open = std::mem::take(&mut self.ui.children);
        self.ui.loading.clear();
        self.ui.reopening = open.keys().cloned().collect();
        for (path, (kids, _)) in open {
            let start = self.ui.pages.get(&path).copied().unwrap_or(0);
            let count = kids.len().max(crate::tui::panes::variables::PAGE);
            self.fetch_children(path, snap.stop_seq, start, count);
        }
        self.fetch_threads(snap.stop_seq);
        self.native_stop(snap.stop_seq);
        self.fetch_scopes(snap.stop_seq, 0);
        self.ui.traceback = None;
        if let Some(stop) = &snap.stop {
            self.read_top_locals(stop, snap.stop_seq);
            self.previous = self.shown_stop.replace(stop.locals.clone());
            if let Some(top) = stop.frames.first() {
                self.show_location(top.file.clone(), top.line as usize);
            }
        }
    }

    fn fetch_threads(&self, stop_seq: u64) {
        self.ask(
            |s| async move { s.threads(Origin::Human).await },
            move |res| match res {
                Ok(threads) => Some(UiEvent::Threads { stop_seq, threads }),
                Err(_) => None,
            },
        );
    }

    fn show_location(&mut self, file: Option<PathBuf>, line: usize) {
        if file.is_some() {
            self.ui.file = file;
        }
        self.load_source();
        self.ui.cursor = line.max(1);
        let rows = source_rows(self.size, &self.ui).max(1);
        self.ui.scroll = line.saturating_sub(rows / 2).max(1);
    }

    /// After the source pane changed size (a resize, a zoom), the cursor
    /// line, which is the current line after a stop, must still show.
    fn keep_cursor_visible(&mut self) {
        let rows = source_rows(self.size, &self.ui).max(1);
        if self.ui.cursor < self.ui.scroll || self.ui.cursor >= self.ui.scroll + rows {
            self.ui.scroll = self.ui.cursor.saturating_sub(rows / 2).max(1);
        }
    }

    /// Reads the shown file through the cache (a stat, and a read when it
    /// changed on disk).
    fn load_source(&mut self) {
        self.source = self
            .ui
            .file
            .as_deref()
            .and_then(|p| SourceCache::get(&self.sources, p));
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
