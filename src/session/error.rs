use crate::adapters::AdapterError;
use crate::dap::DapError;

#[derive(Debug, Clone, thiserror::Error)]
pub enum SessionError {
    /// Bad input: names the field and the limit.
    #[error("{field}: {message}")]
    Invalid { field: String, message: String },
    /// The command does not fit the session's state; the text names the state.
    #[error("{0}")]
    State(String),
    #[error("{0}")]
    Adapter(#[from] AdapterError),
    #[error("{0}")]
    Dap(#[from] DapError),
    /// A value's path names nothing at this stop: a step or a frame may
    /// have taken it away.
    #[error("{field}: {path} does not exist")]
    NoSuchValue { field: String, path: String },
    /// No breakpoint is `what` (`#3`, `at app.py:10`).
    #[error("{field}: no breakpoint {what}")]
    NoBreakpoint { field: String, what: String },
    /// The adapter cannot do this; the text names the adapter.
    #[error("{0}")]
    Unsupported(String),
    /// An evaluated expression raised.
    #[error("{0}")]
    Evaluate(String),
    #[error("no session {0}")]
    NoSession(String),
    /// No session has been started, so none is current.
    #[error("no session is running")]
    NoneRunning,
    /// As many sessions are open as the registry allows.
    #[error("{0} sessions are open or starting, the limit (`max_sessions` in config.toml)")]
    TooManySessions(usize),
    /// The person drives; the agent may read but not move the program.
    #[error("the person has taken control; reading still works")]
    ControlTaken,
    #[error("the session has ended")]
    Gone,
    /// The adapter went with the request unanswered; the text says what it
    /// was doing. The session fails with it, though its state may not yet
    /// say so.
    #[error("The session failed: {0}.")]
    AdapterGone(String),
    #[error("{0}")]
    Timeout(String),
}

impl SessionError {
    pub fn invalid(field: &str, message: impl Into<String>) -> Self {
        SessionError::Invalid {
            field: field.to_string(),
            message: message.into(),
        }
    }
}
