//! The REST sessions: each one's launch, its current run in the engine's
//! registry (none while idle, so an idle session costs no process), and
//! what its operations found. At most MAX_SESSIONS at once.

use crate::sync::Locked;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::error::ApiError;
use super::model::{LastBreakpoint, RunError, Status};
use super::validation::Entry;
use axum::http::StatusCode;

/// The document's soft limit on concurrent sessions.
pub const MAX_SESSIONS: usize = 1000;

/// How a run ended, when it did.
#[derive(Debug, Clone)]
pub enum Ended {
    Completed,
    Failed(RunError),
}

#[derive(Debug)]
pub struct State {
    pub entry: Entry,
    /// The engine session of the current run.
    pub run: Option<String>,
    pub ended: Option<Ended>,
    pub last_breakpoint: Option<LastBreakpoint>,
    /// Hits per (project-relative file, line), for `hitCount`.
    pub hits: HashMap<(String, u64), u64>,
    pub last_run_ms: Option<f64>,
    pub total_run_ms: f64,
    /// Output bytes of the runs before the current one.
    pub earlier_output: u64,
}

pub struct RestSession {
    pub id: String,
    pub state: Mutex<State>,
    /// Held for the length of an operation: one at a time per session.
    pub busy: tokio::sync::Mutex<()>,
}

impl RestSession {
    pub fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.locked()
    }

    pub fn is_busy(&self) -> bool {
        self.busy.try_lock().is_err()
    }
}

#[derive(Clone, Default)]
pub struct Table {
    inner: Arc<Mutex<HashMap<String, Arc<RestSession>>>>,
}

impl Table {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<RestSession>>> {
        self.inner.locked()
    }

    pub fn create(&self, entry: Entry) -> Result<String, ApiError> {
        let mut g = self.lock();
        if g.len() >= MAX_SESSIONS {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "SessionLimitReached",
                format!(
                    "{} sessions are open, the limit is {MAX_SESSIONS}; end one with DELETE /sessions/{{sessionId}}",
                    g.len()
                ),
            ));
        }
        let id = uuid::Uuid::new_v4().to_string();
        g.insert(
            id.clone(),
            Arc::new(RestSession {
                id: id.clone(),
                state: Mutex::new(State {
                    entry,
                    run: None,
                    ended: None,
                    last_breakpoint: None,
                    hits: HashMap::new(),
                    last_run_ms: None,
                    total_run_ms: 0.0,
                    earlier_output: 0,
                }),
                busy: tokio::sync::Mutex::new(()),
            }),
        );
        Ok(id)
    }

    pub fn get(&self, id: &str) -> Result<Arc<RestSession>, ApiError> {
        self.lock()
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::no_session(id))
    }

    pub fn remove(&self, id: &str) -> Option<Arc<RestSession>> {
        self.lock().remove(id)
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every session, for ending them all.
    pub fn all(&self) -> Vec<Arc<RestSession>> {
        self.lock().values().cloned().collect()
    }
}

impl State {
    /// The status before looking at the engine: what the table alone knows.
    pub fn settled_status(&self) -> Option<Status> {
        match (&self.ended, &self.run) {
            (Some(Ended::Completed), _) => Some(Status::Completed),
            (Some(Ended::Failed(_)), _) => Some(Status::Error),
            (None, None) => Some(Status::Idle),
            (None, Some(_)) => None,
        }
    }
}
