//! The controllers' side of a session.

use crate::sync::Locked;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{broadcast, mpsc, oneshot, watch};

use super::command::{Command, Envelope, Reply};
use super::config::LaunchConfig;
use super::connector::{SharedConnector, Spawn};
use super::engine::{Engine, EngineParts};
use super::error::SessionError;
use super::output::{OutputBuffer, OutputRead, Speaker, Stream};
use super::trace::{TraceLog, TraceRead};
use super::types::{Origin, RunState, Snapshot};
use super::{Activity, ControlMode, SessionEvent};

#[derive(Clone)]
pub struct SessionHandle {
    pub id: String,
    commands: mpsc::UnboundedSender<Envelope>,
    snapshot: watch::Receiver<Arc<Snapshot>>,
    events: broadcast::Sender<SessionEvent>,
    output: Arc<Mutex<OutputBuffer>>,
    trace: Arc<Mutex<TraceLog>>,
    activity: Arc<Mutex<std::collections::VecDeque<Activity>>>,
    person: crate::session::person_log::SharedPersonLog,
    attached: bool,
    just_my_code: bool,
    language: &'static dyn crate::adapters::Language,
    /// Who launched the program: the agent may end the person's only with
    /// their leave.
    launched_by: super::Origin,
}

/// Calls kept for the activity pane.
const ACTIVITY_KEPT: usize = 200;
/// How long a request failed by its adapter's loss waits for the session
/// to show it (the engine takes it within milliseconds).
const LOSS_SEEN_WITHIN: Duration = Duration::from_secs(1);

/// Why a wait ended.
#[derive(Debug, Clone)]
pub enum WaitOutcome {
    Stopped(Arc<Snapshot>),
    Exited(Arc<Snapshot>),
    Failed(Arc<Snapshot>),
    /// Still running when the time ran out.
    TimedOut(Arc<Snapshot>),
    /// Attached to a process that keeps running.
    Running(Arc<Snapshot>),
}

impl SessionHandle {
    /// Checks the adapter, then starts the engine. Returns once the adapter
    /// process is spawned; the program starts in the background.
    pub async fn launch(id: String, config: LaunchConfig) -> Result<SessionHandle, SessionError> {
        let probe = config.adapter.probe(&config.spec());
        // The check runs while the adapter starts: it can cost an interpreter's
        // start-up, and a launch should not pay for it in sequence. Without
        // the adapter the handle is dropped, which ends the engine and its
        // adapter process.
        let handle = Self::launch_with(id, config, Arc::new(Spawn));
        probe.await?;
        Ok(handle)
    }

    /// Starts the engine on any adapter connection.
    pub fn launch_with(
        id: String,
        config: LaunchConfig,
        connector: SharedConnector,
    ) -> SessionHandle {
        let mut snap = Snapshot::new(
            id.clone(),
            config.display_name(),
            config.workspace.root.clone(),
        );
        snap.language = crate::adapters::value::LanguageOf(Some(config.adapter.language()));
        snap.taint = super::secrets::Taint::of_launch(&config.env, &config.args);
        let (snap_tx, snap_rx) = watch::channel(Arc::new(snap.clone()));
        let (events, _) = broadcast::channel(8192);
        let output = Arc::new(Mutex::new(OutputBuffer::default()));
        let trace = Arc::new(Mutex::new(TraceLog::default()));
        let person = crate::session::person_log::SharedPersonLog::default();
        let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
        let (apply_tx, apply_rx) = mpsc::unbounded_channel();
        // What matters to those who ask is that the program outlives us.
        let attached = !config.ends_debuggee();
        let launched_by = config.origin;
        let just_my_code = config.just_my_code;
        let language = config.adapter.language();
        let journal = super::journal::Journal::start(super::journal::Launched {
            session: id.clone(),
            program: config.display_name(),
            args: config.args.clone(),
            workspace: config.workspace.root.clone(),
            taint: snap.taint.clone(),
        });
        let engine = Engine::new(
            config,
            snap,
            EngineParts {
                snap_tx,
                events: events.clone(),
                output: output.clone(),
                trace: trace.clone(),
                person: person.clone(),
                connector,
                journal,
            },
            apply_tx,
        );
        tokio::spawn(engine.run(cmd_rx, apply_rx));
        SessionHandle {
            id,
            commands: cmd_tx,
            snapshot: snap_rx,
            events,
            output,
            trace,
            person,
            activity: Default::default(),
            attached,
            just_my_code,
            language,
            launched_by,
        }
    }

    /// Who launched the program.
    pub fn launched_by(&self) -> super::Origin {
        self.launched_by
    }

    /// The person's actions kept, oldest first, and how many were dropped.
    pub fn person_actions(&self) -> (Vec<crate::session::types::Change>, u64) {
        self.person.locked().read()
    }

