//! Adapter events: stops (read in one batch), output, exits.

use crate::sync::Locked;
use std::time::Duration;

use futures::FutureExt;

use super::connection::StoppedBy;
use super::{Apply, Engine};
use crate::adapters::ProgramEnd;
use crate::dap::DapError;
use crate::dap::events::DapEvent;
use crate::session::SessionEvent;
use crate::session::fetch::{self, StopRequest};
use crate::session::hints::StopHints;
use crate::session::output::Stream;
use crate::session::types::{ExceptionDetails, ExitInfo, Origin, RunState, StopInfo, WatchValue};

/// How long a program whose connection closed may take to be reaped.
const PROGRAM_STATUS_WITHIN: Duration = Duration::from_secs(2);

impl Engine {
    pub(super) fn on_event(&mut self, ev: DapEvent) {
        match ev {
            DapEvent::Initialized => self.configure(),
            // Only before configurationDone's answer: a breakpoint may be
            // hit just before that answer is read, and it stops for real.
            DapEvent::Stopped(s)
                if !self.conn.configured
                    && self.config.is_attach()
                    && s.description.is_some()
                    && s.description.as_deref() == self.config.adapter.quirks().attach_halt => {}
            DapEvent::Stopped(mut s) => {
                let checked_stack = self.conn.checked_stack.take();
                self.conn.stops_seen += 1;
                self.conn.state = super::connection::ConnState::Stopped;
                if s.thread_id.is_none() && self.conn.thread_id <= 0 {
                    // No thread named and none known yet (a pause right
                    // after an attach): the first thread stands for the stop.
                    return self.stop_on_first_thread(s);
                }
                let quirks = self.config.adapter.quirks();
                s.reason = quirks.stop_reason(&s.reason);
                self.stop_condition_error = None;
                if s.reason == "exception"
                    && let Some(error) = self
                        .config
                        .adapter
                        .condition_error_stop(s.description.as_deref(), s.text.as_deref())
                {
                    // A breakpoint's stop, where its condition failed: not
                    // the program's exception.
                    s.reason = "breakpoint".into();
                    s.description = None;
                    s.text = None;
                    self.stop_condition_error = Some(error);
                }
                let exception = s.hit_breakpoint_ids.iter().flatten().find_map(|id| {
                    self.conn
                        .exception_breakpoints
                        .iter()
                        .find(|(dap, _)| dap == id)
                        .map(|(_, name)| ExceptionDetails {
                            type_name: name.to_string(),
                            message: String::new(),
                            raised_at: None,
                            qualified_type: None,
                            first_chance: None,
                            break_mode: None,
                        })
                });
                if exception.is_some() {
                    s.reason = "exception".into();
                }
                if self.left_entry(s.hit_breakpoint_ids.as_deref().unwrap_or_default()) {
                    s.reason = "entry".into();
                }
                self.conn.stopped_in_exception_function = exception.is_some();
                let exception = match self.config.is_core() {
                    true => self.core_stop(&mut s, exception),
                    false => exception,
                };
                if quirks.stale_step_stops && self.stale_step(&s.reason) {
                    return;
                }
                self.conn.thread_id = s.thread_id.unwrap_or(self.conn.thread_id);
                if let Some(from) = self.conn.step_from.take()
                    && let Some(strict) = from.steps_on(&s, quirks.same_line_steps)
                {
                    return self.step_on_if_same_line(from, s, strict);
                }
                if self.conn.step_remaining > 0 && s.reason == "step" {
                    self.conn.step_remaining -= 1;
                    self.send_resume(self.conn.step_kind.dap_command());
                    return;
                }
                self.conn.steps_left = std::mem::take(&mut self.conn.step_remaining);
                // The stop is the whole answer to a move back that the
                // adapter never answers (`Quirks::step_back_unanswered`).
                if let Some((reply, stop_seq)) = self.conn.back_reply.take() {
                    let _ = reply.send(Ok(crate::session::command::Reply::Moved { stop_seq }));
                }
                // Going back to a breakpoint is no new hit of it.
                if self.conn.moving_back.is_none() {
                    self.count_hits(s.hit_breakpoint_ids.as_deref().unwrap_or_default());
                }
                // A run-to's breakpoint outlives a stop that may be passed
                // by unseen; it goes once the stop is known to stand.
                if self.may_pass_exception(&s.reason).is_none() {
                    self.clear_temporary_breakpoints();
                }
                self.conn.stopped_by = Some(StoppedBy {
                    thread_id: self.conn.thread_id,
                    reason: s.reason.clone(),
                    description: s.description.clone(),
                    text: s.text.clone(),
                    exception: exception.clone(),
                });
                if self.holding_stop {
                    return;
                }
                if self.recording_read_due() {
                    self.read_recording();
                }
                self.hits.fresh_stop();
                self.load_stop(StopRequest {
                    thread_id: self.conn.thread_id,
                    reason: s.reason,
                    description: s.description,
                    text: s.text,
                    watches: self.watch_list(),
                    thread_note: None,
                    hints: self.conn.hints.clone(),
                    exception,
                    stack: checked_stack,
                });
            }
            DapEvent::Continued { .. } if self.snap.state == RunState::Stopped => {
                self.mark_running(None, "the program continued");
            }
            DapEvent::Exited { exit_code } => self.conn.pending_exit_code = Some(exit_code),
            DapEvent::Terminated => self.on_terminated_event(),
            DapEvent::Output { category, output } => {
                self.recording_output(&output);
                let adapter = self.config.adapter;
                if let Some((condition, error)) = adapter.condition_error(&output) {
                    self.push_debugger(&output);
                    return self.on_condition_report(condition, error);
                }
                if self.condition_detail(&output) {
                    self.push_debugger(&output);
                    return;
                }
                let output = match self.take_trace_hits(&output) {
                    Some(rest) if rest.is_empty() => return,
                    Some(rest) => rest,
                    None => output,
                };
                // The console only: the program's own output could say the same.
                let signal = (category == "console")
                    .then(|| adapter.signal_from_output(&output))
                    .flatten();
                if let Some(signal) = signal {
                    self.conn.pending_signal = Some(signal);
                    return self.push_debugger(&output);
                }
                if let Some(code) = adapter.exit_code_from_output(&output) {
                    self.conn.pending_exit_code = Some(code);
                    return self.push_debugger(&output);
                }
                let starting = self.snap.state == RunState::Starting;
                if adapter.is_own_output(&output) || (starting && adapter.is_start_output(&output))
                {
                    return self.push_debugger(&output);
                }
                // DAP's `console` (and `important`) is the debugger's own
                // voice: formatter errors, banners, its view of the process.
                // The program speaks on stdout and stderr.
                let stream = match category.as_str() {
                    "stdout" => Stream::Stdout,
                    "stderr" => Stream::Stderr,
                    "telemetry" => return,
                    _ => return self.push_debugger(&output),
                };
                self.push_output(stream, &output);
            }
            DapEvent::Breakpoint { breakpoint, .. } => self.on_breakpoint_event(&breakpoint),
            _ => {}
        }
    }

