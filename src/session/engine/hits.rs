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
        if let Some((file, line)) = self.conn.run_to.take() {
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

    /// A condition that raised: warned of once per breakpoint and condition.
    /// An empty `condition` is an adapter's report that does not say which:
    /// the only breakpoint with one, if there is just one.
    pub(super) fn on_condition_error(&mut self, condition: &str, error: &str) {
        let conditional: Vec<_> = self
            .snap
            .breakpoints
            .iter()
            .filter(|b| b.condition.is_some())
            .collect();
        let found = match condition {
            "" if conditional.len() == 1 => conditional.first().copied(),
            _ => conditional
                .iter()
                .find(|b| b.condition.as_deref().map(str::trim) == Some(condition))
                .copied(),
        };
        let id = found.map(|b| b.id);
        let condition = found
            .and_then(|b| b.condition.clone())
            .unwrap_or_else(|| condition.to_string());
        self.note_condition_error(id, error);
        let text = match id {
            Some(id) => format!("breakpoint #{id}'s condition {condition:?} raised {error}"),
            None if condition.is_empty() => format!("a breakpoint's condition raised {error}"),
            None => format!("a breakpoint condition {condition:?} raised {error}"),
        };
        if self.snap.warnings.iter().any(|w| w.text == text) {
            return;
        }
        if let Some(b) = self.snap.breakpoints.iter_mut().find(|b| Some(b.id) == id) {
            b.message = Some(format!("its condition raised {error}"));
        }
        self.warn(id, text);
    }

    /// An adapter's report of a failed condition; an empty error is told by
    /// the lines after it (`Adapter::condition_error_detail`).
    pub(super) fn on_condition_report(&mut self, condition: String, error: String) {
        self.end_condition_report();
        match error.is_empty() {
            true => self.condition_report = Some(condition),
            false => self.on_condition_error(&condition, &error),
        }
    }

    /// Whether `output` continues a report of a failed condition, told
    /// with the report rather than as the program's output.
    pub(super) fn condition_detail(&mut self, output: &str) -> bool {
        let Some(condition) = self.condition_report.clone() else {
            return false;
        };
        let adapter = self.config.adapter;
        let mut all = true;
        for line in output.lines().filter(|l| !l.trim().is_empty()) {
            match adapter.condition_error_detail(line) {
                Some(Some(error)) if self.condition_report.is_some() => {
                    self.condition_report = None;
                    self.on_condition_error(&condition, &error);
                }
                Some(_) => {}
                None => all = false,
            }
        }
        if !all {
            self.end_condition_report();
        }
        all
    }

    /// A report whose error never came is told without it.
    pub(super) fn end_condition_report(&mut self) {
        if let Some(condition) = self.condition_report.take() {
            self.on_condition_error(&condition, "an error the debugger did not tell");
        }
    }

    /// Where the adapter stops on a failed condition, its error belongs to
    /// the stop at that breakpoint: the one shown, or the next.
    fn note_condition_error(&mut self, id: Option<u64>, error: &str) {
        let Some(id) = id.filter(|_| self.config.adapter.quirks().condition_error_stops) else {
            return;
        };
        let at = |stop: &crate::session::types::StopInfo| {
            stop.hit.as_ref().and_then(|h| h.breakpoint_id) == Some(id)
        };
        match self.snap.stop.as_mut().filter(|s| at(s)) {
            Some(stop) if stop.condition_error.is_none() => {
                stop.condition_error = Some(error.to_string());
                self.dirty = true;
            }
            _ => self.condition_error = Some((id, error.to_string())),
        }
    }

    pub(super) fn take_condition_error(
        &mut self,
        stop: &crate::session::types::StopInfo,
    ) -> Option<String> {
        let hit = stop.hit.as_ref().and_then(|h| h.breakpoint_id);
        match self.condition_error.take() {
            Some((id, error)) if Some(id) == hit => Some(error),
            _ => None,
        }
    }
}
