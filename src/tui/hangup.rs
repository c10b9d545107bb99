//! When the terminal goes away. The UI's loop ends on SIGHUP, or on the
//! error its next draw meets; pairdbg then exits with 129 (128 + SIGHUP),
//! as a shell reports a hung-up job. The last way out: a UI stuck in the
//! terminal (a write to a terminal that no longer reads, a reader spinning
//! on a descriptor that reads empty for ever) never sees the hang-up, so a
//! watch on another thread ends every session itself.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::session::{Origin, Registry};

/// What the UI's own ending may take before this one steps in.
const GRACE: Duration = Duration::from_secs(5);

/// The exit status after a hang-up.
pub const EXIT_STATUS: u8 = 129;

static HUNG_UP: AtomicBool = AtomicBool::new(false);

/// Records that the terminal hung up.
pub fn note() {
    HUNG_UP.store(true, Ordering::SeqCst);
}

/// Whether the UI ended because its terminal went away: SIGHUP came, or the
/// terminal answers every write with EIO, as a hung-up one does.
pub fn ended_the_ui(result: &std::io::Result<()>) -> bool {
    HUNG_UP.load(Ordering::SeqCst)
        || matches!(result, Err(e) if e.raw_os_error() == Some(libc::EIO))
}

pub async fn watch(registry: Registry) {
    let Ok(mut hangup) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())
    else {
        return;
    };
    hangup.recv().await;
    note();
    tokio::time::sleep(GRACE).await;
    tracing::warn!("the terminal hung up and the UI did not end: ending every session");
    let (sessions, _) = registry.list();
    for s in sessions {
        let _ = tokio::time::timeout(Duration::from_secs(3), s.terminate(Origin::Human)).await;
    }
    // A terminal that still exists (the signal came while the UI was stuck
    // writing to it) gets its line modes back. Only the modes: writing the
    // screen's escapes could block as the UI's own write does.
    let _ = crossterm::terminal::disable_raw_mode();
    // Exiting skips destructors: the sessions were ended above.
    std::process::exit(EXIT_STATUS.into());
}
