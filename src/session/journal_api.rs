//! The session's journal as a typed call: its hand-off card, up to date.

use super::command::{Command, Reply};
use super::error::SessionError;
use super::handle::SessionHandle;
use super::journal;
use super::types::Origin;

impl SessionHandle {
    /// The hand-off card of this session, from its journal once everything
    /// so far is written there.
    pub async fn journal_card(&self, origin: Origin) -> Result<String, SessionError> {
        let path = match self.send(origin, Command::SyncJournal).await? {
            Reply::Journal(p) => p,
            other => {
                return Err(SessionError::State(format!(
                    "the engine gave an unexpected answer: {other:?}"
                )));
            }
        };
        tokio::task::spawn_blocking(move || {
            journal::read(&path)
                .map(|records| journal::render_card(&records))
                .map_err(|e| {
                    SessionError::State(format!("cannot read the journal {}: {e}", path.display()))
                })
        })
        .await
        .map_err(|e| SessionError::State(format!("reading the journal failed: {e}")))?
    }
}
