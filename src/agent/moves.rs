//! Starting, moving and ending programs as the agent: each move waits for
//! the next stop or the exit, and its reply is the viewport or the exit
//! summary.

use std::future::Future;
use std::time::Duration;

use super::waiting::{self, Waited};
use super::{Agent, DEFAULT_WAIT_MS, Reply, format};
use crate::session::approval::Verdict;
use crate::session::handle::WaitOutcome;
use crate::session::types::{RunState, Snapshot};
use crate::session::{LaunchRequest, SessionError, SessionHandle, StepKind, StopSeq, validate};
use crate::viewport::ViewportConfig;

/// Steps one call may take.
pub const MAX_STEP_COUNT: u32 = 1000;

/// A way to move the program.
#[derive(Debug, Clone)]
pub enum Move {
    Resume,
    /// `count` steps (1 to MAX_STEP_COUNT).
    Step {
        kind: StepKind,
        count: u32,
    },
    RunTo {
        file: String,
        line: i64,
    },
    /// Pause the process numbered `child` (debug_threads), else the focused one.
    Pause {
        child: Option<u32>,
    },
    Restart,
    /// Back through the recording.
    Back(crate::session::recording::BackMove),
}

/// A move that has been waited for.
pub struct Moved {
    pub session: SessionHandle,
    pub waited: Waited,
    pub timeout: Duration,
    /// What the agent must know about the start itself: launch notes and
    /// breakpoints that did not bind where asked.
    pub preface: Vec<String>,
}

impl Moved {
    /// The snapshot the wait ended on.
    pub fn snapshot(&self) -> &Snapshot {
        match &self.waited.outcome {
            WaitOutcome::Stopped(s)
            | WaitOutcome::Exited(s)
            | WaitOutcome::Failed(s)
            | WaitOutcome::Running(s)
            | WaitOutcome::TimedOut(s) => s,
        }
    }

    /// The reply: a capped wait says how long it waited, that the program
    /// still runs, and how to keep waiting.
    pub fn reply(self, agent: &Agent) -> Reply {
        let timeout_ms = self.timeout.as_millis() as u64;
        let reply = match (self.waited.capped, self.waited.outcome) {
            (Some(cap), WaitOutcome::TimedOut(snap)) => format::ok(
                &agent.views,
                &snap,
                format!(
                    "── RUNNING ──\nStill running after {} ms of the {timeout_ms} ms asked (one call waits at most {} ms unless the client asks for progress). Call {} to keep waiting from epoch {}.",
                    cap.as_millis(),
                    cap.as_millis(),
                    agent.names.wait,
                    snap.epoch
                ),
            ),
            (_, outcome) => format::outcome(
                &agent.views,
                agent.names,
                &self.session,
                outcome,
                timeout_ms,
            ),
        };
        if self.preface.is_empty() {
            reply
        } else {
            reply.prefixed(&self.preface.join("\n"))
        }
    }
}

impl Agent {
    /// Starts a session (a launch or an attach) with its viewport settings.
    pub async fn start(
        &self,
        request: LaunchRequest,
        viewport: Option<ViewportConfig>,
    ) -> Result<SessionHandle, Reply> {
        self.start_within(request, viewport, Duration::ZERO).await
    }

    /// Starts a session whose adapter may take up to `wait` to start when
    /// that is longer than any one request may.
    async fn start_within(
        &self,
        request: LaunchRequest,
        viewport: Option<ViewportConfig>,
        wait: Duration,
    ) -> Result<SessionHandle, Reply> {
        if let Some(Err(e)) = viewport.as_ref().map(|c| c.validate()) {
            return Err(self.err(None, &SessionError::State(e)));
        }
        let mut config = request
            .validate(&self.workspace, crate::session::REQUEST_TIMEOUT)
            .map_err(|e| self.err(None, &e))?;
        crate::session::launch_conditions::check(&config)
            .await
            .map_err(|e| self.err(None, &e))?;
        config.start_timeout = config.start_timeout.max(wait);
        let s = self
            .registry
            .launch(config)
            .await
            .map_err(|e| self.err(None, &e))?;
        // Before the adapter can stop: the first stop is told to this client.
        self.driving(&s);
        self.views.set_config(&s.id, viewport.unwrap_or_default());
        Ok(s)
    }

