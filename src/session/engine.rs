//! The engine actor: the only code that mutates session state. It never
//! awaits the adapter inline; requests run in tasks whose results come back
//! as closures applied here, so any adapter message order is handled.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::join_all;
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use super::command::{BreakpointSelector, Command, Envelope, Reply, StepKind, VariablesQuery};
use super::config::{BreakpointRequest, BreakpointSpec, LaunchConfig};
use super::connector::SharedConnector;
use super::error::SessionError;
use super::fetch::{self, SharedSourceCache, StopRequest};
use super::output::{OutputBuffer, Stream};
use super::types::{Breakpoint, Change, ExitInfo, Note, Origin, RunState, Snapshot, Var};
use super::{ControlMode, SessionEvent};
use crate::dap::adapters::debugpy;
use crate::dap::client::{DapClient, default_reverse_handler};
use crate::dap::envelope::Event;
use crate::dap::events::DapEvent;
use crate::dap::process::AdapterProcess;

type Apply = Box<dyn FnOnce(&mut Engine) + Send>;
type ReplyTx = oneshot::Sender<Result<Reply, SessionError>>;

/// How many changes the snapshot remembers.
const CHANGE_HISTORY: usize = 32;

pub struct Engine {
    config: LaunchConfig,
    snap: Snapshot,
    snap_tx: watch::Sender<Arc<Snapshot>>,
    events: broadcast::Sender<SessionEvent>,
    output: Arc<Mutex<OutputBuffer>>,
    apply_tx: mpsc::UnboundedSender<Apply>,
    client: Option<DapClient>,
    process: Option<AdapterProcess>,
    dap_events: Option<mpsc::UnboundedReceiver<Event>>,
    sources: SharedSourceCache,
    next_bp_id: u64,
    thread_id: i64,
    /// Rises at every resume; a stop fetched under an older value is stale.
    run_gen: u64,
    step_remaining: u32,
    step_kind: StepKind,
    pending_exit_code: Option<i64>,
    configured: bool,
    dirty: bool,
    /// (adapter's breakpoint id, ours), for `breakpoint` events.
    dap_ids: Vec<(i64, u64)>,
    last_top_frame: Option<i64>,
    last_locals_ref: Option<i64>,
    last_previews: Vec<(String, i64)>,
    mode: Arc<Mutex<ControlMode>>,
    connector: SharedConnector,
}

pub struct EngineParts {
    pub snap_tx: watch::Sender<Arc<Snapshot>>,
    pub events: broadcast::Sender<SessionEvent>,
    pub output: Arc<Mutex<OutputBuffer>>,
    pub mode: Arc<Mutex<ControlMode>>,
    pub connector: SharedConnector,
}

impl Engine {
    pub fn new(
        config: LaunchConfig,
        snap: Snapshot,
        parts: EngineParts,
        apply_tx: mpsc::UnboundedSender<Apply>,
    ) -> Self {
        Engine {
            config,
            snap,
            snap_tx: parts.snap_tx,
            events: parts.events,
            output: parts.output,
            apply_tx,
            client: None,
            process: None,
            dap_events: None,
            sources: Default::default(),
            next_bp_id: 1,
            thread_id: 0,
            run_gen: 0,
            step_remaining: 0,
            step_kind: StepKind::Over,
            pending_exit_code: None,
            configured: false,
            dirty: false,
            dap_ids: vec![],
            last_top_frame: None,
            last_locals_ref: None,
            last_previews: vec![],
            mode: parts.mode,
            connector: parts.connector,
        }
    }

