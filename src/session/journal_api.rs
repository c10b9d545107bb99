//! The session's journal as a typed call: its records, up to date.

use super::command::{Command, Reply};
use super::error::SessionError;
use super::handle::SessionHandle;
use super::journal::{self, Record};
use super::types::Origin;

impl SessionHandle {
    /// This session's journal, read once everything so far is written.
    pub async fn journal_records(&self, origin: Origin) -> Result<Vec<Record>, SessionError> {
        let path = match self.send(origin, Command::SyncJournal).await? {
            Reply::Journal(p) => p,
            other => {
                return Err(SessionError::State(format!(
                    "the engine gave an unexpected answer: {other:?}"
                )));
            }
        };
        tokio::task::spawn_blocking(move || {
            journal::read(&path).map_err(|e| {
                SessionError::State(format!("cannot read the journal {}: {e}", path.display()))
            })
        })
        .await
        .map_err(|e| SessionError::State(format!("reading the journal failed: {e}")))?
    }
}
