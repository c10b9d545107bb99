//! Ending every session when a host stops, so no adapter or debuggee
//! outlives it.

use std::time::Duration;

use crate::session::{Origin, Registry};

/// How long the sessions get to end before they are dropped (dropping
/// kills what is left).
const GRACE: Duration = Duration::from_secs(3);

pub async fn end_all(registry: &Registry) {
    let (sessions, _) = registry.list();
    let ends = sessions.iter().map(|s| s.terminate(Origin::Agent));
    let _ = tokio::time::timeout(GRACE, futures::future::join_all(ends)).await;
    registry.clear();
}

/// Resolves on SIGTERM, SIGHUP or Ctrl-C.
pub async fn signalled() {
    use tokio::signal::unix::{SignalKind, signal};
    tokio::select! {
        _ = on(signal(SignalKind::terminate()).ok()) => {},
        _ = on(signal(SignalKind::hangup()).ok()) => {},
        _ = tokio::signal::ctrl_c() => {},
    }
}

/// Resolves on the signal's first arrival; never when it could not be
/// listened for.
async fn on(s: Option<tokio::signal::unix::Signal>) {
    match s {
        Some(mut s) => {
            s.recv().await;
        }
        None => std::future::pending().await,
    }
}
