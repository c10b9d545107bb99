//! One execution of a line is one hit, however many of the line's code
//! locations it passes: a line with a function literal (a closure, a
//! callback) stops once in its own frame and again in each call of the
//! literal, which runs below that same frame and line; a line whose code
//! the compiler split (Rust's `?` returns early from code placed after the
//! function's main path) stops again in the same frame, further on.

use std::collections::HashMap;
use std::path::PathBuf;

use super::Engine;
use crate::session::types::{BreakpointKind, Frame, StopInfo};

/// A place in the stack: function, file, line.
type Place = (String, Option<PathBuf>, u64);

/// The stack at the stop that began a breakpoint's line's execution, per
/// thread.
#[derive(Debug, Default)]
pub struct LineRuns {
    by_thread: HashMap<i64, Run>,
}

#[derive(Debug)]
struct Run {
    breakpoint: u64,
    began: Vec<Place>,
    /// The address of the run's last stop in the line's own frame.
    pc: Option<u64>,
}

fn places(frames: &[Frame]) -> Vec<Place> {
    frames
        .iter()
        .map(|f| (f.name.clone(), f.file.clone(), f.line))
        .collect()
}

/// Whether a stop in the line's own frame, with the same callers, is
/// further on in the same execution: code runs forward through a line's
/// locations, and a new execution enters the line again where it begins,
/// at or before where the last stop was. Without addresses it cannot be
/// told, and counts as a new execution.
fn further_on(run: &Run, now: &[Place], pc: Option<u64>) -> bool {
    run.began == now && matches!((run.pc, pc), (Some(last), Some(pc)) if pc > last)
}

/// Whether `now` runs below the stack `began`: its callers hold that
/// stack's top frame at its line, and the frames under it match as far as
/// both were read. A call of the same function (recursion on the line) is
/// an execution of its own.
fn runs_below(began: &[Place], now: &[Place]) -> bool {
    let (Some(top), Some(at)) = (began.first(), now.first()) else {
        return false;
    };
    if at.0 == top.0 {
        return false;
    }
    (1..now.len()).any(|d| now[d] == *top && now[d..].iter().zip(began).all(|(a, b)| a == b))
}

impl LineRuns {
    /// Whether a hit of breakpoint `id` at `stop` continues the execution
    /// of the line its last counted hit began; if not, it begins one.
    pub fn continues(&mut self, id: u64, stop: &StopInfo) -> bool {
        let now = places(&stop.frames);
        let pc = stop.frames.first().and_then(|f| f.pc);
        if let Some(run) = self.by_thread.get_mut(&stop.thread_id)
            && run.breakpoint == id
        {
            if runs_below(&run.began, &now) {
                return true;
            }
            if further_on(run, &now, pc) {
                run.pc = pc;
                return true;
            }
        }
        let run = Run {
            breakpoint: id,
            began: now,
            pc,
        };
        self.by_thread.insert(stop.thread_id, run);
        false
    }
}

impl Engine {
    /// A breakpoint stop that continues its line's execution was counted
    /// as the stop came in: it is taken back, so the count is of
    /// executions of the line.
    pub(super) fn count_line_once(&mut self, stop: &StopInfo) {
        if stop.exception.is_some() || !stop.reason.contains("breakpoint") {
            return;
        }
        let Some(top) = stop.frames.first() else {
            return;
        };
        let Some(b) = self.snap.breakpoints.iter_mut().find(|b| {
            b.enabled
                && !b.temporary
                && b.kind != BreakpointKind::Tracepoint
                && top.file.as_deref() == Some(b.file.as_path())
                && b.at_line() == top.line
        }) else {
            return;
        };
        if self.conn.line_runs.continues(b.id, stop) && b.hits > 1 {
            b.hits -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(name: &str, line: u64) -> Place {
        (name.into(), Some(PathBuf::from("main.go")), line)
    }

    #[test]
    fn a_literal_called_from_the_line_runs_below_it() {
        let began = vec![place("main.main", 16), place("runtime.main", 290)];
        let inside = vec![
            place("main.main.func1", 16),
            place("main.apply", 8),
            place("main.main", 16),
            place("runtime.main", 290),
        ];
        assert!(runs_below(&began, &inside));
        // The line again, in the next turn of a loop: the same stack.
        assert!(!runs_below(&began, &began));
        let elsewhere = vec![place("main.main.func1", 16), place("main.main", 20)];
        assert!(!runs_below(&began, &elsewhere));
        let recursion = vec![place("main.fact", 4), place("main.fact", 4)];
        assert!(!runs_below(&recursion[1..], &recursion));
    }

    #[test]
    fn a_later_address_in_the_same_frame_is_the_same_execution() {
        let stack = vec![place("main::run", 8), place("main::main", 15)];
        let run = Run {
            breakpoint: 1,
            began: stack.clone(),
            pc: Some(0x16c2a),
        };
        // The `?`'s early return, placed after the main path.
        assert!(further_on(&run, &stack, Some(0x16c9a)));
        // The loop's next turn enters the line where it begins.
        assert!(!further_on(&run, &stack, Some(0x16c2a)));
        // Without addresses, each stop is an execution of its own.
        assert!(!further_on(&run, &stack, None));
        let called_again = vec![place("main::run", 8), place("main::main", 16)];
        assert!(!further_on(&run, &called_again, Some(0x16c9a)));
    }
}
