//! The engine actor: the only code that mutates session state. It never
//! awaits the adapter inline; requests run in tasks whose results come back
//! as closures applied here, so any adapter message order is handled.

mod autopsy;
mod breakpoints;
mod build;
mod child_closed;
mod children;
mod compile_error;
mod condition_check;
mod condition_errors;
mod condition_probe;
mod connection;
mod console_watch;
mod control;
mod core_stop;
mod dap_ids;
mod data_breakpoints;
mod detach;
mod entry;
mod events;
mod exact_exceptions;
mod exceptions;
mod functions;
mod hits;
mod initialized;
mod inspect;
mod journal_output;
mod line_runs;
mod line_steps;
mod native;
mod opening;
mod program_watch;
mod purity;
mod reverse;
mod scopes;
mod startup;
mod terminal;
mod threads;
mod tracepoints;
mod tree;

use crate::sync::Locked;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use super::SessionEvent;
use super::command::{Envelope, Reply};
use super::config::LaunchConfig;
use super::connector::SharedConnector;
use super::error::SessionError;
use super::output::OutputBuffer;
use super::sources::SharedSourceCache;
use super::trace::TraceLog;
use super::types::{Change, Origin, RunState, Snapshot};
pub(super) use connection::Conn;
use tree::{ConnMsg, ConnTree};

/// The value of a `Result`, or its error sent as the command's reply and
/// the handler left.
macro_rules! or_reply {
    ($result:expr, $reply:ident) => {
        match $result {
            Ok(v) => v,
            Err(e) => {
                let _ = $reply.send(Err(e));
                return;
            }
        }
    };
}
pub(super) use or_reply;

pub(super) type Apply = Box<dyn FnOnce(&mut Engine) + Send>;
pub(super) type ReplyTx = oneshot::Sender<Result<Reply, SessionError>>;

/// How many changes the snapshot remembers.
const CHANGE_HISTORY: usize = 32;

pub struct Engine {
    config: LaunchConfig,
    snap: Snapshot,
    snap_tx: watch::Sender<Arc<Snapshot>>,
    events: broadcast::Sender<SessionEvent>,
    output: Arc<Mutex<OutputBuffer>>,
    trace: Arc<Mutex<TraceLog>>,
    person: crate::session::person_log::SharedPersonLog,
    next_warning: u64,
    /// A condition's error told by an adapter that stops on it, waiting
    /// for the stop at its breakpoint: (the breakpoint, the error).
    condition_error: Option<(u64, String)>,
    /// A condition's error the adapter reported as its stop (delve's
    /// exception stop), for the read of that stop.
    stop_condition_error: Option<String>,
    /// A condition whose failure the adapter reported without its error,
    /// which the output lines after the report tell.
    condition_report: Option<String>,
    apply_tx: mpsc::UnboundedSender<Apply>,
    /// The focused adapter connection: the one that stopped last, where
    /// commands go. Everything tied to it is dropped whole on restart.
    conn: Conn,
    /// The session's other connections (child sessions, or the root while
    /// a child has the focus).
    tree: ConnTree,
    /// Every connection's events, tagged with its id.
    conn_tx: mpsc::UnboundedSender<(u32, ConnMsg)>,
    conn_rx: mpsc::UnboundedReceiver<(u32, ConnMsg)>,
    sources: SharedSourceCache,
    next_bp_id: u64,
    hits: crate::session::hits::HitCounts,
    /// Rises at every resume; a stop fetched under an older value is stale.
    run_gen: u64,
    /// Counts stale-binary checks: only the latest one's answer lands.
    stale_checks: u64,
    dirty: bool,
    /// Tracepoint hits are counted but not yet published.
    hits_pending: bool,
    /// The start of a tracepoint hit whose end the adapter sends in a
    /// later output event (an adapter may send a value's lines one by one).
    trace_partial: Option<String>,
    connector: SharedConnector,
    /// The last adapter being let go (disconnect, then kill), to wait on.
    releasing: Option<Released>,
    /// The program's own terminal, made afresh at each start; None for an
    /// attach, or where none could be made.
    terminal: Option<Arc<super::terminal::ProgramTerminal>>,
    journal: Option<super::journal::Journal>,
    /// How far into the program's output the journal has been given.
    journal_output_at: u64,
    /// What a detach ended by a person or an agent must undo first.
    leave: detach::LeaveRunning,
    /// Where the adapter writes the program's exit code (`Spawned::exit_code_file`).
    exit_code_file: Option<std::path::PathBuf>,
    /// Where the adapter has the program's crash dump written
    /// (`--keep-core`), and when this run started, so an older dump there
    /// is not taken for this run's.
    crash_dump: Option<(std::path::PathBuf, std::time::SystemTime)>,
    /// Set while a process's stop is taken in but not shown: another's is.
    holding_stop: bool,
    /// Commands that came while a stopped child's closed connection is
    /// weighed (`child_closed`): run once it is known whether the adapter lives.
    awaiting_root: Option<Vec<crate::session::command::Envelope>>,
    /// The build step under way, for the root it builds for.
    build_task: Option<(u32, tokio::task::AbortHandle)>,
}

