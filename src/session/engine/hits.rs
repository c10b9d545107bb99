//! Counting hits, and saying what ended a move early: a step count cut
//! short, a run-to that stopped elsewhere, breakpoints never reached.

use super::Engine;
use crate::session::types::{BreakpointKind, StopInfo, Warning};

impl Engine {
    /// Counts a stop against the breakpoints the adapter says it hit. An
    /// id that names more than one of ours is left to the stop's place.
    pub(super) fn count_hits(&mut self, dap_ids: &[i64]) {
        if dap_ids
            .iter()
            .any(|d| self.conn.dap_ids.named(*d).len() > 1)
        {
            self.conn.hit_counted = false;
            return;
        }
        let ours: Vec<u64> = dap_ids
            .iter()
            .filter_map(|d| self.conn.dap_ids.only(*d))
            .collect();
        for b in self
            .snap
            .breakpoints
            .iter_mut()
            .filter(|b| ours.contains(&b.id) && !b.temporary)
        {
            b.hits += 1;
        }
        self.conn.hit_counted = !ours.is_empty();
    }

    /// For adapters that do not name the breakpoints a stop hit: the one
    /// at the stop's place; and exception breakpoints by the type shown.
    pub(super) fn count_hits_at(&mut self, stop: &StopInfo) {
        if let Some(x) = &stop.exception {
            let shown = x.type_name.rsplit(['.', ':']).next().unwrap_or("");
            if let Some(t) = self.snap.exception_types.iter_mut().find(|t| {
                t.exception_type == x.type_name
                    || t.exception_type.rsplit(['.', ':']).next() == Some(shown)
            }) {
                t.hits += 1;
            }
        }
        if std::mem::take(&mut self.conn.hit_counted) || !stop.reason.contains("breakpoint") {
            return;
        }
        let Some(top) = stop.frames.first() else {
            return;
        };
        if let Some(b) = self.snap.breakpoints.iter_mut().find(|b| {
            b.enabled
                && !b.temporary
                && b.kind != BreakpointKind::Tracepoint
                && top.file.as_deref() == Some(b.file.as_path())
                && b.at_line() == top.line
        }) {
            b.hits += 1;
        }
    }

    /// A stop that ended a step count or a run-to early says why.
    pub(super) fn stop_note(&mut self, stop: &StopInfo, steps_left: u32) -> Option<String> {
        let why = self.why(stop);
        if steps_left > 0 && stop.reason != "step" {
            let total = self.conn.step_total;
            return Some(format!(
                "Stopped after {} of {total} steps: {why}.",
                total - steps_left - 1
            ));
        }
        let (file, line) = self.conn.run_to.take()?;
        let top = stop.frames.first()?;
        if top.file.as_deref() == Some(file.as_path()) && top.line == line {
            return None;
        }
        Some(format!(
            "Stopped before reaching {}:{line}: {why}.",
            self.snap.display_path(&file)
        ))
    }

    fn why(&self, stop: &StopInfo) -> String {
        let at = stop
            .frames
            .first()
            .map(|f| {
                format!(
                    " at {}:{}",
                    f.file
                        .as_deref()
                        .map(|p| self.snap.display_path(p))
                        .unwrap_or_default(),
                    f.line
                )
            })
            .unwrap_or_default();
        let bp = stop
            .frames
            .first()
            .and_then(|f| {
                self.snap.breakpoints.iter().find(|b| {
                    !b.temporary
                        && f.file.as_deref() == Some(b.file.as_path())
                        && b.at_line() == f.line
                })
            })
            .map(|b| format!(" #{}", b.id))
            .unwrap_or_default();
        match &stop.exception {
            Some(x) => format!("exception {}{at}", x.type_name),
            None => format!("{}{bp}{at}", stop.reason),
        }
    }

    /// At the exit: breakpoints never hit, and a run-to never reached.
    pub(super) fn exit_note(&mut self) -> Option<String> {
        let mut parts = vec![];
        // Ended on request, it did not exit on its way there.
        if let Some((file, line)) = self.conn.run_to.take()
            && self.conn.terminated_by.is_none()
        {
            parts.push(format!(
                "It exited before reaching {}:{line}.",
                self.snap.display_path(&file)
            ));
        }
        let never: Vec<String> = self
            .snap
            .breakpoints
            .iter()
            .filter(|b| !b.temporary && b.hits == 0)
            .map(|b| match (&b.function, b.resolved.is_some()) {
                (Some(f), false) => format!("#{} {f}", b.id),
                _ => format!(
                    "#{} {}:{}",
                    b.id,
                    self.snap.display_path(&b.file),
                    b.at_line()
                ),
            })
            .collect();
        if !never.is_empty() {
            parts.push(format!("Never hit: {}.", never.join(", ")));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }

    /// A breakpoint's problem found at run time, told once.
    pub(super) fn warn(&mut self, breakpoint_id: Option<u64>, text: String) {
        let seq = self.next_warning;
        self.next_warning += 1;
        self.snap.warnings.push(Warning {
            seq,
            breakpoint_id,
            text,
        });
        let n = self.snap.warnings.len();
        if n > 16 {
            self.snap.warnings.drain(..n - 16);
        }
        self.dirty = true;
    }
}