    /// What this language's tracepoint messages show differently.
    pub fn log_message_note(&self) -> Option<&'static str> {
        self.language.log_message_note()
    }

    /// What in `expression` may change the program, in its language.
    pub fn side_effect(&self, expression: &str) -> Option<String> {
        self.language.side_effect(expression)
    }

    /// Whether the adapter checks expressions for side effects itself
    /// (`Language::purity_probe`).
    pub fn checks_purity(&self) -> bool {
        self.language.purity_probe("").is_some()
    }

    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.snapshot.borrow().clone()
    }

    /// The secrets this session's program was given at launch.
    pub fn taint(&self) -> super::secrets::Taint {
        self.snapshot.borrow().taint.clone()
    }

    pub fn subscribe(&self) -> broadcast::Receiver<SessionEvent> {
        self.events.subscribe()
    }

    pub fn watch_snapshots(&self) -> watch::Receiver<Arc<Snapshot>> {
        self.snapshot.clone()
    }

    pub fn control_mode(&self) -> ControlMode {
        self.snapshot().control
    }

    /// Records an agent's call for the person to see.
    pub fn record_activity(&self, a: Activity) {
        let mut log = self.activity.locked();
        log.push_back(a);
        while log.len() > ACTIVITY_KEPT {
            log.pop_front();
        }
        drop(log);
        let _ = self.events.send(SessionEvent::Activity);
    }

    pub fn activity(&self) -> Vec<Activity> {
        self.activity.locked().iter().cloned().collect()
    }

    pub(super) async fn send(
        &self,
        origin: Origin,
        command: Command,
    ) -> Result<Reply, SessionError> {
        let (reply, rx) = oneshot::channel();
        self.commands
            .send(Envelope {
                origin,
                command,
                reply,
            })
            .map_err(|_| SessionError::Gone)?;
        let res = rx.await.map_err(|_| SessionError::Gone)?;
        if let Err(SessionError::AdapterGone(_)) = &res {
            self.loss_seen().await;
        }
        res
    }

    /// Waits, briefly, until the session shows its adapter's loss: the
    /// engine learns of it from the connection, a moment after the request
    /// that failed with it, and a caller told "the adapter exited" must
    /// not then read the session as stopped.
    async fn loss_seen(&self) {
        let mut snap = self.snapshot.clone();
        let shown = snap.wait_for(|s| {
            !matches!(
                s.state,
                RunState::Stopped | RunState::Running | RunState::Starting
            )
        });
        let _ = tokio::time::timeout(LOSS_SEEN_WITHIN, shown).await;
    }

    pub fn read_output(&self, since: u64, max_bytes: usize) -> OutputRead {
        self.output.locked().read(since, max_bytes, true)
    }

    /// The program's output from `since`, but not before the current run,
    /// as at most `max` pieces that keep their stream, each with the cursor
    /// after it. Read under one lock so the cursors are exact.
    pub fn read_output_entries(&self, since: u64, max: usize) -> OutputEntries {
        let buf = self.output.locked();
        let run_start = buf.run_range(buf.run_count()).map_or(0, |(s, _)| s);
        let from = since.max(run_start);
        let dropped = buf.start().saturating_sub(from);
        let mut at = from.max(buf.start());
        let (pieces, next) = buf.pieces(from, usize::MAX);
        let more = pieces.len() > max;
        let mut entries = Vec::new();
        for p in pieces.into_iter().take(max) {
            at += p.text.len() as u64;
            entries.push((p.stream, p.text.to_string(), at));
        }
        OutputEntries {
            next: if more { at } else { next },
            entries,
            more,
            dropped,
        }
    }

    /// Output between two cursors with each run's part headed when the read
    /// reaches back before the current run.
    pub fn read_output_runs(
        &self,
        speaker: Speaker,
        since: u64,
        until: u64,
        max_bytes: usize,
    ) -> OutputRead {
        self.output
            .locked()
            .read_runs_of(speaker, since, until, max_bytes)
    }

    /// How many runs the program has had (a restart begins one), and the
    /// bytes of run `n` (from 1) when it has one.
    pub fn output_run(&self, speaker: Speaker, n: Option<usize>) -> (usize, Option<(u64, u64)>) {
        let buf = self.output.locked();
        let ring = buf.of(speaker);
        let runs = ring.run_count();
        (runs, ring.run_range(n.unwrap_or(runs)))
    }

    /// The debugger's console from a cursor, for a controller that shows
    /// it apart from the program's output (the TUI); also the cursor after.
    pub fn read_debugger_console(&self, since: u64, max_bytes: usize) -> (String, u64) {
        let buf = self.output.locked();
        let r = buf.debugger().read(since, max_bytes, false);
        (r.text, r.next)
    }

    /// How many bytes of output the program has written in all, kept or not.
    pub fn output_end(&self) -> u64 {
        self.output.locked().end()
    }

    /// The oldest byte the output buffer still holds: what came before it
    /// was dropped when the buffer filled.
    pub fn output_start(&self) -> u64 {
        self.output.locked().start()
    }

    /// Output from a cursor with each run's stream, for a controller that
    /// shows streams apart (the TUI); also the cursor after it.
    pub fn read_output_streams(
        &self,
        since: u64,
        max_bytes: usize,
    ) -> (Vec<(super::output::Stream, String)>, u64) {
        let buf = self.output.locked();
        let (pieces, next) = buf.pieces(since, max_bytes);
        (
            pieces
                .into_iter()
                .map(|p| (p.stream, p.text.to_string()))
                .collect(),
            next,
        )
    }

    /// Tracepoint records from a cursor, at most `max` of them.
    /// The trace log itself, for a reader that must see every record even
    /// when it falls behind the event stream.
    pub fn trace_log(&self) -> Arc<Mutex<TraceLog>> {
        self.trace.clone()
    }

    pub fn read_trace(&self, since: u64, max: usize) -> TraceRead {
        self.trace.locked().read(since, max)
    }

    pub fn output_tail(&self, lines: usize) -> Vec<String> {
        self.output.locked().tail_lines(lines)
    }

    /// Waits for a stop newer than `after_stop_seq`, the exit, or the timeout.
    pub async fn wait_for_stop(&self, after_stop_seq: u64, timeout: Duration) -> WaitOutcome {
        self.wait_until(timeout, |snap| match snap.state {
            RunState::Stopped if snap.stop_seq > after_stop_seq => Some(WaitOutcome::Stopped),
            _ => None,
        })
        .await
    }

    /// Waits until an attach is done (the program runs, stopped or not),
    /// the session ended, or the time ran out.
    pub async fn wait_attached(&self, timeout: Duration) -> WaitOutcome {
        self.wait_until(timeout, |snap| match snap.state {
            RunState::Stopped if snap.stop.is_some() => Some(WaitOutcome::Stopped),
            RunState::Running => Some(WaitOutcome::Running),
            _ => None,
        })
        .await
    }

    /// Waits until `done` names the outcome of a snapshot, the session
    /// exits or fails, or the time runs out.
    async fn wait_until(
        &self,
        timeout: Duration,
        done: impl Fn(&Snapshot) -> Option<fn(Arc<Snapshot>) -> WaitOutcome>,
    ) -> WaitOutcome {
        let mut rx = self.snapshot.clone();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let snap = rx.borrow_and_update().clone();
            if let Some(outcome) = done(&snap) {
                return outcome(snap);
            }
            match snap.state {
                RunState::Exited => return WaitOutcome::Exited(snap),
                RunState::Error => return WaitOutcome::Failed(snap),
                // Waiting longer on an adapter that stopped answering only
                // hides that it did.
                _ if snap.silent.is_some() => return WaitOutcome::TimedOut(snap),
                _ => {}
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => continue,
                Ok(Err(_)) => return WaitOutcome::Failed(snap),
                // The latest, amended in place since it was published.
                Err(_) => return WaitOutcome::TimedOut(rx.borrow().clone()),
            }
        }
    }

    /// Whether the program outlives this session: an attach that was not
    /// asked to end it.
    pub fn is_attached(&self) -> bool {
        self.attached
    }

    /// Whether the program's libraries are left out of breakpoints, steps
    /// and searches.
    pub fn just_my_code(&self) -> bool {
        self.just_my_code
    }

    /// The source files the stopped program has loaded, where its language
    /// can list them (Python's imported modules): what a search covers
    /// beyond the workspace once `just_my_code` is off.
    pub async fn loaded_sources(
        &self,
        origin: Origin,
    ) -> Result<Vec<std::path::PathBuf>, SessionError> {
        let Some(expr) = self.language.loaded_sources_expression() else {
            return Ok(Vec::new());
        };
        let v = self
            .evaluate_value(origin, expr.to_string(), 0, true)
            .await?;
        Ok(self.language.parse_loaded_sources(&v.value))
    }

    /// True once the engine task has gone.
    pub fn is_closed(&self) -> bool {
        self.commands.is_closed()
    }
}

/// Pieces of the program's output, each with the cursor after it.
#[derive(Debug, Clone)]
pub struct OutputEntries {
    pub entries: Vec<(Stream, String, u64)>,
    /// Pass this as `since` to continue.
    pub next: u64,
    pub more: bool,
    /// Bytes between `since` and the oldest kept byte that were dropped.
    pub dropped: u64,
}