    /// Launches and runs to the first stop or the exit.
    pub async fn launch(
        &self,
        request: LaunchRequest,
        viewport: Option<ViewportConfig>,
        timeout_ms: Option<u64>,
    ) -> Result<Moved, Reply> {
        let timeout =
            validate::check_timeout(timeout_ms, DEFAULT_WAIT_MS).map_err(|e| self.err(None, &e))?;
        self.build_gate(&request, timeout).await?;
        let s = self.start_within(request, viewport, timeout).await?;
        let waited = waiting::long_wait(timeout, |d| s.wait_for_stop(0, d)).await;
        let snap = s.snapshot();
        let mut preface: Vec<String> = snap.info.clone();
        // A launch that failed never placed them: only its failure is news.
        let placed = !matches!(waited.outcome, WaitOutcome::Failed(_));
        for b in snap
            .breakpoints
            .iter()
            .filter(|_| placed)
            .filter(|b| !b.verified || b.bound_line.is_some_and(|l| l != b.line))
        {
            preface.push(format!("Breakpoint {}", format::breakpoint_line(&snap, b)));
        }
        Ok(Moved {
            session: s,
            waited,
            timeout,
            preface,
        })
    }

    /// An agent's build command runs what it says: where the person asked
    /// to approve side effects, it runs only once they approve it.
    async fn build_gate(&self, request: &LaunchRequest, timeout: Duration) -> Result<(), Reply> {
        let Some(build) = &request.build else {
            return Ok(());
        };
        let shown: Vec<&str> = build.commands.iter().map(|c| c.label.as_str()).collect();
        let shown = shown.join("; ");
        let refuse = |text: String| self.err(None, &SessionError::invalid("build", text));
        match self
            .registry
            .approvals()
            .ask(format!("debug_launch build: {shown}"), timeout)
            .await
        {
            Verdict::NotRequired | Verdict::Approved => Ok(()),
            Verdict::Denied => Err(refuse(format!(
                "the person denied the build {shown:?}; nothing was launched"
            ))),
            Verdict::TimedOut => Err(refuse(format!(
                "the person did not approve the build {shown:?} within {} ms; nothing was launched",
                timeout.as_millis()
            ))),
        }
    }

    /// Attaches; waits for the first stop when there are breakpoints to
    /// reach, else only until attached.
    pub async fn attach(
        &self,
        request: LaunchRequest,
        timeout_ms: Option<u64>,
    ) -> Result<Moved, Reply> {
        let timeout =
            validate::check_timeout(timeout_ms, DEFAULT_WAIT_MS).map_err(|e| self.err(None, &e))?;
        if request.attach.is_none() && !request.remote.is_given() {
            let e = SessionError::invalid("pid", "give pid, or host and port of a debug server");
            return Err(self.err(None, &e));
        }
        let waits = !request.breakpoints.is_empty();
        let s = self.start(request, None).await?;
        let waited = waiting::long_wait(timeout, |d| {
            let s = s.clone();
            async move {
                if waits {
                    s.wait_for_stop(0, d).await
                } else {
                    s.wait_attached(d).await
                }
            }
        })
        .await;
        Ok(Moved {
            session: s,
            waited,
            timeout,
            preface: vec![],
        })
    }

    /// Moves the program with `mv` as the agent, then waits for the next
    /// stop or the exit.
    pub async fn move_and_wait<F, Fut>(
        &self,
        session_id: Option<&str>,
        mv: F,
        timeout_ms: Option<u64>,
    ) -> Result<Moved, Reply>
    where
        F: FnOnce(SessionHandle) -> Fut,
        Fut: Future<Output = Result<StopSeq, SessionError>>,
    {
        let s = self.session(session_id)?;
        let timeout = validate::check_timeout(timeout_ms, DEFAULT_WAIT_MS)
            .map_err(|e| self.err(Some(&s), &e))?;
        let stop_seq = self.checked(&s, mv(s.clone()).await)?;
        let waited = waiting::long_wait(timeout, |d| s.wait_for_stop(stop_seq, d)).await;
        Ok(Moved {
            session: s,
            waited,
            timeout,
            preface: vec![],
        })
    }

    /// Makes `mv` as this front end's agent, then waits for the next stop
    /// or the exit.
    pub async fn go(
        &self,
        session_id: Option<&str>,
        mv: Move,
        timeout_ms: Option<u64>,
    ) -> Result<Moved, Reply> {
        if let Move::Step { count, .. } = mv
            && (count == 0 || count > MAX_STEP_COUNT)
        {
            return Err(self.err(
                None,
                &SessionError::invalid(
                    "count",
                    format!("{count} is out of range; use 1 to {MAX_STEP_COUNT}"),
                ),
            ));
        }
        if let Move::Back(mv) = mv {
            self.may_go_back(session_id, mv)?;
        }
        let origin = self.origin;
        self.move_and_wait(
            session_id,
            |s| async move {
                match mv {
                    Move::Resume => s.resume(origin).await,
                    Move::Step { kind, count } => s.step(origin, kind, count).await,
                    Move::RunTo { file, line } => s.run_to(origin, file, line).await,
                    Move::Pause { child } => s.pause_child(origin, child).await,
                    Move::Restart => s.restart(origin).await,
                    Move::Back(mv) => s.step_back(origin, mv).await,
                }
            },
            timeout_ms,
        )
        .await
    }

