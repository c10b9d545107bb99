//! The session's events, taken in bursts: everything already queued is read
//! at once and answered with one frame. Reading one event per frame fell
//! behind an agent stepping flat out, and a receiver that lags keeps the
//! broadcast channel full, each queued `Published` event holding a whole
//! snapshot alive: the TUI's memory grew with it.

use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use crate::session::SessionEvent;

/// What a burst of events asks of the UI.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Burst {
    /// The program or the debugger wrote output.
    pub output: bool,
    /// An agent's call finished.
    pub activity: bool,
}

impl Burst {
    fn note(&mut self, ev: &SessionEvent) {
        match ev {
            SessionEvent::Output | SessionEvent::DebuggerOutput => self.output = true,
            SessionEvent::Activity => self.activity = true,
            _ => {}
        }
    }

    /// Events were lost to lag: whatever they said is read again in full.
    fn lagged(&mut self) {
        self.output = true;
        self.activity = true;
    }
}

/// `first` (what `recv` gave) and every event queued behind it.
pub(super) fn drain(
    first: Result<SessionEvent, RecvError>,
    rx: &mut Receiver<SessionEvent>,
) -> Burst {
    let mut burst = Burst::default();
    match first {
        Ok(ev) => burst.note(&ev),
        Err(RecvError::Lagged(_)) => burst.lagged(),
        Err(RecvError::Closed) => return burst,
    }
    loop {
        match rx.try_recv() {
            Ok(ev) => burst.note(&ev),
            Err(TryRecvError::Lagged(_)) => burst.lagged(),
            Err(TryRecvError::Empty | TryRecvError::Closed) => break,
        }
    }
    burst
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::broadcast;

    #[test]
    fn a_burst_is_read_to_the_end_and_remembers_what_it_asked() {
        let (tx, mut rx) = broadcast::channel(64);
        for _ in 0..40 {
            tx.send(SessionEvent::BreakpointsChanged).expect("send");
        }
        tx.send(SessionEvent::Activity).expect("send");
        tx.send(SessionEvent::BreakpointsChanged).expect("send");
        let first = rx.try_recv().map_err(|_| RecvError::Closed);
        let burst = drain(first, &mut rx);
        assert_eq!(
            burst,
            Burst {
                output: false,
                activity: true
            }
        );
        assert_eq!(rx.len(), 0, "nothing is left queued for this receiver");
    }

    #[test]
    fn a_lagged_receiver_reads_output_and_activity_again() {
        let (tx, mut rx) = broadcast::channel(4);
        for _ in 0..10 {
            tx.send(SessionEvent::BreakpointsChanged).expect("send");
        }
        let burst = drain(Err(RecvError::Lagged(6)), &mut rx);
        assert!(burst.output && burst.activity);
        assert_eq!(rx.len(), 0);
    }
}
