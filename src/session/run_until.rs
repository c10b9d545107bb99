//! Runs a program until a watched expression changes or becomes true, by
//! stepping over and evaluating after each step. Each step is an ordinary
//! session command, so the person sees every one; a breakpoint, an
//! exception or the exit ends the run early and says so.

use std::time::{Duration, Instant};

use crate::adapters::plain_values::is_true;
use crate::session::handle::WaitOutcome;
use crate::session::{Origin, SessionError, SessionHandle, StepKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    Changes,
    BecomesTrue,
}

/// Why the run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UntilEnd {
    /// The expression changed, or became true.
    Met,
    /// A stop other than a step: a breakpoint or an exception.
    OtherStop(String),
    /// The step cap was reached with the condition unmet.
    StepCap,
    /// The expression no longer evaluates (its frame returned, say).
    LostExpression(String),
    /// The program ended, failed, or ran past the time limit.
    NotStopped,
}

pub struct RunUntil {
    pub end: UntilEnd,
    /// The adapter watched the value's memory (a data breakpoint) instead
    /// of stepping; `steps` then counts the writes it stopped at.
    pub watched: bool,
    pub outcome: WaitOutcome,
    pub steps: u32,
    pub old: String,
    /// The value at the last stop, when it evaluated.
    pub new: Option<String>,
}

pub const MAX_STEPS: u32 = 10_000;

/// Steps `session` over until `expression` meets `until`, at most
/// `max_steps` times and within `timeout`.
pub async fn run_until(
    session: &SessionHandle,
    origin: Origin,
    expression: &str,
    until: Until,
    max_steps: u32,
    timeout: Duration,
) -> Result<RunUntil, SessionError> {
    if expression.trim().is_empty() {
        return Err(SessionError::invalid("expression", "must not be empty"));
    }
    if max_steps == 0 || max_steps > MAX_STEPS {
        return Err(SessionError::invalid(
            "max_steps",
            format!("{max_steps} is out of range; use 1 to {MAX_STEPS}"),
        ));
    }
    let read = session
        .evaluate(origin, expression.to_string(), 0)
        .await
        .map_err(|e| SessionError::invalid("expression", format!("cannot evaluate here: {e}")))?;
    // Truth is the language's own spelling of it.
    let language = read.language.0;
    let old = read.value;
    if until == Until::BecomesTrue && is_true(language, &old) {
        return Err(SessionError::invalid(
            "expression",
            format!(
                "is already true ({old}); use until: changes, or a condition that is false now"
            ),
        ));
    }
    let deadline = Instant::now() + timeout;
    if until == Until::Changes
        && session
            .watch_data(origin, Some(expression.to_string()))
            .await
            .is_ok()
    {
        let r = run_watched(
            session,
            origin,
            expression,
            old.clone(),
            max_steps,
            deadline,
        )
        .await;
        // The watch goes whatever ended the run; a failure to clear it
        // means the connection is gone, and the watch with it.
        let _ = session.watch_data(origin, None).await;
        return r;
    }
    let mut steps = 0;
    let mut depth = frames(&session.snapshot());
    loop {
        let seq = session.step(origin, StepKind::Over, 1).await?;
        steps += 1;
        let left = deadline.saturating_duration_since(Instant::now());
        let outcome = session.wait_for_stop(seq, left).await;
        let snap = match &outcome {
            WaitOutcome::Stopped(snap) => snap.clone(),
            _ => {
                return Ok(RunUntil {
                    end: UntilEnd::NotStopped,
                    watched: false,
                    outcome,
                    steps,
                    old,
                    new: None,
                });
            }
        };
        let new = match session.evaluate(origin, expression.to_string(), 0).await {
            Ok(v) => v.value,
            Err(e) => {
                return Ok(RunUntil {
                    end: UntilEnd::LostExpression(e.to_string()),
                    watched: false,
                    outcome,
                    steps,
                    old,
                    new: None,
                });
            }
        };
        let met = match until {
            Until::Changes => new != old,
            Until::BecomesTrue => is_true(language, &new),
        };
        let reason = snap
            .stop
            .as_ref()
            .map(|s| s.reason.clone())
            .unwrap_or_default();
        // A step over that lands on a line with a breakpoint is reported as
        // a breakpoint; only one met deeper, in a call, cut the step short.
        let interrupted = match reason.as_str() {
            "step" => false,
            "breakpoint" | "function breakpoint" => frames(&snap) > depth,
            _ => true,
        };
        depth = frames(&snap);
        let end = if met {
            Some(UntilEnd::Met)
        } else if interrupted {
            Some(UntilEnd::OtherStop(reason))
        } else if steps >= max_steps {
            Some(UntilEnd::StepCap)
        } else if Instant::now() >= deadline {
            Some(UntilEnd::NotStopped)
        } else {
            None
        };
        if let Some(end) = end {
            return Ok(RunUntil {
                end,
                watched: false,
                outcome,
                steps,
                old,
                new: Some(new),
            });
        }
    }
}

/// Runs with the adapter watching the value's memory: each stop for a
/// write is checked, and a write of the same value runs on.
async fn run_watched(
    session: &SessionHandle,
    origin: Origin,
    expression: &str,
    old: String,
    max_hits: u32,
    deadline: Instant,
) -> Result<RunUntil, SessionError> {
    let mut hits = 0;
    loop {
        let seq = session.resume(origin).await?;
        let left = deadline.saturating_duration_since(Instant::now());
        let outcome = session.wait_for_stop(seq, left).await;
        let WaitOutcome::Stopped(snap) = &outcome else {
            return Ok(RunUntil {
                end: UntilEnd::NotStopped,
                watched: true,
                outcome,
                steps: hits,
                old,
                new: None,
            });
        };
        let reason = snap
            .stop
            .as_ref()
            .map(|s| s.reason.clone())
            .unwrap_or_default();
        let new = match session.evaluate(origin, expression.to_string(), 0).await {
            Ok(v) => v.value,
            Err(e) => {
                return Ok(RunUntil {
                    end: UntilEnd::LostExpression(e.to_string()),
                    watched: true,
                    outcome,
                    steps: hits,
                    old,
                    new: None,
                });
            }
        };
        let written = reason.contains("data");
        hits += u32::from(written);
        let end = if new != old {
            Some(UntilEnd::Met)
        } else if !written {
            Some(UntilEnd::OtherStop(reason))
        } else if hits >= max_hits {
            Some(UntilEnd::StepCap)
        } else {
            None
        };
        if let Some(end) = end {
            return Ok(RunUntil {
                end,
                watched: true,
                outcome,
                steps: hits,
                old,
                new: Some(new),
            });
        }
    }
}

fn frames(snap: &crate::session::Snapshot) -> usize {
    snap.stop.as_ref().map_or(0, |s| s.total_frames)
}
