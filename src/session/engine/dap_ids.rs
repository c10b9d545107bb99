//! The adapter's breakpoint ids against ours, for one connection. An id
//! may name more than one of ours: a child connection may number the
//! breakpoints it was given before its launch from 1 and later ones from 0,
//! so one `setBreakpoints` answer can give two breakpoints the same id.
//! Such an id is told apart by the place a `breakpoint` event names.

use std::path::Path;

use crate::session::types::Breakpoint;

#[derive(Debug, Default, Clone)]
pub struct DapIds(Vec<(i64, u64)>);

impl DapIds {
    /// The ids an answer gave: the old ids of the breakpoints it answered
    /// for go, as do those of breakpoints that no longer exist, so a
    /// removed breakpoint's id cannot claim a later one's events.
    pub fn answered(
        &mut self,
        ours: &[u64],
        named: impl IntoIterator<Item = (i64, u64)>,
        exists: impl Fn(u64) -> bool,
    ) {
        self.0.retain(|(_, o)| !ours.contains(o) && exists(*o));
        self.0.extend(named);
    }

    /// Ours that the adapter's id names.
    pub fn named(&self, dap: i64) -> Vec<u64> {
        self.0
            .iter()
            .filter(|(d, _)| *d == dap)
            .map(|(_, o)| *o)
            .collect()
    }

    /// Ours that the adapter's id names, when it names exactly one.
    pub fn only(&self, dap: i64) -> Option<u64> {
        match self.named(dap).as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }
}

/// Which of the breakpoints one id names an event means: the one in the
/// event's file at its line (bound there, else asked for there), else the
/// nearest asked-for line in that file. None when nothing fits.
pub fn pick(candidates: &[&Breakpoint], file: Option<&Path>, line: Option<u64>) -> Option<u64> {
    if let [one] = candidates {
        return Some(one.id);
    }
    let in_file: Vec<&Breakpoint> = candidates
        .iter()
        .copied()
        .filter(|b| file.is_none_or(|f| b.file == f))
        .collect();
    match (in_file.as_slice(), line) {
        ([one], _) => Some(one.id),
        ([], _) | (_, None) => None,
        (many, Some(l)) => many
            .iter()
            .find(|b| b.bound_line == Some(l))
            .or_else(|| many.iter().find(|b| b.line == l))
            .or_else(|| many.iter().min_by_key(|b| b.line.abs_diff(l)))
            .map(|b| b.id),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::types::{BreakpointKind, Origin};

    fn bp(id: u64, file: &str, line: u64) -> Breakpoint {
        Breakpoint {
            id,
            kind: BreakpointKind::Blocking,
            function: None,
            file: file.into(),
            line,
            statement: None,
            resolved: None,
            hits: 0,
            trace: None,
            condition: None,
            hit_condition: None,
            log_message: None,
            origin: Origin::Agent,
            verified: false,
            bound_line: None,
            line_text: None,
            message: None,
            enabled: true,
            temporary: false,
        }
    }

    #[test]
    fn an_id_given_twice_is_told_apart_by_the_events_line() {
        let (a, b) = (bp(1, "/w/prog.js", 12), bp(2, "/w/prog.js", 27));
        let both = [&a, &b];
        let f = Some(Path::new("/w/prog.js"));
        assert_eq!(pick(&both, f, Some(27)), Some(2));
        assert_eq!(pick(&both, f, Some(12)), Some(1));
        // Moved a line down by the adapter: still the nearer one.
        assert_eq!(pick(&both, f, Some(13)), Some(1));
        assert_eq!(pick(&both, f, None), None);
        assert_eq!(pick(&both, Some(Path::new("/w/other.js")), Some(12)), None);
    }

    #[test]
    fn an_answer_replaces_the_ids_of_what_it_answered_and_of_what_is_gone() {
        let mut ids = DapIds::default();
        ids.answered(&[1, 2], [(1, 1), (2, 2)], |_| true);
        ids.answered(&[1, 3], [(1, 1), (1, 3)], |o| o != 2);
        assert_eq!(ids.named(1), [1, 3]);
        assert_eq!(ids.only(1), None);
        assert_eq!(ids.named(2), Vec::<u64>::new());
    }
}