    fn stop_on_first_thread(&mut self, mut s: crate::dap::events::Stopped) {
        let Some(client) = self.conn.client.clone() else {
            return;
        };
        let conn = self.conn.id;
        self.spawn(async move {
            let first = client
                .request("threads", None)
                .await
                .ok()
                .and_then(|b| b.get("threads")?.as_array()?.first()?.get("id")?.as_i64());
            Box::new(move |e: &mut Engine| {
                let Some(c) = e.conn_by_id_mut(conn) else {
                    return;
                };
                c.stops_seen -= 1;
                s.thread_id = Some(first.unwrap_or(1));
                // As any stop of its connection: the focus may have moved meanwhile.
                e.on_conn_event(conn, DapEvent::Stopped(s));
            }) as Apply
        });
    }

    /// Whether a stop is the late end of a step that an earlier stop cut
    /// short, which nobody is waiting for: it is resumed unseen, so a
    /// `continue` ends where the person or agent expects.
    fn stale_step(&mut self, reason: &str) -> bool {
        let was_stepping = std::mem::replace(&mut self.conn.stepping, false);
        if reason == "step" && !was_stepping && self.conn.stale_step_pending {
            self.conn.stale_step_pending = false;
            tracing::debug!("resuming the late end of an earlier step");
            self.send_resume("continue");
            return true;
        }
        if was_stepping && reason != "step" {
            self.conn.stale_step_pending = true;
        } else if reason == "step" {
            self.conn.stale_step_pending = false;
        }
        false
    }

