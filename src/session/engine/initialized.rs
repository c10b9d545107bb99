//! The deadline for `initialized`: nothing is configured, and the program
//! never runs, until the adapter says it. Once it has answered `launch` (or
//! `attach`) every adapter says it at once or has already, so one that
//! stays silent longer than any answer may take is broken, and the start
//! fails rather than waiting as long as the adapter lives.

use super::connection::ConnState;
use super::{Apply, Engine};
use crate::session::types::RunState;

impl Engine {
    /// Arms the deadline on connection `id`, whose start was just answered.
    pub(super) fn expect_initialized(&mut self, id: u32) {
        if self.conn_by_id(id).is_none_or(said_initialized) {
            return;
        }
        let wait = self.config.request_timeout;
        self.spawn(async move {
            tokio::time::sleep(wait).await;
            Box::new(move |e: &mut Engine| {
                // A session already over keeps the end it had.
                let over = matches!(e.snap.state, RunState::Exited | RunState::Error);
                let silent = !over
                    && e.conn_by_id(id)
                        .is_some_and(|c| c.state == ConnState::Starting && !said_initialized(c));
                if silent {
                    e.conn_failed(
                        id,
                        format!(
                            "the debug adapter never sent `initialized` (waited {} ms)",
                            wait.as_millis()
                        ),
                    );
                }
            }) as Apply
        });
    }
}

fn said_initialized(c: &super::Conn) -> bool {
    c.configuring || c.configured || c.initialized_early
}
