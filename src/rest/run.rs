//! The breakpoint and continue operations: start a run or continue the
//! paused one, wait for the breakpoint, the exit, an error or the time
//! limit, and say what happened in the document's terms.

use std::path::Path;
use std::time::{Duration, Instant};

use axum::http::StatusCode;

use super::Rest;
use super::error::ApiError;
use super::model::{FrameInfo, LastBreakpoint, RunError, RunResult};
use super::read_locals;
use super::table::{Ended, RestSession};
use super::traceback;
use crate::session::handle::WaitOutcome;
use crate::session::types::Snapshot;
use crate::session::{Activity, BreakpointRequest, LaunchRequest, RunState, SessionHandle};
use crate::viewport::safe_repr;

/// The document's DEFAULT_TIMEOUT_SECONDS: one operation's time, start-up
/// included.
pub const TIMEOUT: Duration = Duration::from_secs(20);
/// Output one session may write across its runs.
pub const MAX_OUTPUT_BYTES: u64 = 10 * 1024 * 1024;

/// Which operation: both run to `file:line`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Breakpoint,
    Continue,
}

impl Op {
    fn route(self) -> &'static str {
        match self {
            Op::Breakpoint => "breakpoint",
            Op::Continue => "continue",
        }
    }
}

/// How a wait ended, the output guard's ending included.
enum Outcome {
    Waited(WaitOutcome),
    OutputOver,
}

/// `file` is project-relative and checked; `path` is where it is.
pub async fn run(
    rest: &Rest,
    rs: &RestSession,
    op: Op,
    file: &str,
    path: &Path,
    line: u64,
) -> Result<RunResult, ApiError> {
    let _busy = rs.busy.try_lock().map_err(|_| ApiError::busy(&rs.id))?;
    let started = Instant::now();
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    let live = live_run(rest, rs);
    let (s, after) = match live {
        Some(s) => {
            let snap = s.snapshot();
            let already = snap
                .breakpoints
                .iter()
                .any(|b| b.file == path && b.line == line);
            if !already {
                s.set_breakpoint(rest.agent.origin, breakpoint(file, line))
                    .await
                    .map_err(ApiError::from)?;
            }
            let after = if snap.state == RunState::Stopped {
                s.resume(rest.agent.origin).await.map_err(ApiError::from)?
            } else {
                snap.stop_seq
            };
            (s, after)
        }
        None => {
            let ended = rs.lock().ended.clone();
            match (op, ended) {
                (Op::Continue, Some(Ended::Completed)) => return Ok(RunResult::completed()),
                (Op::Continue, Some(Ended::Failed(e))) => {
                    return Err(ApiError::new(
                        StatusCode::CONFLICT,
                        "StateError",
                        format!(
                            "the last run ended with {}: {}; start a new run with POST /sessions/{}/breakpoint",
                            e.kind, e.message, rs.id
                        ),
                    ));
                }
                _ => (start(rest, rs, file, line).await?, 0),
            }
        }
    };
    let outcome = wait(rs, &s, after, deadline).await;
    let result = settle(rest, rs, &s, outcome).await;
    let took = started.elapsed().as_secs_f64() * 1000.0;
    {
        let mut st = rs.lock();
        st.last_run_ms = Some(took);
        st.total_run_ms += took;
    }
    s.record_activity(Activity {
        tool: format!("REST POST /sessions/{}/{}", rs.id, op.route()),
        args: format!("file={file} line={line}"),
        summary: summary(&result),
        is_error: result.error.is_some(),
        millis: took as u64,
        epoch: s.snapshot().epoch,
    });
    Ok(result)
}

fn breakpoint(file: &str, line: u64) -> BreakpointRequest {
    BreakpointRequest {
        file: file.to_string(),
        line: line as i64,
        ..Default::default()
    }
}

/// The current run, while its program lives.
fn live_run(rest: &Rest, rs: &RestSession) -> Option<SessionHandle> {
    let id = rs.lock().run.clone()?;
    let s = rest.agent.registry.get(Some(&id)).ok()?;
    matches!(
        s.snapshot().state,
        RunState::Starting | RunState::Running | RunState::Stopped
    )
    .then_some(s)
}

/// Starts a fresh run whose one breakpoint is the target.
async fn start(
    rest: &Rest,
    rs: &RestSession,
    file: &str,
    line: u64,
) -> Result<SessionHandle, ApiError> {
    end_run(rest, rs).await;
    let request = {
        let st = rs.lock();
        LaunchRequest {
            program: Some(st.entry.entry.clone()),
            args: st.entry.args.clone(),
            env: st.entry.env.clone(),
            python: st.entry.python.clone(),
            breakpoints: vec![breakpoint(file, line)],
            ..Default::default()
        }
    };
    let s = rest.agent.start(request, None).await.map_err(|reply| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "LaunchError",
            reply.text.trim().to_string(),
        )
    })?;
    let mut st = rs.lock();
    st.run = Some(s.id.clone());
    st.ended = None;
    Ok(s)
}

