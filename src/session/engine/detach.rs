//! Leaving a remote program as it was found. A debug server can outlive
//! the session and keep what the session did to the program: a
//! multi-client server may keep its breakpoints and leave a halted program
//! halted after a client disconnects. So before a detaching `disconnect`,
//! the session takes its breakpoints back and resumes a stopped program.
//! All of it goes to the connection that holds the program (a child where
//! the root only launches), before any connection is let go.

use std::time::Duration;

use serde_json::{Value, json};

use super::Engine;
use crate::session::link::Link;
use crate::session::types::{BreakpointKind, RunState};

/// Each request's wait: the session is ending, and a slow server must not
/// hold that up for long.
const EACH: Duration = Duration::from_millis(500);

/// The requests that undo the session's hold on a remote program, in
/// order, and the connection they go to (None: the root's).
#[derive(Default)]
pub struct LeaveRunning {
    to: Option<Link>,
    requests: Vec<(&'static str, Value)>,
}

impl Engine {
    /// Nothing for a launch or a local attach. A remote attach that ends
    /// the program asks the adapter's way to end it, where it has one.
    pub(super) fn leave_running(&self) -> LeaveRunning {
        self.leave(self.config.ends_debuggee())
    }

    /// A restart of a remote attach lets the program go, whatever ending
    /// the session would do to it, and attaches again once it has: a debug
    /// server may take one client at a time.
    pub(super) fn detach_for_restart(&mut self) {
        self.leave = self.leave(false);
        self.release_with(json!({"terminateDebuggee": false}));
    }

    pub(super) fn attach_once_released(&mut self) {
        let root = self.tree.root;
        let released = self.releasing.clone();
        self.spawn(async move {
            if let Some(r) = released {
                r.await;
            }
            Box::new(move |e: &mut Engine| {
                // Not if a newer restart or an end came meanwhile.
                if e.tree.root == root && e.snap.state == RunState::Starting {
                    e.start_adapter();
                }
            }) as super::Apply
        });
    }

    fn leave(&self, ends_program: bool) -> LeaveRunning {
        if self.config.remote.is_none() {
            return LeaveRunning::default();
        }
        let to = self.conn.client.clone();
        if ends_program {
            let end = self.config.adapter.quirks().end_remote_program;
            return LeaveRunning {
                to,
                requests: end
                    .map(|e| ("evaluate", json!({"expression": e, "context": "repl"})))
                    .into_iter()
                    .collect(),
            };
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
        LeaveRunning { to, requests }
    }
}

impl LeaveRunning {
    pub async fn send(self, root: Option<&Link>) {
        let Some(client) = self.to.as_ref().or(root) else {
            return;
        };
        for (command, args) in self.requests {
            let _ = client.request_with_timeout(command, Some(args), EACH).await;
        }
    }
}
