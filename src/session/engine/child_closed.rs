//! A stopped child whose connection closed without a `terminated`. Either
//! the child alone went (the root's process runs on), or the whole adapter
//! died and the root's connection is closing too, a moment behind. Until
//! the root answers, or is found closed, the session is neither: a step
//! then must not be refused as if the program ran, so commands wait.

use std::time::Duration;

use super::{Apply, Engine};
use crate::session::types::RunState;

/// How long the root may take to answer before it is taken as alive.
const ROOT_ANSWER: Duration = Duration::from_secs(2);

impl Engine {
    /// Asks the root a question that costs nothing (`threads`): its answer
    /// moves the focus off the ended child, its closed connection fails
    /// the session, as the adapter's death.
    pub(super) fn refocus_once_root_answers(&mut self, ended: u32) {
        let root = self.tree.root;
        let Some(client) = self.conn_by_id(root).and_then(|c| c.client.clone()) else {
            return self.refocus(ended);
        };
        // Closed already, its close not yet handled: the adapter died.
        if client.is_closed() {
            if !matches!(self.snap.state, RunState::Exited | RunState::Error) {
                self.focus(root);
                self.on_adapter_closed();
            }
            return;
        }
        self.awaiting_root.get_or_insert_with(Vec::new);
        let answer = client.request_with_timeout("threads", None, ROOT_ANSWER);
        self.spawn(async move {
            let gone = answer.await.is_err() && client.is_closed();
            Box::new(move |e: &mut Engine| {
                if gone && !matches!(e.snap.state, RunState::Exited | RunState::Error) {
                    e.focus(root);
                    e.on_adapter_closed();
                } else if e.conn.id == ended {
                    e.refocus(ended);
                }
                for env in e.awaiting_root.take().unwrap_or_default() {
                    e.on_command(env);
                }
            }) as Apply
        });
    }
}