type Released = futures::future::Shared<futures::future::BoxFuture<'static, ()>>;

pub struct EngineParts {
    pub snap_tx: watch::Sender<Arc<Snapshot>>,
    pub events: broadcast::Sender<SessionEvent>,
    pub output: Arc<Mutex<OutputBuffer>>,
    pub trace: Arc<Mutex<TraceLog>>,
    pub person: crate::session::person_log::SharedPersonLog,
    pub connector: SharedConnector,
    pub journal: Option<super::journal::Journal>,
}

impl Engine {
    pub fn new(
        config: LaunchConfig,
        snap: Snapshot,
        parts: EngineParts,
        apply_tx: mpsc::UnboundedSender<Apply>,
    ) -> Self {
        let (conn_tx, conn_rx) = mpsc::unbounded_channel();
        let mut snap = snap;
        snap.recording = recording_for(&config);
        Engine {
            config,
            snap,
            snap_tx: parts.snap_tx,
            events: parts.events,
            output: parts.output,
            trace: parts.trace,
            person: parts.person,
            next_warning: 1,
            condition_error: None,
            stop_condition_error: None,
            condition_report: None,
            apply_tx,
            conn: Conn::default(),
            tree: ConnTree::default(),
            conn_tx,
            conn_rx,
            sources: Default::default(),
            next_bp_id: 1,
            hits: Default::default(),
            run_gen: 0,
            stale_checks: 0,
            dirty: false,
            hits_pending: false,
            trace_partial: None,
            connector: parts.connector,
            releasing: None,
            terminal: None,
            journal: parts.journal,
            journal_output_at: 0,
            leave: Default::default(),
            exit_code_file: None,
            crash_dump: None,
            holding_stop: false,
            awaiting_root: None,
            build_task: None,
        }
    }

    pub async fn run(
        mut self,
        mut commands: mpsc::UnboundedReceiver<Envelope>,
        mut applies: mpsc::UnboundedReceiver<Apply>,
    ) {
        for (i, spec) in self.config.breakpoints.clone().into_iter().enumerate() {
            let adapter = self.config.adapter;
            let unfound = spec
                .function
                .as_deref()
                .and_then(|f| adapter.check_function(&self.config.spec(), f).err())
                .or_else(|| {
                    let h = spec.hit_condition.as_deref()?;
                    adapter.hit_condition(h).err()
                });
            let id = self.add_breakpoint(spec, self.config.origin, false);
            if let Some(why) = unfound
                && let Some(b) = self.snap.breakpoints.iter_mut().find(|b| b.id == id)
            {
                // Kept, unverified, with the reason, as a bad line would be.
                b.message = Some(why);
            }
            if self.config.start_disabled.contains(&i)
                && let Some(b) = self.snap.breakpoints.iter_mut().find(|b| b.id == id)
            {
                b.enabled = false;
            }
        }
        self.snap.exception_filters = self.config.exception_filters.clone().unwrap_or_else(|| {
            self.config
                .adapter
                .default_exception_filters()
                .iter()
                .map(|s| s.to_string())
                .collect()
        });
        self.check_stale_binary_unless_building();
        self.start_adapter();
        self.publish();
        loop {
            tokio::select! {
                biased;
                Some(apply) = applies.recv() => apply(&mut self),
                Some((id, msg)) = self.conn_rx.recv() => self.on_conn_msg(id, msg),
                cmd = commands.recv() => match cmd {
                    Some(env) => self.on_command(env),
                    // Every handle is gone: nobody can see this session any more.
                    None => break,
                },
            }
            self.publish();
        }
        self.shutdown().await;
    }

    fn publish(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        self.snap.epoch += 1;
        let snap = Arc::new(self.snap.clone());
        self.snap_tx.send_replace(snap.clone());
        self.journal_output();
        if let Some(j) = &self.journal {
            j.published(snap.clone());
        }
        self.emit(SessionEvent::Published(snap));
    }

