//! A program that dies while its adapter holds it stopped: the adapter,
//! waiting on nothing, never says so (delve), and the session would show a
//! stop that is gone. The program's end is watched apart from the adapter.

use super::{Apply, Engine};
use crate::dap::exit_watch::{self, Ended};
use crate::session::types::RunState;

/// How long an adapter may take to show it is still there.
const ADAPTER_ALIVE_WITHIN: std::time::Duration = std::time::Duration::from_secs(2);

impl Engine {
    /// Watches the launched program `pid` for the session's root, while the
    /// session lasts (a detached program may outlive it).
    pub(super) fn watch_program(&self, pid: u32) {
        let tx = self.apply_tx.clone();
        tokio::spawn(async move {
            tokio::select! {
                ended = exit_watch::ended(pid) => {
                    let apply: Apply = Box::new(move |e: &mut Engine| e.on_program_gone(pid, ended));
                    let _ = tx.send(apply);
                }
                () = tx.closed() => {}
            }
        });
    }

    /// Only a stop the adapter still shows is stale: a running program's
    /// end the adapter reports itself, with its last output, and an end
    /// pairdbg asked for is said as such. Except where the adapter does not
    /// report a program killed while it held it stopped
    /// (`Quirks::silent_program_death`): it acknowledges the next step and
    /// says nothing, so the program killed by a signal reads as running.
    fn on_program_gone(&mut self, pid: u32, ended: Ended) {
        let root = self.tree.root;
        let same = self.conn_by_id(root).is_some_and(|c| c.pid == Some(pid));
        let unreported = self.config.adapter.quirks().silent_program_death
            && self.snap.state == RunState::Running
            && matches!(ended, Ended::Signal(_));
        let stale = self.snap.state == RunState::Stopped || unreported;
        if !same || !stale || self.conn.disconnecting {
            return;
        }
        // A program dies too when its adapter is killed, stopped or running:
        // killed with its tracer, or ending itself once its debugger's
        // connection is gone (pydevd exits with a code). That is the
        // adapter's death, which its closed connection tells, whichever
        // news comes first. Only an adapter that still answers says the
        // program died on its own.
        if let Some(client) = self.conn.client.clone() {
            let (run_gen, state) = (self.run_gen, self.snap.state);
            self.spawn(async move {
                let asked = client
                    .request_with_timeout("threads", None, ADAPTER_ALIVE_WITHIN)
                    .await;
                Box::new(move |e: &mut Engine| {
                    let gone = matches!(asked, Err(crate::dap::DapError::Closed));
                    if !gone && e.run_gen == run_gen && e.snap.state == state {
                        e.program_ended(pid, ended);
                    }
                }) as Apply
            });
            return;
        }
        self.program_ended(pid, ended);
    }

    fn program_ended(&mut self, pid: u32, ended: Ended) {
        tracing::debug!("the program {pid} ended unreported: {ended:?}");
        // Exactly as the kernel kept it, whatever the adapter said before.
        self.conn.pending_exit_code = match ended {
            Ended::Code(c) => Some(c.into()),
            Ended::Signal(_) | Ended::Unread => None,
        };
        if let Ended::Signal(s) = ended {
            self.conn.pending_signal = Some(s);
        }
        self.on_terminated();
    }
}
