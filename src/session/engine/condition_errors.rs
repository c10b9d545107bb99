//! Breakpoint conditions that fail when the program reaches them: the
//! adapter's report (and the lines after it that tell its error) warned
//! of once, and where the adapter stops on it, told as the stop's reason.

use super::Engine;

impl Engine {
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

    /// A stop the adapter said was a failed condition: warned of once, as
    /// the condition of the breakpoint it stopped at (the one hit, else the
    /// conditional one on the stop's line). Returns the error, for the stop.
    pub(super) fn condition_error_at(
        &mut self,
        stop: &crate::session::types::StopInfo,
        error: String,
    ) -> String {
        let hit = stop.hit.as_ref().and_then(|h| h.breakpoint_id);
        let top = stop.frames.first();
        let condition = self
            .snap
            .breakpoints
            .iter()
            .filter(|b| b.condition.is_some())
            .find(|b| {
                Some(b.id) == hit
                    || top.is_some_and(|f| {
                        f.file.as_deref() == Some(b.file.as_path())
                            && f.line == b.bound_line.unwrap_or(b.line)
                    })
            })
            .and_then(|b| b.condition.clone())
            .unwrap_or_default();
        self.on_condition_error(condition.trim(), &error);
        error
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
