//! Whether the agent may end a session: one the person launched ends only
//! in Shared mode, and only once the person says yes with one key.

use std::time::Duration;

use super::{Agent, Reply, format};
use crate::session::approval::Verdict;
use crate::session::{ControlMode, Origin, SessionError, SessionHandle};

/// How long the person has to answer.
const ASK_FOR: Duration = Duration::from_secs(60);

impl Agent {
    /// Ok when the agent may end `s`; otherwise the reply that refuses.
    pub async fn may_end(&self, s: &SessionHandle) -> Result<(), Reply> {
        if s.launched_by() != Origin::Human {
            return Ok(());
        }
        let snap = s.snapshot();
        let refuse =
            |text: String| format::err(self.names, Some(&snap), &SessionError::State(text));
        if s.control_mode() == ControlMode::HumanOnly {
            return Err(refuse(format!(
                "the person launched this program and has taken control; it keeps running. \
                 Ask them in a note ({}) if it should end",
                self.names.note
            )));
        }
        let asked = format!(
            "{}: end the program you launched ({})",
            self.names.end, snap.program
        );
        match self.registry.approvals().confirm(asked, ASK_FOR).await {
            Verdict::Approved | Verdict::NotRequired => Ok(()),
            Verdict::Denied => Err(refuse(
                "the person launched this program and chose to keep it running; it was not ended"
                    .into(),
            )),
            Verdict::TimedOut => Err(refuse(format!(
                "the person launched this program and did not allow ending it within {} s; it keeps running",
                ASK_FOR.as_secs()
            ))),
        }
    }
}
