//! A link in an exception's chain of causes, as a language reads it from
//! the program (Python's `__cause__` and `__context__`) or an adapter
//! reports it (DAP's `innerException`).

use serde::{Deserialize, Serialize};

/// One cause of the exception, `depth` links away from it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InnerException {
    #[serde(rename = "type")]
    pub type_name: String,
    pub message: String,
    pub depth: usize,
    /// How it is linked: `cause` (raised from it), `context` (raised while
    /// handling it), `inner` (the adapter's own chain).
    pub relation: String,
}
