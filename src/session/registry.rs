//! Several sessions at once, each with an id, one of them current.

use crate::sync::Locked;
use std::sync::{Arc, Mutex};

use super::config::LaunchConfig;
use super::error::SessionError;
use super::handle::SessionHandle;

#[derive(Clone)]
pub struct Registry {
    inner: Arc<Mutex<Inner>>,
    /// The current session's id, for controllers that follow it (the TUI
    /// shows the session an agent launched).
    current: tokio::sync::watch::Sender<Option<String>>,
    /// The person's approvals of agent side effects, for every session.
    approvals: super::approval::Approvals,
    /// An agent has connected (the TUI gives it a pane from then on).
    agent_joined: Arc<std::sync::atomic::AtomicBool>,
}

impl Default for Registry {
    fn default() -> Self {
        Registry {
            inner: Default::default(),
            current: tokio::sync::watch::Sender::new(None),
            approvals: Default::default(),
            agent_joined: Default::default(),
        }
    }
}

#[derive(Default)]
struct Inner {
    sessions: Vec<SessionHandle>,
    current: Option<String>,
    next: u64,
    /// Launches under way: they count against the cap from their start, so
    /// that launches made at once cannot all pass it.
    launching: usize,
}

/// A soft cap so a runaway client cannot fork-bomb the machine.
pub const MAX_SESSIONS: usize = 16;
/// The most the cap may be set to.
pub const MAX_SESSIONS_LIMIT: usize = 256;

static CAP: std::sync::OnceLock<usize> = std::sync::OnceLock::new();

/// Sets the cap on open sessions for this process (the `max_sessions`
/// setting), once, before any launch.
pub fn set_max_sessions(n: usize) -> Result<(), SessionError> {
    if n == 0 || n > MAX_SESSIONS_LIMIT {
        return Err(SessionError::invalid(
            "max_sessions",
            format!("{n} is out of range; use 1 to {MAX_SESSIONS_LIMIT}"),
        ));
    }
    let _ = CAP.set(n);
    Ok(())
}

pub fn max_sessions() -> usize {
    CAP.get().copied().unwrap_or(MAX_SESSIONS)
}

/// A place under the cap, held while a launch is under way.
struct Reserved<'a>(&'a Registry);

impl Drop for Reserved<'_> {
    fn drop(&mut self) {
        let mut g = self.0.lock();
        g.launching = g.launching.saturating_sub(1);
    }
}

impl Registry {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.locked()
    }

    pub fn approvals(&self) -> &super::approval::Approvals {
        &self.approvals
    }

    /// An agent connected to these sessions.
    pub fn note_agent_joined(&self) {
        self.agent_joined
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    pub fn agent_joined(&self) -> bool {
        self.agent_joined.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub async fn launch(&self, config: LaunchConfig) -> Result<SessionHandle, SessionError> {
        let (id, reserved) = {
            let mut g = self.lock();
            let cap = max_sessions();
            if g.sessions.len() + g.launching >= cap {
                return Err(SessionError::TooManySessions(cap));
            }
            g.next += 1;
            g.launching += 1;
            (format!("s{}", g.next), Reserved(self))
        };
        let handle = SessionHandle::launch(id.clone(), config).await?;
        let mut g = self.lock();
        g.launching = g.launching.saturating_sub(1);
        std::mem::forget(reserved);
        g.sessions.push(handle.clone());
        g.current = Some(id.clone());
        drop(g);
        self.current.send_replace(Some(id));
        Ok(handle)
    }

    /// The named session, or the current one.
    pub fn get(&self, id: Option<&str>) -> Result<SessionHandle, SessionError> {
        let g = self.lock();
        let wanted = match id {
            Some(i) => i.to_string(),
            None => g.current.clone().ok_or(SessionError::NoneRunning)?,
        };
        g.sessions
            .iter()
            .find(|s| s.id == wanted)
            .cloned()
            .ok_or(SessionError::NoSession(wanted))
    }

    /// Makes `id` the current session: tools without `session_id` act on
    /// it, and the TUI shows it.
    pub fn set_current(&self, id: &str) -> Result<(), SessionError> {
        let mut g = self.lock();
        if !g.sessions.iter().any(|s| s.id == id) {
            return Err(SessionError::NoSession(id.to_string()));
        }
        g.current = Some(id.to_string());
        drop(g);
        self.current.send_replace(Some(id.to_string()));
        Ok(())
    }

    pub fn list(&self) -> (Vec<SessionHandle>, Option<String>) {
        let g = self.lock();
        (g.sessions.clone(), g.current.clone())
    }

    /// Forgets a session; its engine ends when the last handle drops.
    pub fn remove(&self, id: &str) {
        let mut g = self.lock();
        g.sessions.retain(|s| s.id != id);
        if g.current.as_deref() == Some(id) {
            g.current = g.sessions.last().map(|s| s.id.clone());
            let now = g.current.clone();
            drop(g);
            self.current.send_replace(now);
        }
    }

    /// Tells when the current session changes.
    pub fn watch_current(&self) -> tokio::sync::watch::Receiver<Option<String>> {
        self.current.subscribe()
    }

    pub fn clear(&self) {
        let mut g = self.lock();
        g.sessions.clear();
        g.current = None;
        drop(g);
        self.current.send_replace(None);
    }
}
