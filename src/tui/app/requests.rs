//! The person's commands to the engine, sent without waiting: the UI keeps
//! drawing and taking keys, and spins while an answer is slow to come.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{App, UiEvent};
use crate::session::SessionError;
use crate::session::command::{Command, Reply};
use crate::session::types::Origin;

/// An answer slower than this shows the spinner; quicker ones would only
/// make the status bar flicker.
const SLOW: Duration = Duration::from_millis(150);

/// When each outstanding command was sent.
#[derive(Default)]
pub(super) struct InFlight(Mutex<Vec<(u64, Instant)>>, std::sync::atomic::AtomicU64);

impl InFlight {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(u64, Instant)>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn start(&self) -> u64 {
        let id = self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.lock().push((id, Instant::now()));
        id
    }

    fn end(&self, id: u64) {
        self.lock().retain(|(i, _)| *i != id);
    }

    /// Whether some answer has been awaited longer than `SLOW`.
    pub(super) fn slow(&self) -> bool {
        self.lock().iter().any(|(_, at)| at.elapsed() >= SLOW)
    }
}

impl App {
    /// Sends `cmd` as the person; `then` turns the answer into a UI event
    /// (a redraw when it gives none).
    pub(super) fn ask<F>(&self, cmd: Command, then: F)
    where
        F: FnOnce(Result<Reply, SessionError>) -> Option<UiEvent> + Send + 'static,
    {
        let s = self.session.clone();
        let tx = self.tx.clone();
        let in_flight = self.in_flight.clone();
        let id = in_flight.start();
        tokio::spawn(async move {
            let res = s.send(Origin::Human, cmd).await;
            in_flight.end(id);
            let _ = tx.send(then(res).unwrap_or(UiEvent::Redraw));
        });
    }

    /// Sends `cmd`; only a failure is worth showing.
    pub(super) fn send(&self, cmd: Command) {
        self.ask(cmd, |res| {
            res.err().map(|e| UiEvent::Message(e.to_string()))
        });
    }

    pub(super) fn waiting(&self) -> bool {
        self.in_flight.slow()
    }
}
