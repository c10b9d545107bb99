//! Long waits that no client gives up on: a client that sent a progress
//! token hears progress while the program runs; any other gets an answer
//! before the common 60 s request timeout, saying the program still runs.

use std::future::Future;
use std::time::Duration;

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};

use crate::session::handle::WaitOutcome;

/// Where the current tool call reports progress, if its client asked.
#[derive(Clone)]
pub struct Progress {
    pub peer: Peer<RoleServer>,
    pub token: ProgressToken,
}

tokio::task_local! {
    static PROGRESS: Option<Progress>;
}

/// Runs a tool call with its client's progress token in reach of its waits.
pub async fn with_progress<F: Future>(progress: Option<Progress>, call: F) -> F::Output {
    PROGRESS.scope(progress, call).await
}

/// The longest single wait without progress: under the 60 s that clients
/// commonly give a request. `PAIRDBG_LONG_WAIT_MS` shortens it for tests.
pub fn single_wait_cap() -> Duration {
    std::env::var("PAIRDBG_LONG_WAIT_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_secs(55))
}

/// How a wait went, and whether it was cut short of the time asked.
pub struct Waited {
    pub outcome: WaitOutcome,
    /// The wait ended at the single-call cap, before `timeout` ran out.
    pub capped: Option<Duration>,
}

/// Waits up to `timeout` with `wait` (called again for each stretch): in
/// stretches with progress between them when the client asked for
/// progress, else in one stretch of at most the cap.
pub async fn long_wait<F, Fut>(timeout: Duration, mut wait: F) -> Waited
where
    F: FnMut(Duration) -> Fut,
    Fut: Future<Output = WaitOutcome>,
{
    let cap = single_wait_cap();
    let progress = PROGRESS.try_with(|p| p.clone()).ok().flatten();
    let Some(p) = progress else {
        let stretch = timeout.min(cap);
        let outcome = wait(stretch).await;
        let capped =
            (stretch < timeout && matches!(outcome, WaitOutcome::TimedOut(_))).then_some(stretch);
        return Waited { outcome, capped };
    };
    // Often enough that a client's timer, reset by each progress, never fires.
    let every = (cap / 5).max(Duration::from_millis(100));
    let start = tokio::time::Instant::now();
    loop {
        let left = timeout.saturating_sub(start.elapsed());
        let outcome = wait(left.min(every)).await;
        let elapsed = start.elapsed();
        if !matches!(outcome, WaitOutcome::TimedOut(_)) || elapsed >= timeout {
            return Waited {
                outcome,
                capped: None,
            };
        }
        let mut n = ProgressNotificationParam::new(p.token.clone(), elapsed.as_millis() as f64);
        n.total = Some(timeout.as_millis() as f64);
        n.message = Some("the program is running; waiting for a stop".into());
        if let Err(e) = p.peer.notify_progress(n).await {
            tracing::debug!("progress not sent: {e}");
        }
    }
}

/// The tool result of a wait: a capped one says how long it waited, that
/// the program still runs, and how to keep waiting.
pub fn result(
    views: &super::view::Views,
    session: &crate::session::SessionHandle,
    waited: Waited,
    timeout_ms: u64,
) -> rmcp::model::CallToolResult {
    match (waited.capped, waited.outcome) {
        (Some(cap), WaitOutcome::TimedOut(snap)) => super::format::ok(
            views,
            &snap,
            format!(
                "── RUNNING ──\nStill running after {} ms of the {timeout_ms} ms asked (one call waits at most {} ms unless the client asks for progress). Call debug_wait to keep waiting from epoch {}.",
                cap.as_millis(),
                cap.as_millis(),
                snap.epoch
            ),
        ),
        (_, outcome) => super::format::outcome(views, session, outcome, timeout_ms),
    }
}
