//! Commands that move execution, and the dispatch of every command.

use crate::sync::Locked;
use std::time::Duration;

use serde_json::json;

use super::{Apply, Engine, ReplyTx, or_reply};
use crate::session::command::{Command, Envelope, Reply};
use crate::session::config::BreakpointRequest;
use crate::session::error::SessionError;
use crate::session::link::Link;
use crate::session::output::Stream;
use crate::session::types::{Note, Origin, RunState};
use crate::session::{ControlMode, SessionEvent};

/// How long a `stopped` event may trail an acknowledged pause.
const PAUSE_GRACE: Duration = Duration::from_millis(200);

impl Engine {
    pub(super) fn on_command(&mut self, env: Envelope) {
        if let Some(waiting) = self.awaiting_root.as_mut() {
            waiting.push(env);
            return;
        }
        let Envelope {
            origin,
            command,
            reply,
        } = env;
        if origin != Origin::Human
            && (command.is_control() && self.snap.control == ControlMode::HumanOnly
                || matches!(command, Command::SetControl(_)))
        {
            let _ = reply.send(Err(SessionError::ControlTaken));
            return;
        }
        if let Some(refused) = self.core_refusal(&command) {
            let _ = reply.send(Err(refused));
            return;
        }
        self.emit(SessionEvent::Command {
            origin,
            summary: format!("{command:?}").chars().take(80).collect(),
        });
        if let Some(j) = &self.journal
            && !matches!(command, Command::SyncJournal)
        {
            j.command(origin, &command);
        }
        match command {
            Command::Continue => self.resume(origin, reply, "continue", "continued", 0),
            Command::Step { kind, count } => {
                self.conn.step_kind = kind;
                self.conn.instruction_steps = false;
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
            Command::Pause(child) => self.pause(origin, reply, child),
            Command::SetBreakpoint(req) => self.set_breakpoint(origin, reply, req),
            Command::RemoveBreakpoint(sel) => self.remove_breakpoint(origin, reply, sel),
            Command::UpdateBreakpoint(u) => self.update_breakpoint(origin, reply, u),
            Command::SetExceptionFilters(filters) => {
                self.set_exception_filters(origin, reply, filters)
            }
            Command::SetExceptionType(req) => self.set_exception_type(origin, reply, req),
            Command::WatchData(expression) => self.watch_data(reply, expression),
            Command::Evaluate {
                expression,
                frame_index,
                whole,
            } => self.evaluate(reply, expression, frame_index, whole),
            Command::CheckPurity {
                expression,
                frame_index,
            } => self.check_purity(reply, expression, frame_index),
            Command::SetVariable {
                path,
                value,
                frame_index,
            } => self.set_variable(origin, reply, path, value, frame_index),
            Command::Variables(q) => self.variables(reply, q),
            Command::Stack { levels } => self.stack(reply, levels),
            Command::Threads => self.threads(reply),
            Command::SelectThread { child, thread } => {
                self.select_thread(origin, reply, child, thread)
            }
            Command::Watch { add, remove } => self.watch(origin, reply, add, remove),
            Command::Note(text) => {
                self.snap.notes.push(Note {
                    origin,
                    text: text.clone(),
                    epoch: self.snap.epoch + 1,
                });
                self.touch(Some(origin), format!("{} wrote a note", origin.noun()));
                self.emit(SessionEvent::Note { origin, text });
                // Published before the answer: the caller's next call (the
                // action log, the viewport) reads the note in the snapshot.
                self.publish();
                let _ = reply.send(Ok(Reply::Done));
            }
            Command::Input(text) => self.send_input(reply, text),
            Command::SetControl(mode) => {
                if self.snap.control != mode {
                    self.snap.control = mode;
                    let what = match mode {
                        ControlMode::HumanOnly => "the person took control",
                        ControlMode::Shared => "the person handed control back",
                    };
                    self.touch(Some(origin), what);
                }
                let _ = reply.send(Ok(Reply::Done));
            }
            Command::Terminate { terminate_debuggee } => {
                self.terminate(origin, terminate_debuggee, reply)
            }
            Command::Restart => self.restart(origin, reply),
            Command::ExceptionContext(q) => self.exception_context(reply, q),
            Command::StepInstruction(kind) => self.step_instruction(origin, reply, kind),
            Command::Record { on, limit } => self.record(origin, reply, on, limit),
            Command::Back(mv) => self.step_back(origin, reply, mv),
            Command::Disassemble { frame_index } => self.disassemble(reply, frame_index),
            Command::ReadMemory {
                expression,
                frame_index,
                offset,
                count,
            } => self.read_memory(reply, expression, frame_index, offset, count),
            Command::Scopes { frame_index } => self.other_scopes(reply, frame_index),
            Command::SyncJournal => match &self.journal {
                Some(j) => {
                    let path = j.path().to_path_buf();
                    j.after_written(Box::new(move || {
                        let _ = reply.send(Ok(Reply::Journal(path)));
                    }));
                }
                None => {
                    let _ = reply.send(Err(SessionError::State(
                        "this session has no journal: the state directory could not be written (see the log)".into(),
                    )));
                }
            },
        }
    }

    pub(super) fn require_stopped(&self, action: &str) -> Result<(Link, i64), SessionError> {
        match (&self.conn.client, self.snap.state) {
            (Some(c), RunState::Stopped) => Ok((c.clone(), self.conn.thread_id)),
            _ => Err(SessionError::State(format!(
                "cannot {action}: {}",
                self.snap.state_sentence()
            ))),
        }
    }

    /// The client and a frame's id, or why there is no stop to act on.
    pub(super) fn stopped_frame(
        &self,
        action: &str,
        frame_index: usize,
    ) -> Result<(Link, i64), SessionError> {
        let (client, _) = self.require_stopped(action)?;
        Ok((client, self.frame_id(frame_index)?))
    }

    /// The function of the stop's frame `index`, as the stack names it.
    pub(super) fn frame_name(&self, index: usize) -> Option<String> {
        let stop = self.snap.stop.as_ref()?;
        stop.frames.get(index).map(|f| f.name.clone())
    }

    pub(super) fn frame_id(&self, index: usize) -> Result<i64, SessionError> {
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

    pub(super) fn mark_running(&mut self, origin: Option<Origin>, what: &str) {
        self.run_gen += 1;
        if let Some(client) = &self.conn.client {
            client.note_resumed();
        }
        self.snap.state = RunState::Running;
        self.snap.stop = None;
        self.snap.stop_note = None;
        self.touch(origin, what.to_string());
        self.emit(SessionEvent::Continued);
        if self.conn.state == super::connection::ConnState::Stopped {
            self.conn.state = super::connection::ConnState::Running;
            self.publish_children();
        }
        self.show_other_stop();
    }

    /// The adapter did not answer `command` in time: until it next says
    /// anything, the session reads as an adapter that stopped answering,
    /// not as a program that runs.
    pub(super) fn adapter_silent(&mut self, command: &str, timeout_ms: u64) {
        let said = format!(
            "the debug adapter stopped answering (no reply to `{command}` in {} s)",
            timeout_ms.div_ceil(1000)
        );
        self.snap.silent = Some(said.clone());
        self.touch(None, said);
    }

    pub(super) fn send_resume(&mut self, command: &str) {
        let Some(client) = self.conn.client.clone() else {
            return;
        };
        let mut arguments = json!({"threadId": self.conn.thread_id});
        if self.conn.instruction_steps && command != "continue" {
            arguments["granularity"] = json!("instruction");
        }
        let fut = client.request(command, Some(arguments));
        self.conn.stepping = command != "continue";
        let command = command.to_string();
        self.snap.unanswered = Some(command.clone());
        self.spawn(async move {
            let res = fut.await;
            Box::new(move |e: &mut Engine| {
                if e.snap.unanswered.take().is_some() {
                    e.forget_unanswered();
                }
                if let Err(err) = res
                    && e.snap.state == RunState::Running
                {
                    if let crate::dap::DapError::Timeout { timeout_ms, .. } = &err {
                        e.adapter_silent(&command, *timeout_ms);
                    } else {
                        e.touch(None, format!("{command} failed: {err}"));
                    }
                }
            }) as Apply
        });
    }

    pub(super) fn resume(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        command: &str,
        verb: &str,
        remaining: u32,
    ) {
        // The refusal names the action, never the past tense the log uses.
        let action = if command == "continue" {
            "continue"
        } else {
            "step"
        };
        or_reply!(self.require_stopped(action), reply);
        self.conn.step_remaining = remaining;
        self.conn.step_total = remaining + 1;
        if command != "continue" {
            // A new step replaces any step the adapter may still finish.
            self.conn.stale_step_pending = false;
        }
        self.conn.same_line_resteps = 0;
        self.conn.step_from = self
            .snap
            .stop
            .as_ref()
            .filter(|_| command == "next" || command == "stepIn")
            .filter(|_| !self.conn.instruction_steps)
            .and_then(|s| super::line_steps::StepFrom::at(s, command == "next"));
        let stop_seq = self.snap.stop_seq;
        self.send_resume(command);
        self.mark_running(Some(origin), &format!("{} {verb}", origin.noun()));
        let _ = reply.send(Ok(Reply::Moved { stop_seq }));
    }

    pub(super) fn pause(&mut self, origin: Origin, reply: ReplyTx, child: Option<u32>) {
        if let Some(child) = child {
            or_reply!(self.focus_child(child, "child"), reply);
        }
        let Some(client) = self.conn.client.clone().filter(|_| {
            self.snap.state == RunState::Running
                || child.is_some() && self.conn.state == super::connection::ConnState::Running
        }) else {
            let _ = reply.send(Err(SessionError::State(format!(
                "cannot pause: {}",
                self.snap.state_sentence()
            ))));
            return;
        };
        let stop_seq = self.snap.stop_seq;
        let fut = client.request(
            "pause",
            Some(json!({"threadId": self.conn.thread_id.max(1)})),
        );
        self.touch(
            Some(origin),
            format!("{} paused the program", origin.noun()),
        );
        let (paused, stops_seen) = (self.conn.id, self.conn.stops_seen);
        self.spawn(async move {
            let res = fut.await;
            Box::new(move |e: &mut Engine| {
                if res.is_ok() && e.config.adapter.quirks().pause_may_not_halt {
                    // Checked on the connection paused, wherever the focus went.
                    e.with_conn(paused, |e| e.check_paused(stops_seen));
                }
                let _ = reply.send(
                    res.map(|_| Reply::Moved { stop_seq })
                        .map_err(SessionError::from),
                );
            }) as Apply
        });
    }

    /// A pause acknowledged with no `stopped` after it: if a stackTrace
    /// answers, the program is halted and the stop is read as a pause.
    fn check_paused(&mut self, stops_seen: u64) {
        let Some(client) = self.conn.client.clone() else {
            return;
        };
        let thread_id = self.conn.thread_id.max(1);
        let gen_at = self.run_gen;
        let conn = self.conn.id;
        self.spawn(async move {
            // The `stopped` event may trail the response; give it a moment.
            tokio::time::sleep(PAUSE_GRACE).await;
            let halted = client
                .request(
                    "stackTrace",
                    Some(json!({"threadId": thread_id, "startFrame": 0, "levels": 1})),
                )
                .await
                .is_ok();
            Box::new(move |e: &mut Engine| {
                if halted
                    && e.run_gen == gen_at
                    && e.conn_by_id(conn).map(|c| c.stops_seen) == Some(stops_seen)
                    && e.snap.state == RunState::Running
                {
                    e.on_conn_event(
                        conn,
                        crate::dap::events::DapEvent::Stopped(crate::dap::events::Stopped {
                            reason: "pause".into(),
                            description: None,
                            thread_id: Some(thread_id),
                            text: None,
                            all_threads_stopped: Some(true),
                            hit_breakpoint_ids: None,
                        }),
                    );
                }
            }) as Apply
        });
    }

    pub(super) fn run_to(&mut self, origin: Origin, reply: ReplyTx, file: String, line: i64) {
        or_reply!(self.require_stopped("run to a line"), reply);
        let spec = or_reply!(
            (BreakpointRequest {
                file: file.clone(),
                line,
                ..Default::default()
            })
            .validate(&self.config.workspace),
            reply
        );
        let path = spec.file.clone();
        self.conn.run_to = Some((path.clone(), spec.line));
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

    /// Answers once the adapter has been let go: an attached process must
    /// be detached from before anything may kill the adapter, or a tracer's
    /// death could take the process with it.
    pub(super) fn terminate(&mut self, origin: Origin, terminate_debuggee: bool, reply: ReplyTx) {
        // Asked at the end, it overrides what the attach said: the
        // `disconnect` and a remote program's ending both read it.
        if terminate_debuggee {
            self.config.terminate_debuggee = true;
        }
        if !matches!(self.snap.state, RunState::Exited) {
            self.leave = self.leave_running();
            self.touch(
                Some(origin),
                format!("{} terminated the program", origin.noun()),
            );
            if self.config.ends_debuggee() {
                self.conn.terminated_by = Some(origin);
            }
            self.on_terminated();
        }
        let released = self.releasing.clone();
        tokio::spawn(async move {
            if let Some(r) = released {
                r.await;
            }
            let _ = reply.send(Ok(Reply::Done));
        });
    }

    pub(super) fn restart(&mut self, origin: Origin, reply: ReplyTx) {
        self.stop_build();
        let remote = self.config.remote.is_some();
        if remote {
            self.detach_for_restart();
        } else {
            self.release_adapter();
        }
        self.run_gen += 1;
        // New ids throughout: a late event of the old tree finds nothing.
        self.tree.others.clear();
        let root = self.tree.next_id();
        self.tree.root = root;
        self.conn = super::Conn {
            id: root,
            ..Default::default()
        };
        self.snap.children.clear();
        self.snap.state = RunState::Starting;
        self.snap.stop = None;
        self.snap.exit = None;
        self.snap.error = None;
        self.snap.silent = None;
        self.snap.unanswered = None;
        self.snap.compile_error = None;
        // The adapter's data breakpoints end with its connection.
        self.snap.data_watch = None;
        // A new run has recorded nothing; recording starts again when asked.
        self.snap.recording.stopped();
        self.check_stale_binary_unless_building();
        self.snap.breakpoints.retain(|b| !b.temporary);
        // A new run counts its hits afresh, as the adapter's hit
        // conditions do.
        for b in &mut self.snap.breakpoints {
            b.verified = false;
            b.hits = 0;
        }
        for x in &mut self.snap.exception_types {
            x.hits = 0;
        }
        self.hits = Default::default();
        {
            let mut out = self.output.locked();
            out.push(Stream::Console, "--- restarted ---\n");
            out.begin_run();
        }
        self.touch(
            Some(origin),
            format!("{} restarted the program", origin.noun()),
        );
        let stop_seq = self.snap.stop_seq;
        if remote {
            self.attach_once_released();
        } else {
            self.start_adapter();
        }
        // A waiter reads the published state once answered: it must not
        // find the old run's exit there and take it for this run's end.
        self.publish();
        let _ = reply.send(Ok(Reply::Moved { stop_seq }));
    }
}
