//! What an agent needs beyond the engine, for every front end that serves
//! one (MCP, REST, the shell CLI): starting a session and waiting for its
//! first stop, moving and waiting, what changed since the agent's last
//! call, the exit summary, the input limits and the reply's envelope.
//! Front ends translate their requests into these calls and dress the
//! replies; none holds debugging logic of its own.

pub mod arguments;
pub mod budget;
pub mod discovery;
pub mod ending;
pub mod format;
pub mod moves;
pub mod names;
pub mod reply;
pub mod side_effects;
pub mod views;
pub mod waiting;

use crate::session::validate::Workspace;
use crate::session::{Origin, Registry, SessionError, SessionHandle};

pub use moves::Moved;
pub use names::Names;
pub use reply::Reply;
pub use views::Views;

/// How long a call waits for a stop unless told.
pub const DEFAULT_WAIT_MS: u64 = 30_000;

/// One front end's agent side of the sessions it can reach.
#[derive(Clone)]
pub struct Agent {
    pub registry: Registry,
    pub workspace: Workspace,
    /// What this front end's agent last saw of each session.
    pub views: Views,
    pub names: &'static Names,
    /// Who this front end's calls come from, in the session's records.
    pub origin: Origin,
    /// Told of every session this agent starts or calls on: the sessions
    /// a connection drives are the ones it hears about.
    pub on_session: Option<SessionHook>,
}

/// See `Agent::on_session`.
pub type SessionHook = std::sync::Arc<dyn Fn(&str) + Send + Sync>;

impl Agent {
    pub fn new(
        registry: Registry,
        workspace: Workspace,
        views: Views,
        names: &'static Names,
    ) -> Self {
        Agent {
            registry,
            workspace,
            views,
            names,
            origin: Origin::Agent,
            on_session: None,
        }
    }

    pub fn on_session(mut self, hook: SessionHook) -> Self {
        self.on_session = Some(hook);
        self
    }

    pub(crate) fn driving(&self, s: &SessionHandle) {
        if let Some(hook) = &self.on_session {
            hook(&s.id);
        }
    }

    /// The same agent side, its calls recorded as coming from `origin`
    /// (the shell, a REST client) and its replies spelt with `names`.
    pub fn speaking_for(mut self, origin: Origin, names: &'static Names) -> Self {
        self.origin = origin;
        self.names = names;
        self
    }

    /// Failure, with the session's state when there is one.
    pub fn err(&self, s: Option<&SessionHandle>, e: &SessionError) -> Reply {
        format::err(self.names, s.map(|s| s.snapshot()).as_deref(), e)
    }

    /// The session `id` names, or the current one.
    pub fn session(&self, id: Option<&str>) -> Result<SessionHandle, Reply> {
        let s = self.registry.get(id).map_err(|e| self.err(None, &e))?;
        self.driving(&s);
        Ok(s)
    }

    /// A session call's result, its failure rendered with the session's state.
    pub fn checked<T>(&self, s: &SessionHandle, res: Result<T, SessionError>) -> Result<T, Reply> {
        res.map_err(|e| self.err(Some(s), &e))
    }
}
