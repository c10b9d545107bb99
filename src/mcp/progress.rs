//! MCP's side of long waits: progress notifications for a client that sent
//! a progress token, and the longest wait for one that did not.

use std::time::Duration;

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};

use crate::agent::waiting::{Pace, Progress};

/// The longest single wait without progress: under the 60 s that clients
/// commonly give a request. `PAIRDBG_LONG_WAIT_MS` shortens it for tests.
pub fn single_wait_cap() -> Duration {
    std::env::var("PAIRDBG_LONG_WAIT_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_secs(55))
}

/// Sends `notifications/progress` for `token` to `peer`.
pub fn notifier(peer: Peer<RoleServer>, token: ProgressToken) -> Progress {
    std::sync::Arc::new(move |elapsed: Duration, total: Duration| {
        let peer = peer.clone();
        let mut n = ProgressNotificationParam::new(token.clone(), elapsed.as_millis() as f64);
        n.total = Some(total.as_millis() as f64);
        n.message = Some("the program is running; waiting for a stop".into());
        Box::pin(async move {
            if let Err(e) = peer.notify_progress(n).await {
                tracing::debug!("progress not sent: {e}");
            }
        })
    })
}

/// How a call from this client may wait: with progress when it sent a
/// token, and never past the common request timeout without it.
pub fn pace_of(context: &rmcp::service::RequestContext<RoleServer>) -> Pace {
    Pace {
        progress: context
            .meta
            .get_progress_token()
            .map(|token| notifier(context.peer.clone(), token)),
        cap: Some(single_wait_cap()),
    }
}
