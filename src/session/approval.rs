//! The person's say over an agent's side effects: when they ask for it, an
//! agent call that may change the program waits here until they approve or
//! deny it. It lives beside the sessions, not in a front end, so the TUI
//! that answers and the MCP server that asks see the same requests.

use crate::sync::Locked;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{oneshot, watch};

/// How a request for approval ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Approval is not asked for: go ahead.
    NotRequired,
    Approved,
    Denied,
    /// Nobody answered in time.
    TimedOut,
}

/// A request the person has not answered yet.
#[derive(Debug, Clone)]
pub struct Request {
    pub id: u64,
    /// What the agent wants to run, as the person reads it.
    pub what: String,
}

struct Pending {
    request: Request,
    reply: oneshot::Sender<bool>,
}

#[derive(Clone)]
pub struct Approvals {
    required: Arc<AtomicBool>,
    next: Arc<AtomicU64>,
    pending: Arc<Mutex<VecDeque<Pending>>>,
    /// Bumped on every change, so a front end redraws.
    changed: watch::Sender<u64>,
}

impl Default for Approvals {
    fn default() -> Self {
        Approvals {
            required: Default::default(),
            next: Default::default(),
            pending: Default::default(),
            changed: watch::Sender::new(0),
        }
    }
}

impl Approvals {
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<Pending>> {
        self.pending.locked()
    }

    fn bump(&self) {
        self.changed.send_modify(|n| *n += 1);
    }

    pub fn required(&self) -> bool {
        self.required.load(Ordering::SeqCst)
    }

    /// Turning it off lets whatever waits go ahead: the person no longer
    /// wants to be asked.
    pub fn set_required(&self, on: bool) {
        self.required.store(on, Ordering::SeqCst);
        if !on {
            for p in self.lock().drain(..) {
                let _ = p.reply.send(true);
            }
        }
        self.bump();
    }

    pub fn watch(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// The oldest request waiting for an answer.
    pub fn pending(&self) -> Option<Request> {
        self.lock().front().map(|p| p.request.clone())
    }

    /// Answers request `id`; false when it is no longer waiting.
    pub fn answer(&self, id: u64, approve: bool) -> bool {
        let taken = {
            let mut g = self.lock();
            g.iter()
                .position(|p| p.request.id == id)
                .and_then(|i| g.remove(i))
        };
        let answered = taken.is_some_and(|p| p.reply.send(approve).is_ok());
        self.bump();
        answered
    }

    /// Asks the person about `what`, waiting up to `timeout`.
    pub async fn ask(&self, what: String, timeout: Duration) -> Verdict {
        if !self.required() {
            return Verdict::NotRequired;
        }
        self.confirm(what, timeout).await
    }

    /// Asks the person about `what` whether or not they asked to approve
    /// side effects: for what only they may allow.
    pub async fn confirm(&self, what: String, timeout: Duration) -> Verdict {
        let id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let (reply, answer) = oneshot::channel();
        self.lock().push_back(Pending {
            request: Request { id, what },
            reply,
        });
        self.bump();
        let verdict = match tokio::time::timeout(timeout, answer).await {
            Ok(Ok(true)) => Verdict::Approved,
            Ok(Ok(false)) | Ok(Err(_)) => Verdict::Denied,
            Err(_) => Verdict::TimedOut,
        };
        // Unanswered: it leaves the person's screen too.
        let mut g = self.lock();
        let before = g.len();
        g.retain(|p| p.request.id != id);
        let removed = g.len() != before;
        drop(g);
        if removed {
            self.bump();
        }
        verdict
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn not_asked_unless_required() {
        let a = Approvals::default();
        assert_eq!(
            a.ask("x".into(), Duration::from_millis(10)).await,
            Verdict::NotRequired
        );
    }

    #[tokio::test]
    async fn an_answer_reaches_the_asker() {
        let a = Approvals::default();
        a.set_required(true);
        let mut changed = a.watch();
        let asker = {
            let a = a.clone();
            tokio::spawn(async move { a.ask("f()".into(), Duration::from_secs(5)).await })
        };
        let req = loop {
            if let Some(r) = a.pending() {
                break r;
            }
            let _ = changed.changed().await;
        };
        assert_eq!(req.what, "f()");
        assert!(a.answer(req.id, false));
        assert_eq!(asker.await.ok(), Some(Verdict::Denied));
        assert!(a.pending().is_none());
    }

    #[tokio::test]
    async fn silence_times_out_and_clears_the_request() {
        let a = Approvals::default();
        a.set_required(true);
        assert_eq!(
            a.ask("g()".into(), Duration::from_millis(20)).await,
            Verdict::TimedOut
        );
        assert!(a.pending().is_none());
    }
}
