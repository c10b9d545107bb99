//! Leaving a remote program as it was found. A debug server can outlive
//! the session and keep what the session did to the program: a
//! multi-client server may keep its breakpoints and leave a halted program
//! halted after a client disconnects. So before a detaching `disconnect`,
//! the session takes its breakpoints back and resumes a stopped program.

use std::time::Duration;

use serde_json::{Value, json};

use super::Engine;
use crate::session::link::Link;
use crate::session::types::{BreakpointKind, RunState};

/// Each request's wait: the session is ending, and a slow server must not
/// hold that up for long.
const EACH: Duration = Duration::from_millis(500);

/// The requests that undo the session's hold on a remote program, in order.
#[derive(Default)]
pub struct LeaveRunning(Vec<(&'static str, Value)>);

impl Engine {
    /// Nothing for a launch, a local attach, or an attach that ends the
    /// program anyway.
    pub(super) fn leave_running(&self) -> LeaveRunning {
        if self.config.remote.is_none() || self.config.ends_debuggee() {
            return LeaveRunning(vec![]);
        }
        let mut requests = vec![];
        let mut files: Vec<&std::path::Path> = self
            .snap
            .breakpoints
            .iter()
            .filter(|b| b.kind != BreakpointKind::Function)
            .map(|b| b.file.as_path())
            .collect();
        files.sort();
        files.dedup();
        for f in files {
            requests.push((
                "setBreakpoints",
                json!({"source": {"path": f}, "breakpoints": []}),
            ));
        }
        if self
            .snap
            .breakpoints
            .iter()
            .any(|b| b.kind == BreakpointKind::Function)
        {
            requests.push(("setFunctionBreakpoints", json!({"breakpoints": []})));
        }
        requests.push(("setExceptionBreakpoints", json!({"filters": []})));
        if self.snap.state == RunState::Stopped {
            requests.push(("continue", json!({"threadId": self.conn.thread_id})));
        }
        LeaveRunning(requests)
    }
}

impl LeaveRunning {
    pub async fn send(self, client: &Link) {
        for (command, args) in self.0 {
            let _ = client.request_with_timeout(command, Some(args), EACH).await;
        }
    }
}