    pub(super) fn push_output(&mut self, stream: Stream, text: &str) {
        let text = if self.config.adapter.quirks().crlf_output {
            std::borrow::Cow::Owned(text.replace("\r\n", "\n"))
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        self.output.locked().push(stream, &text);
        self.emit(SessionEvent::Output);
    }

    /// Why the session ends when its adapter went: what it was asked and
    /// never answered, where anything was.
    fn adapter_gone(&self) -> String {
        let root = self.tree.root;
        self.conn_by_id(root)
            .and_then(|c| c.client.as_ref())
            .map(|c| c.gone_reason())
            .unwrap_or_else(|| "the debug adapter exited unexpectedly".into())
    }

    /// A line of the debugger's console: kept apart from the program's
    /// output, and without the banners it prints at every start.
    pub(super) fn push_debugger(&mut self, text: &str) {
        if self.config.adapter.quirks().is_console_noise(text) {
            return;
        }
        self.output.locked().push_debugger(text);
        self.emit(SessionEvent::DebuggerOutput);
    }

    /// The root connection closed: the session ends with it.
    pub(super) fn on_adapter_closed(&mut self) {
        if !matches!(self.snap.state, RunState::Exited | RunState::Error) {
            let ends_so = self.config.adapter.quirks().ends_by_closing;
            if ends_so {
                self.read_exit_code_file();
                let unsaid = self.conn.pending_exit_code.is_none()
                    && self.conn.pending_signal.is_none()
                    && self.conn.terminated_by.is_none()
                    && !self.conn.disconnecting;
                if unsaid {
                    return self.read_program_status();
                }
            }
            if self.conn.pending_exit_code.is_some() || ends_so {
                self.on_terminated();
            } else {
                self.fail(self.adapter_gone());
            }
        }
        let root = self.tree.root;
        if let Some(p) = self.conn_by_id_mut(root).and_then(|c| c.process.as_mut()) {
            p.kill_all();
        }
    }

    /// The adapter is the program and wrote no exit code: a signal killed
    /// it, or it left without its exit hooks. Its process tells which,
    /// read before the process is ended (the end would be read instead).
    fn read_program_status(&mut self) {
        let root = self.tree.root;
        let Some(mut process) = self.conn_by_id_mut(root).and_then(|c| c.process.take()) else {
            return self.on_terminated();
        };
        self.spawn(async move {
            let status = tokio::time::timeout(PROGRAM_STATUS_WITHIN, process.wait_status()).await;
            drop(process);
            Box::new(move |e: &mut Engine| {
                use std::os::unix::process::ExitStatusExt;
                match status {
                    Ok(Ok(s)) if s.signal().is_some() => e.conn.pending_signal = s.signal(),
                    Ok(Ok(s)) => e.conn.pending_exit_code = s.code().map(i64::from),
                    _ => {}
                }
                e.on_terminated();
            }) as Apply
        });
    }

    /// Events the adapter sent before a response whose handling needs them
    /// (an exit code, a build's error): applies queue ahead of events, so
    /// they are taken here first.
    pub(super) fn drain_events(&mut self) {
        while let Ok((id, msg)) = self.conn_rx.try_recv() {
            self.on_conn_msg(id, msg);
        }
    }

    /// An adapter that tells the exit code only in answer to `disconnect`
    /// is asked first; the session ends once it has answered.
    fn on_terminated_event(&mut self) {
        let ask = self.config.adapter.quirks().exit_code_after_disconnect
            && self.conn.pending_exit_code.is_none()
            && !self.conn.disconnecting;
        let client = self.conn.client.clone().filter(|_| ask);
        let Some(client) = client else {
            return self.on_terminated();
        };
        self.conn.disconnecting = true;
        let fut = client.request_with_timeout(
            "disconnect",
            Some(self.disconnect_arguments()),
            Duration::from_secs(2),
        );
        self.spawn(async move {
            let _ = fut.await;
            Box::new(|e: &mut Engine| {
                e.drain_events();
                e.on_terminated();
            }) as Apply
        });
    }

    pub(super) fn on_terminated(&mut self) {
        // A failed session stays failed: its adapter's end is not the
        // program's.
        if matches!(self.snap.state, RunState::Exited | RunState::Error) {
            return;
        }
        self.stop_build();
        self.run_gen += 1;
        self.drain_terminal();
        // Ended some other way than the root's `terminated`: unread.
        if let Some(path) = self.exit_code_file.take() {
            let _ = std::fs::remove_file(path);
        }
        self.snap.state = RunState::Exited;
        self.snap.stop = None;
        self.snap.recording.stopped();
        let end = match (self.conn.pending_signal, self.conn.pending_exit_code) {
            (Some(signal), _) => Some(ProgramEnd::Signal(signal)),
            (None, Some(code)) => Some(self.config.adapter.program_end(code)),
            (None, None) => None,
        };
        let mut exit = ExitInfo::from_end(end);
        if end.is_none() {
            exit.terminated_by = self.conn.terminated_by;
        }
        let code = exit.exit_code;
        let tail = self.output.locked().tail_lines(10);
        let summary = match (end, exit.terminated_by) {
            (None, None) => "The debug session ended.".to_string(),
            _ => format!("The program {}.", exit.ended()),
        };
        self.snap.stop_note = self.exit_note();
        let summary = match &self.snap.stop_note {
            Some(n) => format!("{summary} {n}"),
            None => summary,
        };
        let went = match &self.crash_dump {
            Some((dump, since)) => crate::session::keep_core::dump_written(dump, *since),
            None if self.config.keep_core => crate::session::keep_core::after_end(
                &exit,
                self.config.program.as_deref(),
                &self.config.cwd,
            ),
            None => None,
        };
        let summary = match went {
            Some(went) => format!("{summary} {went}"),
            None => summary,
        };
        self.snap.compile_error = self.compile_error();
        let summary = format!("{summary}{}", self.compile_error_sentence());
        self.snap.exit = Some(ExitInfo {
            summary: summary.clone(),
            ..exit
        });
        self.touch(None, summary);
        self.emit(SessionEvent::Exited {
            exit_code: code,
            tail,
        });
        self.release_adapter();
    }

    /// Ends the adapter politely, then for certain: the children first
    /// (the leaves before their parents), then the root, then every process.
    pub(super) fn release_adapter(&mut self) {
        let args = self.disconnect_arguments();
        self.release_with(args);
    }

    /// As `release_adapter`, with these `disconnect` arguments.
    pub(super) fn release_with(&mut self, args: serde_json::Value) {
        let (mut clients, processes) = self.take_tree();
        let root = clients.pop();
        let leave = std::mem::take(&mut self.leave);
        let task = tokio::spawn(async move {
            leave.send(root.as_ref()).await;
            for c in clients {
                let _ = c
                    .request_with_timeout(
                        "disconnect",
                        Some(args.clone()),
                        Duration::from_millis(500),
                    )
                    .await;
            }
            if let Some(c) = root {
                let _ = c
                    .request_with_timeout("disconnect", Some(args), Duration::from_secs(2))
                    .await;
            }
            for mut p in processes {
                p.kill_all();
                p.wait().await;
            }
        });
        self.releasing = Some(
            async move {
                let _ = task.await;
            }
            .boxed()
            .shared(),
        );
    }

    pub(super) fn load_stop(&mut self, req: StopRequest) {
        self.load_stop_then(req, |_| {});
    }

    /// Reads a stop, then runs `then` whatever came of it: a command that
    /// re-reads the stop answers only once its reads are done, so the
    /// next command cannot resume the program under them.
    pub(super) fn load_stop_then(
        &mut self,
        req: StopRequest,
        then: impl FnOnce(&mut Engine) + Send + 'static,
    ) {
        let Some(client) = self.conn.client.clone() else {
            then(self);
            return;
        };
        let gen_at = self.run_gen;
        let conn = self.conn.id;
        let sources = self.sources.clone();
        let probe = self.condition_probe();
        self.spawn(async move {
            let res = fetch::fetch_stop(&client, req, &sources).await;
            let failed = match (&res, probe) {
                (Ok((stop, _)), Some(probe)) => probe.failed(&client, stop).await,
                _ => None,
            };
            Box::new(move |e: &mut Engine| {
                e.apply_stop(res, gen_at, conn, failed);
                then(e);
            }) as Apply
        });
    }

    /// A stop's reads, published unless the program moved meanwhile. They
    /// belong to connection `conn`: while another connection has the focus
    /// they land only if that one is not stopped itself (its own stop is
    /// shown or on its way), and then with the focus moved to `conn`.
    fn apply_stop(
        &mut self,
        res: Result<(StopInfo, Vec<WatchValue>), DapError>,
        gen_at: u64,
        conn: u32,
        failed_condition: Option<(String, String)>,
    ) {
        // An ended or failed session keeps its end: a read that finished
        // after the adapter went is no stop.
        let over = matches!(self.snap.state, RunState::Exited | RunState::Error);
        if self.run_gen != gen_at || over {
            return;
        }
        if self.conn.id != conn {
            let own_stop = self.conn.state == super::connection::ConnState::Stopped;
            let theirs = self.conn_by_id(conn).map(|c| c.state);
            if own_stop || theirs != Some(super::connection::ConnState::Stopped) {
                tracing::debug!("a stop read for connection {conn} after the focus moved");
                return;
            }
            self.focus(conn);
        }
        let e = self;
        match res {
            Ok((mut stop, watches)) => {
                stop.connection = conn;
                if e.hits.is_fresh() && e.unwanted_exception(&stop) {
                    tracing::debug!("resuming an exception no breakpoint wants");
                    e.send_resume("continue");
                    return;
                }
                if e.hits.is_fresh() {
                    e.clear_temporary_breakpoints();
                }
                // An exception function's message is what the
                // program printed just before calling it.
                if let Some(x) = stop.exception.as_mut().filter(|x| x.message.is_empty()) {
                    let tail = e.output.locked().tail_lines(20).join("\n");
                    if let Some(m) = e.config.adapter.language().exception_message(&tail) {
                        x.message = m;
                    }
                }
                // A stop read again (after a variable was set) is no new hit.
                if e.hits.is_fresh() && e.conn.moving_back.is_none() {
                    e.count_hits_at(&stop);
                    e.count_line_once(&stop);
                }
                let steps_left = std::mem::take(&mut e.conn.steps_left);
                e.snap.stop_note = e.stop_note(&stop, steps_left);
                e.conn.hints =
                    StopHints::from_stop(&stop, e.config.adapter.quirks().stable_frame_references);
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
                stop.hit = e.hits.detect(&stop, &e.snap.breakpoints);
                // A report still to come tells the same error: one warning.
                match failed_condition {
                    Some((condition, error)) => e.on_condition_error(&condition, &error),
                    None => e.end_condition_report(),
                }
                stop.condition_error = e.take_condition_error(&stop);
                if let Some(error) = e.stop_condition_error.take() {
                    stop.condition_error = Some(e.condition_error_at(&stop, error));
                }
                stop.process = e.process_name();
                stop.child = e.has_children().then_some(e.conn.id);
                e.snap.state = RunState::Stopped;
                e.snap.stop = Some(stop);
                e.snap.watches = watches;
                e.snap.stop_seq += 1;
                if let Some(note) = e.recording_stop_note(&reason) {
                    e.snap.stop_note = Some(note);
                }
                e.touch(None, format!("stopped ({reason}){at}"));
                e.emit(SessionEvent::Stopped {
                    stop_seq: e.snap.stop_seq,
                });
            }
            Err(DapError::Closed) => e.fail(e.adapter_gone()),
            Err(err) => e.fail(format!("reading the stop failed: {err}")),
        }
    }

    pub(super) fn watch_list(&self) -> Vec<(String, Origin)> {
        self.snap
            .watches
            .iter()
            .map(|w| (w.expression.clone(), w.origin))
            .collect()
    }

    // ---- commands -------------------------------------------------------
}
