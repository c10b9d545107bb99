//! Going back through the session's stops, read-only: each stop's snapshot
//! is kept (capped), and while the person browses, the screen draws the
//! chosen stop's stack, source and locals instead of the live ones.

use std::collections::VecDeque;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent};

use super::App;
use crate::session::sources::SourceCache;
use crate::session::types::{Snapshot, SourceFile, StopInfo, Var};
use crate::tui::action::Action;
use crate::tui::draw::source_rows;
use crate::tui::state::UiState;

/// Stops kept for browsing; the oldest go first.
pub const STOPS_KEPT: usize = 200;

#[derive(Default)]
pub struct StopHistory {
    stops: VecDeque<Arc<Snapshot>>,
    /// Stops dropped off the front, so that numbers stay the session's.
    dropped: usize,
    /// The stop shown, as an index into `stops`, while browsing.
    shown: Option<usize>,
    /// The frame selected at the shown stop.
    frame: usize,
    /// What the stops are of, when not the live session's: a past
    /// session's, read from its journal.
    label: Option<String>,
}

impl StopHistory {
    /// A past session's stops, shown from the first.
    pub fn of_past(stops: Vec<Arc<Snapshot>>, label: String) -> StopHistory {
        StopHistory {
            stops: stops.into(),
            shown: Some(0),
            label: Some(label),
            ..Default::default()
        }
    }

    pub fn record(&mut self, snap: Arc<Snapshot>) {
        self.stops.push_back(snap);
        if self.stops.len() > STOPS_KEPT {
            self.stops.pop_front();
            self.dropped += 1;
            self.shown = self.shown.map(|i| i.saturating_sub(1));
        }
    }

    pub fn browsing(&self) -> bool {
        self.shown.is_some()
    }

    /// The stop shown, its number and the count of stops so far.
    fn shown(&self) -> Option<(&Arc<Snapshot>, &StopInfo, usize, usize)> {
        let i = self.shown?;
        let snap = self.stops.get(i)?;
        let stop = snap.stop.as_ref()?;
        Some((
            snap,
            stop,
            self.dropped + i + 1,
            self.dropped + self.stops.len(),
        ))
    }

    /// Moves by `delta` stops; false at either end.
    fn step(&mut self, delta: isize) -> bool {
        let last = self.stops.len().saturating_sub(1);
        let now = self.shown.unwrap_or(last);
        let next = now.checked_add_signed(delta).filter(|n| *n <= last);
        match next {
            Some(n) => {
                self.shown = Some(n);
                self.frame = 0;
                true
            }
            None => false,
        }
    }
}

impl App {
    /// Opens the history at the stop before the live one (or the only one).
    pub(super) fn enter_history(&mut self, delta: isize) {
        if self.stops.stops.is_empty() {
            self.ui.message = Some("no stops yet to go back to".into());
            return;
        }
        let back = if self.stops.stops.len() > 1 { delta } else { 0 };
        self.stops.step(back);
    }

    /// The stops browsed: a past session's, or the live one's.
    fn browsed(&self) -> &StopHistory {
        self.past.as_ref().unwrap_or(&self.stops)
    }

    fn browsed_mut(&mut self) -> &mut StopHistory {
        self.past.as_mut().unwrap_or(&mut self.stops)
    }

    /// Back to the live session.
    fn leave_history(&mut self) {
        self.past = None;
        self.stops.shown = None;
    }

    pub(super) fn on_history_key(&mut self, k: KeyEvent) {
        let km = &self.keymap;
        let back = k.code == KeyCode::Left || km.binds(Action::HistoryBack, &k);
        let forward = k.code == KeyCode::Right || km.binds(Action::HistoryForward, &k);
        let (esc, stop_key) = (k.code == KeyCode::Esc, km.binds(Action::StopHistory, &k));
        let (up, down) = (km.binds(Action::Up, &k), km.binds(Action::Down, &k));
        let leaving = km.binds(Action::Quit, &k) || km.binds(Action::Help, &k);
        if back || forward {
            if !self.browsed_mut().step(if back { -1 } else { 1 }) {
                self.ui.message = Some(match (back, self.past.is_some()) {
                    (true, _) => "this is the oldest stop kept".into(),
                    (false, true) => "this is the session's last stop (Esc: back to now)".into(),
                    (false, false) => "this is the newest stop (Esc: back to now)".into(),
                });
            }
        } else if esc || stop_key {
            self.leave_history();
        } else if up {
            let h = self.browsed_mut();
            h.frame = h.frame.saturating_sub(1);
        } else if down {
            let h = self.browsed_mut();
            let frames = h.shown().map_or(0, |(_, s, _, _)| s.frames.len());
            h.frame = (h.frame + 1).min(frames.saturating_sub(1));
        } else if leaving {
            self.leave_history();
            self.on_key(k);
        } else {
            self.ui.message = Some("an earlier stop is read-only: Esc goes back to now".into());
        }
    }

    /// What to draw while browsing: the stop's snapshot, a copy of the UI
    /// state pointed at it, its source, and the locals of the stop before.
    pub(super) fn history_view(&self) -> Option<HistoryView> {
        let h = self.browsed();
        let (snap, stop, n, of) = h.shown()?;
        let frame_index = h.frame.min(stop.frames.len().saturating_sub(1));
        let mut ui: UiState = self.ui.clone();
        ui.history = Some((n, of));
        ui.history_of = h.label.clone();
        ui.selected_frame = frame_index;
        ui.frame_locals = stop
            .frame_locals(frame_index)
            .map(|v| (frame_index, v.to_vec()));
        ui.children.clear();
        ui.loading.clear();
        ui.reopening.clear();
        ui.pages.clear();
        ui.scopes.clear();
        ui.selected_var = 0;
        ui.hscroll = 0;
        let frame = stop.frames.get(frame_index);
        let source = frame.and_then(|f| f.file.as_deref()).and_then(|p| {
            stop.files
                .iter()
                .chain(stop.source.iter())
                .find(|s| s.path == p)
                .cloned()
                .or_else(|| SourceCache::get(&self.sources, p))
        });
        if let Some(f) = frame {
            ui.file = f.file.clone();
            ui.cursor = (f.line as usize).max(1);
            let rows = source_rows(self.size, &ui).max(1);
            ui.scroll = ui.cursor.saturating_sub(rows / 2).max(1);
        }
        let i = h.shown.unwrap_or(0);
        let previous = (frame_index == 0 && i > 0)
            .then(|| h.stops.get(i - 1))
            .flatten()
            .and_then(|s| s.stop.as_ref())
            .map(|s| s.locals.clone());
        Some(HistoryView {
            snap: snap.clone(),
            ui,
            source,
            previous,
        })
    }
}

pub(super) struct HistoryView {
    pub snap: Arc<Snapshot>,
    pub ui: UiState,
    pub source: Option<Arc<SourceFile>>,
    pub previous: Option<Vec<Var>>,
}
