//! Long waits that no client gives up on: a client that can hear progress
//! hears it while the program runs; any other gets an answer before its own
//! request timeout, saying the program still runs.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use crate::session::handle::WaitOutcome;

/// Tells the caller's client how long the wait has run, out of how long.
pub type Progress =
    Arc<dyn Fn(Duration, Duration) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// How the current call may wait: set by the front end for the whole call.
#[derive(Clone, Default)]
pub struct Pace {
    /// Where progress goes, when the client asked for it.
    pub progress: Option<Progress>,
    /// The longest single wait when there is no progress to send: a front
    /// end whose clients time out (MCP's common 60 s) sets it.
    pub cap: Option<Duration>,
}

tokio::task_local! {
    static PACE: Pace;
}

/// Runs a call with its client's pace in reach of its waits.
pub async fn with_pace<F: Future>(pace: Pace, call: F) -> F::Output {
    PACE.scope(pace, call).await
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
    let pace = PACE.try_with(Pace::clone).unwrap_or_default();
    let Some(progress) = pace.progress else {
        let stretch = pace.cap.map_or(timeout, |c| timeout.min(c));
        let outcome = wait(stretch).await;
        let capped =
            (stretch < timeout && matches!(outcome, WaitOutcome::TimedOut(_))).then_some(stretch);
        return Waited { outcome, capped };
    };
    // Often enough that a client's timer, reset by each progress, never fires.
    let cap = pace.cap.unwrap_or(Duration::from_secs(55));
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
        progress(elapsed, timeout).await;
    }
}