    pub async fn run(
        mut self,
        mut commands: mpsc::UnboundedReceiver<Envelope>,
        mut applies: mpsc::UnboundedReceiver<Apply>,
    ) {
        for spec in self.config.breakpoints.clone() {
            self.add_breakpoint(spec, Origin::Agent, false);
        }
        self.snap.exception_filters = self.config.exception_filters.clone().unwrap_or_else(|| {
            debugpy::DEFAULT_EXCEPTION_FILTERS
                .iter()
                .map(|s| s.to_string())
                .collect()
        });
        self.start_adapter();
        self.publish();
        loop {
            tokio::select! {
                biased;
                Some(apply) = applies.recv() => apply(&mut self),
                ev = recv_event(&mut self.dap_events) => match ev {
                    Some(ev) => self.on_event(DapEvent::from_event(ev)),
                    None => self.on_adapter_closed(),
                },
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
        self.snap_tx.send_replace(Arc::new(self.snap.clone()));
    }

    fn touch(&mut self, origin: Option<Origin>, what: impl Into<String>) {
        self.dirty = true;
        let what = what.into();
        if !what.is_empty() {
            self.snap.changes.push(Change {
                epoch: self.snap.epoch + 1,
                origin,
                what,
            });
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

    fn start_adapter(&mut self) {
        if let Err(e) = self.spawn_adapter() {
            self.fail(e.to_string());
        }
    }

    /// Synchronous on purpose: fork and exec at most, so the actor never
    /// waits on the adapter. debugpy's presence was checked before the engine began.
    fn spawn_adapter(&mut self) -> Result<(), SessionError> {
        let conn = self.connector.connect(&self.config)?;
        let (client, events) = DapClient::start(
            conn.reader,
            conn.writer,
            self.config.request_timeout,
            default_reverse_handler(),
        );
        self.process = conn.process;
        self.dap_events = Some(events);
        self.client = Some(client.clone());
        self.configured = false;
        self.snap.info = conn.notes;
        let launch_args = conn.launch_arguments;
        let adapter_id = conn.adapter_id;
        self.spawn(async move {
            let init = client
                .request("initialize", Some(initialize_arguments(&adapter_id)))
                .await;
            Box::new(move |e: &mut Engine| match init {
                Err(err) => e.fail(format!("initialize failed: {err}")),
                Ok(caps) => {
                    e.snap.available_exception_filters = caps
                        .get("exceptionBreakpointFilters")
                        .and_then(Value::as_array)
                        .map(|a| {
                            a.iter()
                                .filter_map(|f| {
                                    Some((
                                        f.get("filter")?.as_str()?.to_string(),
                                        f.get("label")?.as_str()?.to_string(),
                                    ))
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    e.dirty = true;
                    // Sent now, answered whenever the adapter likes: debugpy
                    // holds this response until configurationDone.
                    let launch = client.request("launch", Some(launch_args));
                    e.spawn(async move {
                        let res = launch.await;
                        Box::new(move |e: &mut Engine| {
                            if let Err(err) = res {
                                e.fail(format!("launch failed: {err}"));
                            }
                        }) as Apply
                    });
                }
            }) as Apply
        });
        Ok(())
    }

    fn fail(&mut self, message: String) {
        tracing::warn!("session failed: {message}");
        self.snap.state = RunState::Error;
        self.snap.error = Some(message.clone());
        self.touch(None, format!("the session failed: {message}"));
        self.emit(SessionEvent::Failed(message));
        if let Some(p) = self.process.as_mut() {
            p.kill_all();
        }
    }

    /// Breakpoints, exception filters, then configurationDone.
    fn configure(&mut self) {
        let Some(client) = self.client.clone() else {
            return;
        };
        let files: BTreeSet<PathBuf> = self
            .snap
            .breakpoints
            .iter()
            .map(|b| b.file.clone())
            .collect();
        let bp_futs: Vec<_> = files
            .into_iter()
            .map(|f| {
                let (ids, args) = self.set_breakpoints_args(&f);
                let fut = client.request("setBreakpoints", Some(args));
                async move { (ids, fut.await) }
            })
            .collect();
        let exc = client.request(
            "setExceptionBreakpoints",
            Some(json!({"filters": self.snap.exception_filters})),
        );
        self.spawn(async move {
            let results = join_all(bp_futs).await;
            let exc = exc.await;
            let done = client.request("configurationDone", None).await;
            Box::new(move |e: &mut Engine| {
                for (ids, res) in results {
                    e.apply_breakpoint_result(&ids, res.map_err(|x| x.to_string()));
                }
                if let Err(err) = exc {
                    e.touch(None, format!("exception breakpoints were refused: {err}"));
                }
                match done {
                    Ok(_) => {
                        e.configured = true;
                        if e.snap.state == RunState::Starting {
                            e.snap.state = RunState::Running;
                            e.touch(None, "the program started");
                        }
                    }
                    Err(err) => e.fail(format!("configurationDone failed: {err}")),
                }
            }) as Apply
        });
    }

    // ---- adapter events -------------------------------------------------

    fn on_event(&mut self, ev: DapEvent) {
        match ev {
            DapEvent::Initialized => self.configure(),
            DapEvent::Stopped(s) => {
                self.thread_id = s.thread_id.unwrap_or(self.thread_id);
                if self.step_remaining > 0 && s.reason == "step" {
                    self.step_remaining -= 1;
                    self.send_resume(self.step_kind.dap_command());
                    return;
                }
                self.step_remaining = 0;
                self.clear_temporary_breakpoints();
                self.load_stop(StopRequest {
                    thread_id: self.thread_id,
                    reason: s.reason,
                    description: s.description,
                    text: s.text,
                    watches: self.watch_list(),
                    frame_hint: self.last_top_frame,
                    locals_hint: self.last_locals_ref,
                    preview_hints: self.last_previews.clone(),
                });
            }
            DapEvent::Continued { .. } if self.snap.state == RunState::Stopped => {
                self.mark_running(None, "the program continued");
            }
            DapEvent::Exited { exit_code } => self.pending_exit_code = Some(exit_code),
            DapEvent::Terminated => self.on_terminated(),
            DapEvent::Output { category, output } => {
                let stream = match category.as_str() {
                    "stdout" => Stream::Stdout,
                    "stderr" => Stream::Stderr,
                    "telemetry" => return,
                    _ => Stream::Console,
                };
                lock(&self.output).push(stream, &output);
                self.emit(SessionEvent::Output);
            }
            DapEvent::Breakpoint { breakpoint, .. } => self.on_breakpoint_event(&breakpoint),
            DapEvent::Process { pid: Some(pid), .. } => {
                if let Some(p) = self.process.as_mut() {
                    p.track_pid(pid as i32);
                }
            }
            _ => {}
        }
    }

    fn on_adapter_closed(&mut self) {
        self.dap_events = None;
        if !matches!(self.snap.state, RunState::Exited | RunState::Error) {
            if self.pending_exit_code.is_some() {
                self.on_terminated();
            } else {
                self.fail("the debug adapter exited unexpectedly".into());
            }
        }
        if let Some(p) = self.process.as_mut() {
            p.kill_all();
        }
    }

    fn on_terminated(&mut self) {
        if self.snap.state == RunState::Exited {
            return;
        }
        self.run_gen += 1;
        self.snap.state = RunState::Exited;
        self.snap.stop = None;
        let code = self.pending_exit_code;
        let tail = lock(&self.output).tail_lines(10);
        let summary = match code {
            Some(c) => format!("The program exited with code {c}."),
            None => "The debug session ended.".to_string(),
        };
        self.snap.exit = Some(ExitInfo {
            exit_code: code,
            summary: summary.clone(),
        });
        self.touch(None, summary);
        self.emit(SessionEvent::Exited {
            exit_code: code,
            tail,
        });
        self.release_adapter();
    }

    /// Ends the adapter politely, then for certain.
    fn release_adapter(&mut self) {
        let client = self.client.take();
        let process = self.process.take();
        tokio::spawn(async move {
            if let Some(c) = client {
                let _ = c
                    .request_with_timeout(
                        "disconnect",
                        Some(json!({"terminateDebuggee": true})),
                        Duration::from_secs(2),
                    )
                    .await;
            }
            if let Some(mut p) = process {
                p.kill_all();
                p.wait().await;
            }
        });
    }

    fn load_stop(&mut self, req: StopRequest) {
        let Some(client) = self.client.clone() else {
            return;
        };
        let gen_at = self.run_gen;
        let sources = self.sources.clone();
        self.spawn(async move {
            let res = fetch::fetch_stop(&client, req, &sources).await;
            Box::new(move |e: &mut Engine| {
                if e.run_gen != gen_at || e.snap.state == RunState::Exited {
                    return;
                }
                match res {
                    Ok((stop, watches)) => {
                        e.last_top_frame = stop.frames.first().map(|f| f.id);
                        e.last_locals_ref = Some(stop.locals_reference).filter(|r| *r > 0);
                        e.last_previews = stop
                            .locals
                            .iter()
                            .filter(|v| v.children.is_some())
                            .map(|v| (v.name.clone(), v.reference))
                            .collect();
                        let reason = stop.reason.clone();
                        let at = stop
                            .frames
                            .first()
                            .map(|f| {
                                format!(
                                    " at {}:{}",
                                    f.file
                                        .as_deref()
                                        .map(|p| e.snap.display_path(p))
                                        .unwrap_or_default(),
                                    f.line
                                )
                            })
                            .unwrap_or_default();
                        e.snap.state = RunState::Stopped;
                        e.snap.stop = Some(stop);
                        e.snap.watches = watches;
                        e.snap.stop_seq += 1;
                        e.touch(None, format!("stopped ({reason}){at}"));
                        e.emit(SessionEvent::Stopped {
                            stop_seq: e.snap.stop_seq,
                        });
                    }
                    Err(err) => e.fail(format!("reading the stop failed: {err}")),
                }
            }) as Apply
        });
    }

    fn watch_list(&self) -> Vec<(String, Origin)> {
        self.snap
            .watches
            .iter()
            .map(|w| (w.expression.clone(), w.origin))
            .collect()
    }

    // ---- commands -------------------------------------------------------

    fn on_command(&mut self, env: Envelope) {
        let Envelope {
            origin,
            command,
            reply,
        } = env;
        if origin == Origin::Agent
            && command.is_control()
            && *lock(&self.mode) == ControlMode::HumanOnly
        {
            let _ = reply.send(Err(SessionError::State(
                "the person has taken control; they hand it back with the T key. Read-only tools still work.".into(),
            )));
            return;
        }
        self.emit(SessionEvent::Command {
            origin,
            summary: format!("{command:?}").chars().take(80).collect(),
        });
        match command {
            Command::Continue => self.resume(origin, reply, "continue", "continued", 0),
            Command::Step { kind, count } => {
                self.step_kind = kind;
                let verb = if count > 1 {
                    format!("{} {count} times", kind.verb())
                } else {
                    kind.verb().to_string()
                };
                self.resume(
                    origin,
                    reply,
                    kind.dap_command(),
                    &verb,
                    count.saturating_sub(1),
                );
            }
            Command::RunTo { file, line } => self.run_to(origin, reply, file, line),
            Command::Pause => self.pause(origin, reply),
            Command::SetBreakpoint(req) => self.set_breakpoint(origin, reply, req),
            Command::RemoveBreakpoint(sel) => self.remove_breakpoint(origin, reply, sel),
            Command::SetExceptionFilters(filters) => {
                self.set_exception_filters(origin, reply, filters)
            }
            Command::Evaluate {
                expression,
                frame_index,
            } => self.evaluate(reply, expression, frame_index),
            Command::SetVariable {
                path,
                value,
                frame_index,
            } => self.set_variable(origin, reply, path, value, frame_index),
            Command::Variables(q) => self.variables(reply, q),
            Command::Stack { levels } => self.stack(reply, levels),
            Command::Threads => self.threads(reply),
            Command::Watch { add, remove } => self.watch(origin, reply, add, remove),
            Command::Note(text) => {
                self.snap.notes.push(Note {
                    origin,
                    text: text.clone(),
                    epoch: self.snap.epoch + 1,
                });
                self.touch(Some(origin), format!("{} wrote a note", origin.noun()));
                self.emit(SessionEvent::Note { origin, text });
                let _ = reply.send(Ok(Reply::Done));
            }
            Command::Terminate => self.terminate(origin, reply),
            Command::Restart => self.restart(origin, reply),
        }
    }

    fn require_stopped(&self, action: &str) -> Result<(DapClient, i64), SessionError> {
        match (&self.client, self.snap.state) {
            (Some(c), RunState::Stopped) => Ok((c.clone(), self.thread_id)),
            _ => Err(SessionError::State(format!(
                "cannot {action}: {}",
                self.snap.state_sentence()
            ))),
        }
    }

    fn frame_id(&self, index: usize) -> Result<i64, SessionError> {
        let stop = self
            .snap
            .stop
            .as_ref()
            .ok_or_else(|| SessionError::State(self.snap.state_sentence()))?;
        stop.frames.get(index).map(|f| f.id).ok_or_else(|| {
            SessionError::invalid(
                "frame_index",
                format!(
                    "{index} is out of range; the stack has {} frame{} (0 is the top)",
                    stop.frames.len(),
                    if stop.frames.len() == 1 { "" } else { "s" }
                ),
            )
        })
    }

    fn mark_running(&mut self, origin: Option<Origin>, what: &str) {
        self.run_gen += 1;
        self.snap.state = RunState::Running;
        self.snap.stop = None;
        self.touch(origin, what.to_string());
        self.emit(SessionEvent::Continued);
    }

    fn send_resume(&mut self, command: &str) {
        let Some(client) = self.client.clone() else {
            return;
        };
        let fut = client.request(command, Some(json!({"threadId": self.thread_id})));
        let command = command.to_string();
        self.spawn(async move {
            let res = fut.await;
            Box::new(move |e: &mut Engine| {
                if let Err(err) = res
                    && e.snap.state == RunState::Running
                {
                    e.touch(None, format!("{command} failed: {err}"));
                }
            }) as Apply
        });
    }

    fn resume(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        command: &str,
        verb: &str,
        remaining: u32,
    ) {
        if let Err(e) = self.require_stopped(verb.split(' ').next().unwrap_or(verb)) {
            let _ = reply.send(Err(e));
            return;
        }
        self.step_remaining = remaining;
        let stop_seq = self.snap.stop_seq;
        self.send_resume(command);
        self.mark_running(Some(origin), &format!("{} {verb}", origin.noun()));
        let _ = reply.send(Ok(Reply::Moved { stop_seq }));
    }

    fn pause(&mut self, origin: Origin, reply: ReplyTx) {
        let Some(client) = self
            .client
            .clone()
            .filter(|_| self.snap.state == RunState::Running)
        else {
            let _ = reply.send(Err(SessionError::State(format!(
                "cannot pause: {}",
                self.snap.state_sentence()
            ))));
            return;
        };
        let stop_seq = self.snap.stop_seq;
        let fut = client.request("pause", Some(json!({"threadId": self.thread_id.max(1)})));
        self.touch(
            Some(origin),
            format!("{} paused the program", origin.noun()),
        );
        self.spawn(async move {
            let res = fut.await;
            Box::new(move |_e: &mut Engine| {
                let _ = reply.send(
                    res.map(|_| Reply::Moved { stop_seq })
                        .map_err(SessionError::from),
                );
            }) as Apply
        });
    }

    fn run_to(&mut self, origin: Origin, reply: ReplyTx, file: String, line: i64) {
        if let Err(e) = self.require_stopped("run to a line") {
            let _ = reply.send(Err(e));
            return;
        }
        let spec = match (BreakpointRequest {
            file: file.clone(),
            line,
            ..Default::default()
        })
        .validate(&self.config.workspace)
        {
            Ok(s) => s,
            Err(e) => {
                let _ = reply.send(Err(e));
                return;
            }
        };
        let path = spec.file.clone();
        self.add_breakpoint(spec, origin, true);
        self.sync_file(&path, None);
        let stop_seq = self.snap.stop_seq;
        self.send_resume("continue");
        self.mark_running(
            Some(origin),
            &format!("{} ran to {file}:{line}", origin.noun()),
        );
        let _ = reply.send(Ok(Reply::Moved { stop_seq }));
    }

    fn clear_temporary_breakpoints(&mut self) {
        let files: BTreeSet<PathBuf> = self
            .snap
            .breakpoints
            .iter()
            .filter(|b| b.temporary)
            .map(|b| b.file.clone())
            .collect();
        if files.is_empty() {
            return;
        }
        self.snap.breakpoints.retain(|b| !b.temporary);
        for f in files {
            self.sync_file(&f, None);
        }
    }

    // ---- breakpoints ----------------------------------------------------

    fn add_breakpoint(&mut self, spec: BreakpointSpec, origin: Origin, temporary: bool) -> u64 {
        if let Some(b) = self
            .snap
            .breakpoints
            .iter_mut()
            .find(|b| b.file == spec.file && b.line == spec.line && !temporary && !b.temporary)
        {
            b.condition = spec.condition;
            b.hit_condition = spec.hit_condition;
            b.log_message = spec.log_message;
            b.origin = origin;
            return b.id;
        }
        let id = self.next_bp_id;
        self.next_bp_id += 1;
        self.snap.breakpoints.push(Breakpoint {
            id,
            file: spec.file,
            line: spec.line,
            condition: spec.condition,
            hit_condition: spec.hit_condition,
            log_message: spec.log_message,
            origin,
            verified: false,
            bound_line: None,
            message: None,
            temporary,
        });
        self.dirty = true;
        id
    }

    fn set_breakpoints_args(&self, file: &Path) -> (Vec<u64>, Value) {
        let bps: Vec<&Breakpoint> = self
            .snap
            .breakpoints
            .iter()
            .filter(|b| b.file == file)
            .collect();
        let args = dap_types::SetBreakpointsArguments {
            source: dap_types::Source {
                name: file.file_name().map(|n| n.to_string_lossy().to_string()),
                path: Some(file.display().to_string()),
                source_reference: None,
                presentation_hint: None,
                origin: None,
                sources: None,
                adapter_data: None,
                checksums: None,
            },
            breakpoints: Some(
                bps.iter()
                    .map(|b| dap_types::SourceBreakpoint {
                        line: b.line,
                        column: None,
                        condition: b.condition.clone(),
                        hit_condition: b.hit_condition.clone(),
                        log_message: b.log_message.clone(),
                        mode: None,
                    })
                    .collect(),
            ),
            lines: None,
            source_modified: Some(false),
        };
        (
            bps.iter().map(|b| b.id).collect(),
            crate::dap::envelope::to_wire(&args),
        )
    }

    /// Sends a file's whole breakpoint list, as DAP requires.
    fn sync_file(&mut self, file: &Path, reply: Option<(ReplyTx, u64)>) {
        let client = match (&self.client, self.configured) {
            (Some(c), true) => c.clone(),
            _ => {
                if let Some((tx, id)) = reply {
                    let bp = self.snap.breakpoints.iter().find(|b| b.id == id).cloned();
                    let _ = tx.send(bp.map(Reply::Breakpoint).ok_or(SessionError::Gone));
                }
                return;
            }
        };
        let (ids, args) = self.set_breakpoints_args(file);
        let fut = client.request("setBreakpoints", Some(args));
        self.spawn(async move {
            let res = fut.await;
            Box::new(move |e: &mut Engine| {
                e.apply_breakpoint_result(&ids, res.map_err(|x| x.to_string()));
                if let Some((tx, id)) = reply {
                    let bp = e.snap.breakpoints.iter().find(|b| b.id == id).cloned();
                    let _ = tx.send(bp.map(Reply::Breakpoint).ok_or(SessionError::Gone));
                }
            }) as Apply
        });
    }

    fn apply_breakpoint_result(&mut self, ids: &[u64], res: Result<Value, String>) {
        let results: Vec<Value> = match res {
            Ok(body) => body
                .get("breakpoints")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
            Err(err) => {
                for b in self
                    .snap
                    .breakpoints
                    .iter_mut()
                    .filter(|b| ids.contains(&b.id))
                {
                    b.verified = false;
                    b.message = Some(err.clone());
                }
                self.touch(None, "");
                return;
            }
        };
        for (id, r) in ids.iter().zip(results) {
            if let Some(b) = self.snap.breakpoints.iter_mut().find(|b| b.id == *id) {
                b.verified = r.get("verified").and_then(Value::as_bool).unwrap_or(false);
                b.bound_line = r.get("line").and_then(Value::as_u64);
                b.message = r.get("message").and_then(Value::as_str).map(str::to_string);
                if let Some(dap_id) = r.get("id").and_then(Value::as_i64) {
                    self.dap_ids.retain(|(_, ours)| ours != id);
                    self.dap_ids.push((dap_id, *id));
                }
            }
        }
        self.touch(None, "");
        self.emit(SessionEvent::BreakpointsChanged);
    }

    fn on_breakpoint_event(&mut self, bp: &Value) {
        let Some(dap_id) = bp.get("id").and_then(Value::as_i64) else {
            return;
        };
        let Some(&(_, ours)) = self.dap_ids.iter().find(|(d, _)| *d == dap_id) else {
            return;
        };
        if let Some(b) = self.snap.breakpoints.iter_mut().find(|b| b.id == ours) {
            if let Some(v) = bp.get("verified").and_then(Value::as_bool) {
                b.verified = v;
            }
            if let Some(l) = bp.get("line").and_then(Value::as_u64) {
                b.bound_line = Some(l);
            }
            self.touch(None, "");
            self.emit(SessionEvent::BreakpointsChanged);
        }
    }

    fn set_breakpoint(&mut self, origin: Origin, reply: ReplyTx, req: BreakpointRequest) {
        if matches!(self.snap.state, RunState::Exited | RunState::Error) {
            let _ = reply.send(Err(SessionError::State(format!(
                "cannot set a breakpoint: {}",
                self.snap.state_sentence()
            ))));
            return;
        }
        match req.validate(&self.config.workspace) {
            Err(e) => {
                let _ = reply.send(Err(e));
            }
            Ok(spec) => {
                let file = spec.file.clone();
                let line = spec.line;
                let id = self.add_breakpoint(spec, origin, false);
                let shown = self.snap.display_path(&file);
                self.touch(
                    Some(origin),
                    format!("{} set a breakpoint at {shown}:{line}", origin.noun()),
                );
                self.sync_file(&file, Some((reply, id)));
            }
        }
    }

    fn remove_breakpoint(&mut self, origin: Origin, reply: ReplyTx, sel: BreakpointSelector) {
        let matches: Vec<Breakpoint> = match &sel {
            BreakpointSelector::Id(id) => self
                .snap
                .breakpoints
                .iter()
                .filter(|b| b.id == *id)
                .cloned()
                .collect(),
            BreakpointSelector::Location { file, line } => {
                let path = match self.config.workspace.resolve_file("file", file) {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = reply.send(Err(e));
                        return;
                    }
                };
                self.snap
                    .breakpoints
                    .iter()
                    .filter(|b| {
                        b.file == path
                            && (b.line as i64 == *line
                                || b.bound_line.map(|l| l as i64) == Some(*line))
                    })
                    .cloned()
                    .collect()
            }
        };
        if matches.is_empty() {
            let _ = reply.send(Err(SessionError::invalid(
                "breakpoint",
                format!("no breakpoint matches {sel:?}; list them with breakpoint_list"),
            )));
            return;
        }
        let ids: Vec<u64> = matches.iter().map(|b| b.id).collect();
        self.snap.breakpoints.retain(|b| !ids.contains(&b.id));
        let files: BTreeSet<PathBuf> = matches.iter().map(|b| b.file.clone()).collect();
        for f in files {
            self.sync_file(&f, None);
        }
        self.touch(
            Some(origin),
            format!("{} removed {} breakpoint(s)", origin.noun(), matches.len()),
        );
        self.emit(SessionEvent::BreakpointsChanged);
        let _ = reply.send(Ok(Reply::Removed(matches)));
    }

    fn set_exception_filters(&mut self, origin: Origin, reply: ReplyTx, filters: Vec<String>) {
        let known: Vec<&str> = self
            .snap
            .available_exception_filters
            .iter()
            .map(|(f, _)| f.as_str())
            .collect();
        if let Some(bad) = filters
            .iter()
            .find(|f| !known.is_empty() && !known.contains(&f.as_str()))
        {
            let _ = reply.send(Err(SessionError::invalid(
                "filters",
                format!("{bad:?} is not a filter of this adapter; it has {known:?}"),
            )));
            return;
        }
        self.snap.exception_filters = filters.clone();
        self.touch(
            Some(origin),
            format!("{} set exception breakpoints {filters:?}", origin.noun()),
        );
        match self.client.clone().filter(|_| self.configured) {
            None => {
                let _ = reply.send(Ok(Reply::Done));
            }
            Some(c) => {
                let fut = c.request("setExceptionBreakpoints", Some(json!({"filters": filters})));
                self.spawn(async move {
                    let res = fut.await;
                    Box::new(move |_e: &mut Engine| {
                        let _ = reply.send(res.map(|_| Reply::Done).map_err(SessionError::from));
                    }) as Apply
                });
            }
        }
    }

    // ---- inspection -----------------------------------------------------

    fn evaluate(&mut self, reply: ReplyTx, expression: String, frame_index: usize) {
        let prepared = super::validate::check_expression(&expression)
            .and_then(|_| self.require_stopped("evaluate"))
            .and_then(|(c, _)| Ok((c, self.frame_id(frame_index)?)));
        let (client, frame) = match prepared {
            Ok(x) => x,
            Err(e) => {
                let _ = reply.send(Err(e));
                return;
            }
        };
        tokio::spawn(async move {
            let res = fetch::evaluate(&client, &expression, Some(frame), "repl").await;
            let _ = reply.send(match res {
                Ok(v) => Ok(Reply::Value(v)),
                Err(crate::dap::DapError::Failed { message, .. }) => {
                    Err(SessionError::Evaluate(message))
                }
                Err(e) => Err(e.into()),
            });
        });
    }

    fn set_variable(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        path: String,
        value: String,
        frame_index: usize,
    ) {
        let prepared = self
            .require_stopped("set a variable")
            .and_then(|(c, _)| Ok((c, self.frame_id(frame_index)?)));
        let (client, frame) = match prepared {
            Ok(x) => x,
            Err(e) => {
                let _ = reply.send(Err(e));
                return;
            }
        };
        let watches = self.watch_list();
        let thread_id = self.thread_id;
        let reason = self
            .snap
            .stop
            .as_ref()
            .map(|s| s.reason.clone())
            .unwrap_or_default();
        let what = format!("{} set {path} = {value}", origin.noun());
        self.spawn(async move {
            let mut segs = fetch::split_path(&path);
            let name = segs.pop().unwrap_or_default();
            let container = resolve_container(&client, frame, None, &segs).await;
            let res = match container {
                Ok(reference) => client
                    .request(
                        "setVariable",
                        Some(
                            json!({"variablesReference": reference, "name": name, "value": value}),
                        ),
                    )
                    .await
                    .map_err(|e| match e {
                        crate::dap::DapError::Failed { message, .. } => {
                            SessionError::Evaluate(message)
                        }
                        e => e.into(),
                    }),
                Err(e) => Err(e),
            };
            Box::new(move |e: &mut Engine| match res {
                Ok(body) => {
                    e.touch(Some(origin), what);
                    e.run_gen += 1;
                    e.load_stop(StopRequest {
                        thread_id,
                        reason,
                        description: None,
                        text: None,
                        watches,
                        frame_hint: e.last_top_frame,
                        locals_hint: e.last_locals_ref,
                        preview_hints: e.last_previews.clone(),
                    });
                    let _ = reply.send(Ok(Reply::Value(Var {
                        name: path,
                        value: body
                            .get("value")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string(),
                        type_name: body
                            .get("type")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_string(),
                        reference: body
                            .get("variablesReference")
                            .and_then(Value::as_i64)
                            .unwrap_or(0),
                        evaluate_name: None,
                        children: None,
                        truncated: false,
                    })));
                }
                Err(err) => {
                    let _ = reply.send(Err(err));
                }
            }) as Apply
        });
    }

    fn variables(&mut self, reply: ReplyTx, q: VariablesQuery) {
        let prepared = self
            .require_stopped("read variables")
            .and_then(|(c, _)| Ok((c, self.frame_id(q.frame_index)?)));
        let (client, frame) = match prepared {
            Ok(x) => x,
            Err(e) => {
                let _ = reply.send(Err(e));
                return;
            }
        };
        tokio::spawn(async move {
            let segs = q.path.as_deref().map(fetch::split_path).unwrap_or_default();
            let res = async {
                let reference =
                    resolve_container(&client, frame, q.scope.as_deref(), &segs).await?;
                let (page, total) =
                    super::paging::page(&client, reference, q.start, q.count, q.filter.as_deref())
                        .await?;
                Ok::<_, SessionError>(Reply::Variables { vars: page, total })
            }
            .await;
            let _ = reply.send(res);
        });
    }

    fn stack(&mut self, reply: ReplyTx, levels: usize) {
        let (client, thread) = match self.require_stopped("read the stack") {
            Ok(x) => x,
            Err(e) => {
                let _ = reply.send(Err(e));
                return;
            }
        };
        tokio::spawn(async move {
            let res = client
                .request("stackTrace", Some(json!({"threadId": thread, "startFrame": 0, "levels": levels})))
                .await
                .map_err(SessionError::from)
                .and_then(|b| fetch::parse_frames(b).map_err(SessionError::from));
            let _ = reply.send(res.map(|(frames, total)| Reply::Frames { frames, total }));
        });
    }

    fn threads(&mut self, reply: ReplyTx) {
        let Some(client) = self.client.clone() else {
            let _ = reply.send(Err(SessionError::State(self.snap.state_sentence())));
            return;
        };
        tokio::spawn(async move {
            let res = client
                .request("threads", None)
                .await
                .map_err(SessionError::from)
                .map(|b| {
                    b.get("threads")
                        .and_then(Value::as_array)
                        .map(|a| {
                            a.iter()
                                .map(|t| {
                                    (
                                        t.get("id").and_then(Value::as_i64).unwrap_or(0),
                                        t.get("name")
                                            .and_then(Value::as_str)
                                            .unwrap_or_default()
                                            .to_string(),
                                    )
                                })
                                .collect()
                        })
                        .unwrap_or_default()
                });
            let _ = reply.send(res.map(Reply::Threads));
        });
    }

    fn watch(&mut self, origin: Origin, reply: ReplyTx, add: Vec<String>, remove: Vec<String>) {
        for expr in add.iter().chain(remove.iter()) {
            if let Err(e) = super::validate::check_expression(expr) {
                let _ = reply.send(Err(e));
                return;
            }
        }
        self.snap
            .watches
            .retain(|w| !remove.contains(&w.expression));
        for expr in add {
            if !self.snap.watches.iter().any(|w| w.expression == expr) {
                self.snap.watches.push(super::types::WatchValue {
                    expression: expr,
                    origin,
                    value: Err("not evaluated yet".into()),
                });
            }
        }
        self.touch(
            Some(origin),
            format!("{} changed the watches", origin.noun()),
        );
        // At a stop, the reply waits for the values so the next read shows them.
        let Ok(frame) = self.frame_id(0) else {
            let _ = reply.send(Ok(Reply::Done));
            return;
        };
        if let (Some(client), RunState::Stopped) = (self.client.clone(), self.snap.state) {
            let list = self.watch_list();
            let gen_at = self.run_gen;
            self.spawn(async move {
                let vals = join_all(
                    list.iter()
                        .map(|(e, _)| fetch::evaluate(&client, e, Some(frame), "watch")),
                )
                .await;
                Box::new(move |e: &mut Engine| {
                    let _ = reply.send(Ok(Reply::Done));
                    if e.run_gen != gen_at {
                        return;
                    }
                    e.snap.watches = list
                        .into_iter()
                        .zip(vals)
                        .map(|((expression, origin), v)| super::types::WatchValue {
                            expression,
                            origin,
                            value: v.map_err(|x| x.to_string()),
                        })
                        .collect();
                    e.touch(None, "");
                }) as Apply
            });
        } else {
            let _ = reply.send(Ok(Reply::Done));
        }
    }

    fn terminate(&mut self, origin: Origin, reply: ReplyTx) {
        if matches!(self.snap.state, RunState::Exited) {
            let _ = reply.send(Ok(Reply::Done));
            return;
        }
        self.touch(
            Some(origin),
            format!("{} terminated the program", origin.noun()),
        );
        self.on_terminated();
        let _ = reply.send(Ok(Reply::Done));
    }

    fn restart(&mut self, origin: Origin, reply: ReplyTx) {
        self.release_adapter();
        self.run_gen += 1;
        self.pending_exit_code = None;
        self.step_remaining = 0;
        self.dap_events = None;
        self.last_top_frame = None;
        self.last_locals_ref = None;
        self.last_previews.clear();
        self.dap_ids.clear();
        self.snap.state = RunState::Starting;
        self.snap.stop = None;
        self.snap.exit = None;
        self.snap.error = None;
        self.snap.breakpoints.retain(|b| !b.temporary);
        for b in &mut self.snap.breakpoints {
            b.verified = false;
        }
        lock(&self.output).push(Stream::Console, "--- restarted ---\n");
        self.touch(
            Some(origin),
            format!("{} restarted the program", origin.noun()),
        );
        let stop_seq = self.snap.stop_seq;
        self.start_adapter();
        let _ = reply.send(Ok(Reply::Moved { stop_seq }));
    }

    async fn shutdown(&mut self) {
        if let Some(c) = self.client.take() {
            let _ = c
                .request_with_timeout(
                    "disconnect",
                    Some(json!({"terminateDebuggee": true})),
                    Duration::from_millis(500),
                )
                .await;
        }
        if let Some(mut p) = self.process.take() {
            p.kill_all();
            p.wait().await;
        }
    }
}

async fn recv_event(rx: &mut Option<mpsc::UnboundedReceiver<Event>>) -> Option<Event> {
    match rx {
        Some(r) => r.recv().await,
        None => std::future::pending().await,
    }
}

/// The variablesReference of `segs` under a frame's scope.
async fn resolve_container(
    client: &DapClient,
    frame: i64,
    scope: Option<&str>,
    segs: &[String],
) -> Result<i64, SessionError> {
    let scopes = fetch::scopes(client, frame).await?;
    let wanted = scope.unwrap_or("locals");
    let (_, mut reference) = scopes
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(wanted))
        .cloned()
        .ok_or_else(|| {
            SessionError::invalid(
                "scope",
                format!(
                    "no scope {wanted:?}; this frame has {:?}",
                    scopes.iter().map(|(n, _)| n).collect::<Vec<_>>()
                ),
            )
        })?;
    let mut walked = String::new();
    for seg in segs {
        let children = fetch::variables(client, reference).await?;
        let Some(v) = fetch::find_child(&children, seg).cloned() else {
            return Err(SessionError::invalid(
                "expand",
                format!(
                    "{walked}{}{seg} does not exist",
                    if walked.is_empty() { "" } else { "." }
                ),
            ));
        };
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(seg);
        if v.reference <= 0 {
            return Err(SessionError::invalid(
                "expand",
                format!("{walked} = {} has no children", v.value),
            ));
        }
        reference = v.reference;
    }
    Ok(reference)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn initialize_arguments(adapter_id: &str) -> Value {
    json!({
        "clientID": "pairdbg",
        "clientName": "pairdbg",
        "adapterID": adapter_id,
        "locale": "en-US",
        "linesStartAt1": true,
        "columnsStartAt1": true,
        "pathFormat": "path",
        "supportsVariableType": true,
        "supportsVariablePaging": true,
        "supportsRunInTerminalRequest": false,
        "supportsStartDebuggingRequest": false,
        "supportsProgressReporting": false,
        "supportsInvalidatedEvent": false,
        "supportsMemoryReferences": false
    })
}