/// Ends the current run, if any, counting its output.
async fn end_run(rest: &Rest, rs: &RestSession) {
    let Some(id) = rs.lock().run.take() else {
        return;
    };
    if let Ok(s) = rest.agent.registry.get(Some(&id)) {
        let _ = s.terminate(rest.agent.origin).await;
        rs.lock().earlier_output += s.output_end();
        rest.agent.registry.remove(&id);
        rest.agent.views.forget(&id);
    }
}

async fn wait(
    rs: &RestSession,
    s: &SessionHandle,
    after: u64,
    deadline: tokio::time::Instant,
) -> Outcome {
    let budget = MAX_OUTPUT_BYTES.saturating_sub(rs.lock().earlier_output);
    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
    tokio::select! {
        o = s.wait_for_stop(after, left) => Outcome::Waited(o),
        _ = output_over(s, budget) => Outcome::OutputOver,
    }
}

/// Resolves once the run has written more than `budget` bytes.
async fn output_over(s: &SessionHandle, budget: u64) {
    let mut events = s.subscribe();
    loop {
        if s.output_end() > budget {
            return;
        }
        if let Err(tokio::sync::broadcast::error::RecvError::Closed) = events.recv().await {
            return std::future::pending().await;
        }
    }
}

/// The result, and the session's state after it.
async fn settle(rest: &Rest, rs: &RestSession, s: &SessionHandle, outcome: Outcome) -> RunResult {
    let failed = |kind: &str, message: String, traceback: Option<String>| {
        RunResult::failed(kind, message, traceback)
    };
    let result = match outcome {
        Outcome::Waited(WaitOutcome::Stopped(snap)) => match stopped(rest, rs, s, &snap).await {
            Some(r) => return r,
            None => failed(
                "DebuggerError",
                "the program stopped but its frame could not be read".into(),
                None,
            ),
        },
        Outcome::Waited(WaitOutcome::Exited(_)) => RunResult::completed(),
        Outcome::Waited(WaitOutcome::Failed(snap)) => failed(
            "LaunchError",
            snap.error
                .clone()
                .unwrap_or_else(|| "the session failed".into()),
            None,
        ),
        Outcome::Waited(WaitOutcome::TimedOut(_) | WaitOutcome::Running(_)) => failed(
            "TimeoutError",
            format!(
                "no breakpoint was reached within {} s; the run was stopped",
                TIMEOUT.as_secs()
            ),
            None,
        ),
        Outcome::OutputOver => failed(
            "OutputLimitExceeded",
            format!(
                "the program wrote more than {} MB of output, the limit per session; the run was stopped",
                MAX_OUTPUT_BYTES / (1024 * 1024)
            ),
            None,
        ),
    };
    end_run(rest, rs).await;
    rs.lock().ended = Some(match &result.error {
        Some(e) => Ended::Failed(e.clone()),
        None => Ended::Completed,
    });
    result
}

/// A stop: at an exception, the error (the run ends); else the frame and
/// its locals (the run stays paused).
async fn stopped(
    rest: &Rest,
    rs: &RestSession,
    s: &SessionHandle,
    snap: &Snapshot,
) -> Option<RunResult> {
    let stop = snap.stop.as_ref()?;
    if let Some(e) = &stop.exception {
        let error = RunError {
            kind: traceback::type_name(snap, &e.type_name),
            message: rest.agent.views.agent_text(&snap.taint, &e.message),
            traceback: Some(
                rest.agent
                    .views
                    .agent_text(&snap.taint, &traceback::render(snap, stop, e)),
            ),
        };
        end_run(rest, rs).await;
        rs.lock().ended = Some(Ended::Failed(error.clone()));
        return Some(RunResult {
            hit: false,
            frame_info: None,
            locals: None,
            completed: false,
            error: Some(error),
        });
    }
    let top = stop.frames.first()?;
    let file = top.file.clone()?;
    let mut reads = read_locals::read_locals(s, &stop.locals).await;
    if rest.agent.views.redacts() {
        let taint = s.taint();
        for r in &mut reads {
            safe_repr::redact(r, false, &taint);
        }
    }
    let hit = stop.hit.is_some() || stop.reason == "breakpoint";
    if hit {
        let shown = snap.display_path(&file);
        let mut st = rs.lock();
        let count = st.hits.entry((shown.clone(), top.line)).or_insert(0);
        *count += 1;
        st.last_breakpoint = Some(LastBreakpoint {
            file: shown,
            line: top.line,
            hit_count: *count,
        });
    }
    Some(RunResult {
        hit,
        frame_info: Some(FrameInfo {
            file: file.display().to_string(),
            line: top.line,
        }),
        locals: Some(safe_repr::locals(&reads)),
        completed: false,
        error: None,
    })
}

fn summary(r: &RunResult) -> String {
    match (&r.error, &r.frame_info) {
        (Some(e), _) => format!("{}: {}", e.kind, e.message),
        (None, Some(f)) => format!("stopped at {}:{}", f.file, f.line),
        (None, None) => "completed".into(),
    }
}
