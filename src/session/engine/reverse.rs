//! Recording the program and running it backwards: the adapter's DAP
//! `stepBack` / `reverseContinue` where it claims `supportsStepBack`, its
//! recorder's console commands otherwise.

use std::time::Duration;

use serde_json::json;

use super::{Apply, Engine, ReplyTx, or_reply};
use crate::adapters::recording::{Recorder, read_info};
use crate::session::command::Reply;
use crate::session::error::SessionError;
use crate::session::fetch::StopRequest;
use crate::session::recording::BackMove;
use crate::session::types::{Origin, RunState};

/// A move back answers once it has begun; its stop may come much later
/// (a continue back over a long recording), and comes as an event.
const BACK_ANSWER: Duration = Duration::from_secs(60);

impl Engine {
    fn recorder(&self) -> Result<&'static Recorder, SessionError> {
        match self.config.adapter.recorder() {
            Some(r) if !self.config.is_core() => Ok(r),
            _ => Err(SessionError::Unsupported(format!(
                "cannot record: {}",
                self.snap
                    .recording
                    .can_step_back()
                    .err()
                    .unwrap_or_default()
                    .trim_start_matches("no: ")
            ))),
        }
    }

    /// Starts (or ends) recording at the current stop, keeping at most
    /// `limit` instructions where given.
    pub(super) fn record(&mut self, origin: Origin, reply: ReplyTx, on: bool, limit: Option<u64>) {
        let recorder = or_reply!(self.recorder(), reply);
        let action = if on {
            "start recording"
        } else {
            "stop recording"
        };
        let (client, _) = or_reply!(self.require_stopped(action), reply);
        if on == self.snap.recording.is_on() && limit.is_none() {
            let _ = reply.send(Ok(Reply::Done));
            return;
        }
        if limit.is_some() && recorder.limit.is_empty() {
            let _ = reply.send(Err(SessionError::Unsupported(format!(
                "max_instructions: {} keeps every line and takes no limit",
                recorder.method
            ))));
            return;
        }
        let mut commands = vec![];
        if let Some(n) = limit.filter(|_| on) {
            commands.push(format!("{} {n}", recorder.limit));
        }
        if on != self.snap.recording.is_on() {
            commands.push(if on { recorder.start } else { recorder.stop }.to_string());
        }
        let starts = on && !self.snap.recording.is_on();
        // In the stopped frame: an adapter may evaluate nowhere else.
        let frame = self.frame_id(0).ok();
        self.spawn(async move {
            let mut res = Ok(json!(null));
            for command in commands {
                let mut args = json!({"expression": command, "context": "repl"});
                if let Some(f) = frame {
                    args["frameId"] = json!(f);
                }
                res = client.request("evaluate", Some(args)).await;
                if res.is_err() {
                    break;
                }
            }
            Box::new(move |e: &mut Engine| {
                if let Err(err) = res {
                    let _ = reply.send(Err(SessionError::Unsupported(format!(
                        "cannot {action}: {err}"
                    ))));
                    return;
                }
                if starts {
                    e.snap.recording.since_stop = Some(e.snap.stop_seq);
                    e.touch(Some(origin), format!("{} started recording", origin.noun()));
                }
                if on {
                    e.read_recording();
                } else {
                    e.snap.recording.stopped();
                    e.conn.told_full = false;
                    e.touch(Some(origin), format!("{} stopped recording", origin.noun()));
                }
                // The caller reads the published state once answered.
                e.publish();
                let _ = reply.send(Ok(Reply::Done));
            }) as Apply
        });
    }

    /// Reads what the recording holds, at a stop: one console round trip,
    /// so not at every step. Asked as the stop comes, before the stop's
    /// own reads, so the adapter answers it first and the stop shows it.
    pub(super) fn read_recording(&mut self) {
        let (Ok(recorder), Some(client)) = (self.recorder(), self.conn.client.clone()) else {
            return;
        };
        if !self.snap.recording.is_on() || recorder.info.is_empty() {
            return;
        }
        let fut = client.request(
            "evaluate",
            Some(json!({"expression": recorder.info, "context": "repl"})),
        );
        self.spawn(async move {
            let res = fut.await;
            Box::new(move |e: &mut Engine| {
                let Ok(body) = res else { return };
                if !e.snap.recording.is_on() {
                    return;
                }
                let info = read_info(body["result"].as_str().unwrap_or_default());
                let r = &mut e.snap.recording;
                r.instructions = info.instructions;
                r.limit = info.limit;
                r.dropped = info.lowest.map(|l| l.saturating_sub(1));
                // The stop it was read at, published or on its way.
                let at = e.snap.stop_seq + u64::from(e.snap.state != RunState::Stopped);
                r.read_at = info.instructions.map(|_| at);
                e.dirty = true;
            }) as Apply
        });
    }

    /// Moves the program back; refused, with the reason, where it cannot.
    pub(super) fn step_back(&mut self, origin: Origin, reply: ReplyTx, mv: BackMove) {
        let action = match mv {
            BackMove::Continue => "continue backwards",
            _ => "step back",
        };
        let (client, thread_id) = or_reply!(self.require_stopped(action), reply);
        if let Err(why) = self.snap.recording.can_step_back() {
            let _ = reply.send(Err(SessionError::State(format!("cannot {action}: {why}"))));
            return;
        }
        let request = match (self.snap.recording.steps_back, mv) {
            (true, BackMove::Over) => Some(("stepBack", json!({"threadId": thread_id}))),
            (true, BackMove::Continue) => Some(("reverseContinue", json!({"threadId": thread_id}))),
            _ => None,
        };
        let (command, arguments) = match request {
            Some(r) => r,
            None => {
                let recorder = or_reply!(self.recorder(), reply);
                let text = match mv {
                    BackMove::Over => recorder.back_over,
                    BackMove::Into => recorder.back_into,
                    BackMove::Out => recorder.back_out,
                    BackMove::Continue => recorder.back_continue,
                };
                if text.is_empty() {
                    let _ = reply.send(Err(SessionError::Unsupported(format!(
                        "cannot {action} that way: {} goes back a line at a time (step back over)",
                        recorder.method
                    ))));
                    return;
                }
                // gdb runs a console command in the frame last selected,
                // which a stack read may have left at the outermost: the
                // move starts from the top frame.
                let mut args = json!({"expression": text, "context": "repl"});
                if let Ok(frame) = self.frame_id(0) {
                    args["frameId"] = json!(frame);
                }
                ("evaluate", args)
            }
        };
        let fut = client.request_with_timeout(command, Some(arguments), BACK_ANSWER);
        // Where the move's stop is its only answer, the stop sends the reply.
        let mut reply = Some(reply);
        if command == "stepBack" && self.config.adapter.quirks().step_back_unanswered {
            self.conn.back_reply = reply.take().map(|r| (r, self.snap.stop_seq));
        }
        self.conn.step_from = None;
        self.conn.step_remaining = 0;
        self.conn.moving_back = Some(mv);
        // A continue back passes over most of the recording: what it holds
        // is worth a read at its stop; a step's is not.
        self.conn.record_read_due = mv == BackMove::Continue;
        let stop_seq = self.snap.stop_seq;
        let stopped_by = self.conn.stopped_by.clone();
        self.mark_running(Some(origin), &format!("{} {}", origin.noun(), mv.verb()));
        let (gen_at, seen) = (self.run_gen, self.conn.stops_seen);
        self.spawn(async move {
            let res = fut.await;
            Box::new(move |e: &mut Engine| {
                // Answered after its stop: the stop has replied.
                let Some(reply) = reply.or_else(|| e.conn.back_reply.take().map(|(r, _)| r)) else {
                    return;
                };
                e.answer_back_move(res, reply, action, stop_seq, (gen_at, seen), stopped_by)
            }) as Apply
        });
    }

    /// Tells how a move back went, from the adapter's answer to it.
    fn answer_back_move(
        &mut self,
        res: Result<serde_json::Value, crate::dap::DapError>,
        reply: ReplyTx,
        action: &'static str,
        stop_seq: u64,
        (gen_at, seen): (u64, u64),
        stopped_by: Option<super::connection::StoppedBy>,
    ) {
        let e = self;
        match res {
            Ok(_) => {
                let _ = reply.send(Ok(Reply::Moved { stop_seq }));
            }
            Err(err) => {
                let refused = SessionError::State(format!("cannot {action}: {}", refusal(&err)));
                // Refused without moving (no stop came): the program
                // is where it was, and is read there again before the
                // refusal is told.
                if e.run_gen == gen_at && e.conn.stops_seen == seen {
                    e.conn.moving_back = None;
                    e.conn.state = super::connection::ConnState::Stopped;
                    e.touch(None, format!("the debugger did not {action}: {err}"));
                    let by = stopped_by;
                    e.load_stop_then(
                        StopRequest {
                            thread_id: e.conn.thread_id,
                            reason: by
                                .as_ref()
                                .map(|b| b.reason.clone())
                                .unwrap_or_else(|| "step".into()),
                            description: by.as_ref().and_then(|b| b.description.clone()),
                            text: None,
                            watches: e.watch_list(),
                            thread_note: None,
                            hints: e.conn.hints.clone(),
                            exception: by.and_then(|b| b.exception),
                            stack: None,
                        },
                        move |e| {
                            e.publish();
                            let _ = reply.send(Err(refused));
                        },
                    );
                    return;
                }
                let _ = reply.send(Err(refused));
            }
        }
    }

    /// At a stop the adapter just reported: whether what the recording
    /// holds is worth reading there (after a continue, a run to a line,
    /// a continue back or a failure; not after a step).
    pub(super) fn recording_read_due(&mut self) -> bool {
        let due = std::mem::take(&mut self.conn.record_read_due);
        self.snap.recording.is_on()
            && (due
                || self.conn.record_failure.is_some()
                || self.conn.moving_back.is_none() && !self.conn.stepping)
    }

    /// The stop's note when the recording filled up for the first time:
    /// gdb then drops its oldest instructions, without stopping.
    fn full_note(&mut self) -> Option<String> {
        let r = &self.snap.recording;
        let dropped = r.dropped.filter(|d| *d > 0)?;
        if std::mem::replace(&mut self.conn.told_full, true) {
            return None;
        }
        let limit = r
            .limit
            .map(|l| format!(" of {l} instructions"))
            .unwrap_or_default();
        Some(format!(
            "The recording is full (its limit{limit}): the oldest {dropped} instructions were dropped, so going back stops short of where recording began."
        ))
    }

    /// A console line that says the recording could not follow the
    /// program: kept for the stop that follows it.
    pub(super) fn recording_output(&mut self, output: &str) {
        if !self.snap.recording.is_on() {
            return;
        }
        let Ok(recorder) = self.recorder() else {
            return;
        };
        if let Some(line) = recorder.failure(output) {
            let kept = self.conn.record_failure.get_or_insert_with(String::new);
            if !kept.is_empty() {
                kept.push_str("; ");
            }
            kept.push_str(line.trim_end_matches('.'));
            if self.snap.state == RunState::Running
                && let (Some(halt), Some(client)) =
                    (recorder.halt_request, self.conn.client.clone())
            {
                // Answered after any stop the adapter sends itself: it
                // sends one only where none came.
                let fut = client.request(halt, None);
                self.spawn(async move {
                    let _ = fut.await;
                    Box::new(|_: &mut Engine| {}) as Apply
                });
            }
        }
    }

    /// What a stop owes to the recording: why the recording stopped the
    /// program, or that a move back reached the recording's start.
    pub(super) fn recording_stop_note(&mut self, reason: &str) -> Option<String> {
        let back = self.conn.moving_back.take();
        if let Some(failure) = self.conn.record_failure.take() {
            return Some(format!(
                "The recording stopped the program: {failure}. Stop recording to run on, or step back through what was recorded."
            ));
        }
        let recorder = self.recorder().ok()?;
        if back.is_none() && self.snap.recording.is_on() && reason == recorder.history_end {
            return Some(
                "Reached the end of the recording: the move stopped there, short of where it was going. From here the program runs live again, and is recorded."
                    .into(),
            );
        }
        if back.is_none()
            && let Some(note) = self.full_note()
        {
            return Some(note);
        }
        if back.is_some() && (reason == recorder.history_start || reason == recorder.history_end) {
            let since = self
                .snap
                .recording
                .since_stop
                .map(|n| format!(" (stop {n})"))
                .unwrap_or_default();
            return Some(format!(
                "Reached the start of the recording{since}: nothing before it was recorded."
            ));
        }
        None
    }
}

/// The debugger's own words for a refused move: its message, without the
/// request it answered.
fn refusal(err: &crate::dap::DapError) -> String {
    let text = err.to_string();
    match text.split_once("failed: ") {
        Some((_, why)) => why.trim_matches('"').to_string(),
        None => text,
    }
}
