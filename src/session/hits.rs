//! Breakpoint hits: which breakpoint a stop was, counted per session, in
//! the shape controllers push (`debugger/breakpointHit`) and wait for
//! (`breakpoint_wait`).

use std::collections::HashMap;

pub use super::breakpoint_hit::{BreakpointHit, HitException, HitKind, HitLocation, now_rfc3339};
use super::types::{Breakpoint, StopInfo};

/// Hits so far of each breakpoint of a session.
#[derive(Debug, Default)]
pub struct HitCounts {
    counts: HashMap<u64, u64>,
    /// The adapter reported a stop not yet read: the next read counts.
    fresh: bool,
    last: Option<BreakpointHit>,
}

impl HitCounts {
    /// The adapter stopped; the stop's read decides whether it was a hit.
    pub fn fresh_stop(&mut self) {
        self.fresh = true;
        self.last = None;
    }

    /// The hit a stop is, if any: an exception, or a stop for a breakpoint
    /// at the top frame's line. A step that lands on a breakpoint's line is
    /// not a hit; a stop read again (after a variable was set) is the same
    /// hit, not counted twice.
    pub fn detect(&mut self, stop: &StopInfo, breakpoints: &[Breakpoint]) -> Option<BreakpointHit> {
        if !std::mem::replace(&mut self.fresh, false) {
            return self.last.clone();
        }
        self.last = self.classify(stop, breakpoints);
        self.last.clone()
    }

    fn classify(&mut self, stop: &StopInfo, breakpoints: &[Breakpoint]) -> Option<BreakpointHit> {
        let top = stop.frames.first();
        let location = HitLocation {
            file: top.and_then(|f| f.file.clone()),
            line: top.map(|f| f.line).unwrap_or(0),
            function_name: top.map(|f| f.name.clone()).unwrap_or_default(),
        };
        let (kind, id, exception_info) = if let Some(x) = &stop.exception {
            let info = HitException {
                type_name: x.type_name.clone(),
                message: x.message.clone(),
            };
            (HitKind::Exception, None, Some(info))
        } else if stop.reason.contains("breakpoint") {
            let bp = breakpoints.iter().find(|b| {
                b.enabled
                    && !b.temporary
                    && location.file.as_deref() == Some(b.file.as_path())
                    && b.bound_line.unwrap_or(b.line) == location.line
            })?;
            (HitKind::Blocking, Some(bp.id), None)
        } else {
            return None;
        };
        // Exceptions are counted together under id 0.
        let n = self.counts.entry(id.unwrap_or(0)).or_default();
        *n += 1;
        Some(BreakpointHit {
            breakpoint_id: id,
            kind,
            location,
            thread_id: stop.thread_id,
            timestamp: now_rfc3339(),
            hit_count: *n,
            log_message: None,
            exception_info,
        })
    }
}
