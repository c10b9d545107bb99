//! One execution of a line is one hit, however many of the line's code
//! locations it passes: a line with a function literal (a closure, a
//! callback) stops once in its own frame and again in each call of the
//! literal, which runs below that same frame and line.

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
    by_thread: HashMap<i64, (u64, Vec<Place>)>,
}

fn places(frames: &[Frame]) -> Vec<Place> {
    frames
        .iter()
        .map(|f| (f.name.clone(), f.file.clone(), f.line))
        .collect()
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
        if let Some((last, began)) = self.by_thread.get(&stop.thread_id)
            && *last == id
            && runs_below(began, &now)
        {
            return true;
        }
        self.by_thread.insert(stop.thread_id, (id, now));
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
}
