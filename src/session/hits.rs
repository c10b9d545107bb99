//! Breakpoint hits: which breakpoint a stop was, in the shape controllers
//! push (`debugger/breakpointHit`) and wait for (`breakpoint_wait`). A
//! breakpoint's count is its own (`Breakpoint::hits`, what the list shows);
//! only exceptions, which no breakpoint of ours owns, are counted here.

pub use super::breakpoint_hit::{BreakpointHit, HitException, HitKind, HitLocation, now_rfc3339};
use super::types::{Breakpoint, BreakpointKind, StopInfo};

/// What a session's stops were, read once each.
#[derive(Debug, Default)]
pub struct HitCounts {
    /// Exception stops so far.
    exceptions: u64,
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

    /// Whether the stop being read is a new one, not one read again.
    pub fn is_fresh(&self) -> bool {
        self.fresh
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
                    && b.kind != BreakpointKind::Tracepoint
                    && location.file.as_deref() == Some(b.file.as_path())
                    && b.at_line() == location.line
            })?;
            (HitKind::Blocking, Some(bp), None)
        } else {
            return None;
        };
        // The engine counted the breakpoint's hit as the stop came in.
        let hit_count = match id {
            Some(bp) => bp.hits.max(1),
            None => {
                self.exceptions += 1;
                self.exceptions
            }
        };
        let id = id.map(|bp| bp.id);
        Some(BreakpointHit {
            breakpoint_id: id,
            kind,
            location,
            thread_id: stop.thread_id,
            timestamp: now_rfc3339(),
            hit_count,
            log_message: None,
            exception_info,
        })
    }
}