    /// The adapter answered the resume. Only a waiter that runs out of
    /// time reads that, so the snapshot it will read is amended in place:
    /// publishing would wake every follower, and notify every agent, once
    /// more per step for nothing.
    fn forget_unanswered(&mut self) {
        self.snap_tx.send_if_modified(|s| {
            if s.unanswered.is_some() {
                Arc::make_mut(s).unanswered = None;
            }
            false
        });
    }

    fn touch(&mut self, origin: Option<Origin>, what: impl Into<String>) {
        self.dirty = true;
        let what = what.into();
        if !what.is_empty() {
            let change = Change {
                epoch: self.snap.epoch + 1,
                origin,
                what,
            };
            if origin == Some(Origin::Human) {
                self.person.locked().push(change.clone());
            }
            self.snap.changes.push(change);
            let n = self.snap.changes.len();
            if n > CHANGE_HISTORY {
                self.snap.changes.drain(..n - CHANGE_HISTORY);
            }
        }
    }

    fn emit(&self, e: SessionEvent) {
        let _ = self.events.send(e);
    }

    fn spawn<F>(&self, fut: F)
    where
        F: std::future::Future<Output = Apply> + Send + 'static,
    {
        let tx = self.apply_tx.clone();
        tokio::spawn(async move {
            let _ = tx.send(fut.await);
        });
    }

    // ---- start-up -------------------------------------------------------

    fn fail(&mut self, message: String) {
        tracing::warn!("session failed: {message}");
        self.stop_build();
        self.snap.state = RunState::Error;
        self.snap.error = Some(message.clone());
        self.touch(None, format!("the session failed: {message}"));
        self.emit(SessionEvent::Failed(message));
        let root = self.tree.root;
        if let Some(p) = self.conn_by_id_mut(root).and_then(|c| c.process.as_mut()) {
            p.kill_all();
        }
    }

    /// Whether the adapter said at `initialize` that it has a capability.
    fn supports(&self, capability: &str) -> bool {
        self.conn
            .capabilities
            .get(capability)
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(false)
    }

    /// As `check_stale_binary`; a build step checks once it built.
    fn check_stale_binary_unless_building(&mut self) {
        if self.config.build.is_some() {
            self.snap.stale_source = None;
        } else {
            self.check_stale_binary();
        }
    }

    /// Whether the program is older than a source of its language; checked
    /// at every start, as the person may have rebuilt in between. The walk
    /// of the workspace runs off the engine, which goes on meanwhile.
    fn check_stale_binary(&mut self) {
        let program = match self.config.spec().target {
            crate::adapters::Target::Program(p) => p,
            _ => return,
        };
        let root = self.config.workspace.root.clone();
        // Until this check answers, an earlier one's finding may be wrong.
        self.snap.stale_source = None;
        self.stale_checks += 1;
        let check = self.stale_checks;
        self.spawn(async move {
            let found = tokio::task::spawn_blocking(move || {
                crate::adapters::stale::newer_source(&program, &root)
            })
            .await
            .ok()
            .flatten();
            Box::new(move |e: &mut Engine| {
                if e.stale_checks == check {
                    e.snap.stale_source = found;
                    e.dirty = true;
                }
            }) as Apply
        });
    }

    /// A launched program ends with its session; an attached one is left
    /// running, as it was found, unless the attach or the end asked
    /// otherwise.
    fn disconnect_arguments(&self) -> serde_json::Value {
        json!({"terminateDebuggee": self.config.ends_debuggee()})
    }

    /// Children first (the leaves before their parents), then the root,
    /// each given half a second; then every process of the tree dies.
    async fn shutdown(&mut self) {
        self.stop_build();
        let leave = self.leave_running();
        let (clients, processes) = self.take_tree();
        let args = self.disconnect_arguments();
        leave.send(clients.last()).await;
        for c in clients {
            let _ = c
                .request_with_timeout("disconnect", Some(args.clone()), Duration::from_millis(500))
                .await;
        }
        for mut p in processes {
            p.kill_all();
            p.wait().await;
        }
    }
}

/// What a session on this adapter can do backwards, before it asks.
fn recording_for(config: &LaunchConfig) -> super::recording::Recording {
    let adapter = config.adapter;
    let mut r = super::recording::Recording::for_adapter(
        adapter.name(),
        adapter.recorder().map(|r| r.method),
    );
    if config.is_core() {
        r.cannot = Some("a core file does not run, so nothing can be recorded".into());
    }
    r
}
