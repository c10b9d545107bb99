//! The agent's expressions that may change the program: refused unless the
//! call says `allow_side_effects: true`, and then, when the person asked
//! to approve them, run only once they do.

use std::time::Duration;

use super::{Agent, Reply};
use crate::session::approval::Verdict;
use crate::session::{SessionError, SessionHandle};

/// What the agent is told went ahead: None, or how the person answered.
pub type Allowed = Option<&'static str>;

impl Agent {
    /// Checks `field`'s expressions before they run. A refusal is the
    /// call's reply.
    pub async fn side_effects_gate(
        &self,
        s: &SessionHandle,
        tool: &str,
        field: &str,
        expressions: &[&str],
        allow: Option<bool>,
        timeout: Duration,
    ) -> Result<Allowed, Reply> {
        let Some((expr, what)) = expressions
            .iter()
            .find_map(|e| s.side_effect(e).map(|w| (*e, w)))
        else {
            return Ok(None);
        };
        let refuse = |text: String| self.err(Some(s), &SessionError::invalid(field, text));
        if allow != Some(true) {
            return Err(refuse(format!(
                "{expr:?} {what} and may change the program; to run it, pass allow_side_effects: true"
            )));
        }
        let asked = format!("{tool} {field}: {expr}");
        match self.registry.approvals().ask(asked, timeout).await {
            Verdict::NotRequired => Ok(None),
            Verdict::Approved => Ok(Some("The person approved this side effect.")),
            Verdict::Denied => Err(refuse(format!(
                "the person denied {expr:?} ({what}); it did not run"
            ))),
            Verdict::TimedOut => Err(refuse(format!(
                "the person did not approve {expr:?} within {} ms; it did not run",
                timeout.as_millis()
            ))),
        }
    }
}
