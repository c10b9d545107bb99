//! The agent's expressions that may change the program: refused unless the
//! call says `allow_side_effects: true`, and then, when the person asked
//! to approve them, run only once they do.

use std::time::Duration;

use super::{Agent, Reply};
use crate::session::approval::Verdict;
use crate::session::{SessionError, SessionHandle};

/// What the agent is told went ahead: None, or how the person answered.
pub type Allowed = Option<&'static str>;

/// A tool's expressions to check before they run.
pub struct Gate<'a> {
    pub tool: &'a str,
    /// The parameter that holds them, named in a refusal.
    pub field: &'a str,
    pub expressions: &'a [&'a str],
    /// The frame they run in.
    pub frame_index: usize,
    pub allow: Option<bool>,
    /// How long the person has to approve them, where they asked to.
    pub timeout: Duration,
}

impl Agent {
    /// Checks the gate's expressions before they run. A refusal is the
    /// call's reply.
    pub async fn side_effects_gate(
        &self,
        s: &SessionHandle,
        gate: Gate<'_>,
    ) -> Result<Allowed, Reply> {
        let Gate {
            tool,
            field,
            expressions,
            frame_index,
            allow,
            timeout,
        } = gate;
        let mut flagged = None;
        for e in expressions {
            let Some(what) = s.side_effect(e) else {
                continue;
            };
            if allow == Some(true) || !s.checks_purity() {
                flagged = Some((*e, what, String::new()));
                break;
            }
            // Where the adapter can check purity itself, its word beats
            // the text scan's.
            match s
                .check_purity(self.origin, e.to_string(), frame_index)
                .await
            {
                Ok(()) => continue,
                Err(SessionError::Unsupported(m)) => {
                    flagged = Some((*e, what, format!(" ({m})")));
                }
                Err(_) => flagged = Some((*e, what, String::new())),
            }
            break;
        }
        let Some((expr, what, checked)) = flagged else {
            return Ok(None);
        };
        let refuse = |text: String| self.err(Some(s), &SessionError::invalid(field, text));
        if allow != Some(true) {
            return Err(refuse(format!(
                "{expr:?} {what} and may change the program{checked}; to run it, pass allow_side_effects: true"
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