    /// A move back where the session cannot go back is refused with why,
    /// and how to make it able to where it can be.
    fn may_go_back(
        &self,
        session_id: Option<&str>,
        mv: crate::session::recording::BackMove,
    ) -> Result<(), Reply> {
        let s = self.session(session_id)?;
        let snap = s.snapshot();
        let Err(why) = snap.recording.can_step_back() else {
            return Ok(());
        };
        let action = match mv {
            crate::session::recording::BackMove::Continue => "continue backwards",
            _ => "step back",
        };
        let how = match snap.recording.cannot.is_none() && !snap.recording.is_on() {
            true => format!(
                " Start recording with {} at a stop first; only what runs after that can be gone back through",
                self.names.record
            ),
            false => String::new(),
        };
        Err(self.err(
            Some(&s),
            &SessionError::State(format!("cannot {action}: {why}.{how}")),
        ))
    }

    /// Starts or stops recording the program at its stop, so that it can
    /// be run backwards.
    pub async fn record(&self, session_id: Option<&str>, on: bool, limit: Option<u64>) -> Reply {
        let s = match self.session(session_id) {
            Ok(s) => s,
            Err(e) => return e,
        };
        if let Err(e) = s.record(self.origin, on, limit).await {
            return self.err(Some(&s), &e);
        }
        let snap = s.snapshot();
        let body = match on {
            true => format!(
                "Recording. {}. Recording slows the program down and keeps every instruction's changes in memory; stop it when done.",
                upper_first(&snap.recording.sentence())
            ),
            false => "Recording stopped; what was recorded is gone.".to_string(),
        };
        format::ok(&self.views, &snap, body)
    }

    /// Waits for the next stop or the exit; a session stopped now counts
    /// its current stop as the next.
    pub async fn wait(
        &self,
        session_id: Option<&str>,
        timeout_ms: Option<u64>,
    ) -> Result<Moved, Reply> {
        let s = self.session(session_id)?;
        let timeout = validate::check_timeout(timeout_ms, DEFAULT_WAIT_MS)
            .map_err(|e| self.err(Some(&s), &e))?;
        let snap = s.snapshot();
        let after = if snap.state == RunState::Stopped {
            snap.stop_seq - 1
        } else {
            snap.stop_seq
        };
        let waited = waiting::long_wait(timeout, |d| s.wait_for_stop(after, d)).await;
        Ok(Moved {
            session: s,
            waited,
            timeout,
            preface: vec![],
        })
    }

    /// Ends the session (an attached program keeps running unless
    /// `terminate_debuggee`), once the agent may.
    pub async fn terminate(
        &self,
        session_id: Option<&str>,
        detach: bool,
        terminate_debuggee: bool,
    ) -> Reply {
        if detach && terminate_debuggee {
            return Reply::error(
                "detach and terminate_debuggee: give one; detach leaves the program running, \
                 terminate_debuggee ends it",
            );
        }
        let s = match self.session(session_id) {
            Ok(s) => s,
            Err(e) => return e,
        };
        let attached = s.is_attached();
        if let Err(refused) = self.may_end(&s).await {
            return refused;
        }
        let _ = s.terminate_with(self.origin, terminate_debuggee).await;
        let snap = s.snapshot();
        self.registry.remove(&s.id);
        self.views.forget(&s.id);
        let end = match (attached, detach) {
            (true, _) if terminate_debuggee => {
                "The attached program was ended (terminate_debuggee).".to_string()
            }
            (true, _) => "The process was detached and keeps running.".to_string(),
            (false, true) => {
                // A launch, or an attach told terminate_debuggee.
                "This program ends with its session; it was terminated.".to_string()
            }
            (false, false) => snap.state_sentence(),
        };
        format::ok(&self.views, &snap, format!("Session {} ended. {end}", s.id))
    }

    /// The sessions, the current one marked.
    pub fn sessions(&self) -> Reply {
        let (list, current) = self.registry.list();
        let mut body = String::from("Sessions:\n");
        for s in &list {
            let snap = s.snapshot();
            let mark = if current.as_deref() == Some(&s.id) {
                "*"
            } else {
                " "
            };
            body.push_str(&format!(
                "{mark} {} {} {} (epoch {})\n",
                s.id,
                snap.program,
                snap.state.describe(),
                snap.epoch
            ));
        }
        if list.is_empty() {
            body.push_str(&format!("  (none; start one with {})\n", self.names.start));
        }
        Reply::ok(body)
    }
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
