//! The last way out when the terminal goes away: a closed terminal can
//! leave the input reader spinning on a descriptor that reads empty for
//! ever, so the UI's loop never sees the hang-up. This watch runs on
//! another thread and ends every session itself.

use std::time::Duration;

use crate::session::{Origin, Registry};

/// What the UI's own ending may take before this one steps in.
const GRACE: Duration = Duration::from_secs(5);

pub async fn watch(registry: Registry) {
    let Ok(mut hangup) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())
    else {
        return;
    };
    hangup.recv().await;
    tokio::time::sleep(GRACE).await;
    tracing::warn!("the terminal hung up and the UI did not end: ending every session");
    let (sessions, _) = registry.list();
    for s in sessions {
        let _ = tokio::time::timeout(Duration::from_secs(3), s.terminate(Origin::Human)).await;
    }
    // Exiting skips destructors: the sessions were ended above.
    std::process::exit(129);
}
