//! The person's commands to the engine, sent without waiting: the UI keeps
//! drawing and taking keys, and spins while an answer is slow to come.

use crate::sync::Locked;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use std::future::Future;

use super::{App, UiEvent};
use crate::session::{SessionError, SessionHandle};

/// An answer slower than this shows the spinner; quicker ones would only
/// make the status bar flicker.
const SLOW: Duration = Duration::from_millis(150);

/// When each outstanding command was sent.
#[derive(Default)]
pub(super) struct InFlight(Mutex<Vec<(u64, Instant)>>, std::sync::atomic::AtomicU64);

impl InFlight {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(u64, Instant)>> {
        self.0.locked()
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
    /// Runs `call` on the session (as the person, by the caller's word);
    /// `then` turns the answer into a UI event (a redraw when it gives none).
    pub(super) fn ask<T, Call, Fut, Then>(&self, call: Call, then: Then)
    where
        Call: FnOnce(SessionHandle) -> Fut + Send + 'static,
        Fut: Future<Output = Result<T, SessionError>> + Send + 'static,
        T: Send + 'static,
        Then: FnOnce(Result<T, SessionError>) -> Option<UiEvent> + Send + 'static,
    {
        let s = self.session.clone();
        let tx = self.tx.clone();
        let in_flight = self.in_flight.clone();
        let id = in_flight.start();
        tokio::spawn(async move {
            let res = call(s).await;
            in_flight.end(id);
            let _ = tx.send(then(res).unwrap_or(UiEvent::Redraw));
        });
    }

    /// Runs `call`; only a failure is worth showing.
    pub(super) fn send<T, Call, Fut>(&self, call: Call)
    where
        Call: FnOnce(SessionHandle) -> Fut + Send + 'static,
        Fut: Future<Output = Result<T, SessionError>> + Send + 'static,
        T: Send + 'static,
    {
        self.ask(call, |res| {
            res.err().map(|e| UiEvent::Message(e.to_string()))
        });
    }

    pub(super) fn waiting(&self) -> bool {
        self.in_flight.slow()
    }
}
