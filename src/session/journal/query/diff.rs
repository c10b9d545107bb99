//! Two runs of the same program side by side: the first stop where their
//! paths (the file:line of each stop in turn) part, and the first value
//! that differs at the same step before that.

use std::fmt::Write;

use serde::Serialize;

use super::super::record::StopRecord;
use super::value_text::first_change;
use super::{Loaded, Summary, place, stops};

#[derive(Debug, Clone, Serialize)]
pub struct Diff {
    pub a: Summary,
    pub b: Summary,
    /// Stops at the same places, in the same order, from the start.
    pub same_path_stops: usize,
    /// Where the paths part; None when they never do.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_differs: Option<PathDiff>,
    /// The first value that differs at a step both runs took.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_differs: Option<ValueDiff>,
    /// Values compared alike whose text the journal holds cut short: they
    /// may differ past the cut.
    pub cut_values: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct PathDiff {
    /// The stop's number, from 1.
    pub stop: usize,
    /// A's place there, or None where A had stopped no more.
    pub a: Option<String>,
    pub b: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ValueDiff {
    pub stop: usize,
    pub at: String,
    pub function: String,
    /// The local, and where inside it: `parts[6]`.
    pub path: String,
    /// The value in A there, or None where A had no such local.
    pub a: Option<String>,
    pub b: Option<String>,
}

/// Compares `a` and `b`, which must be journals of the same program.
pub fn diff(a: &Loaded, b: &Loaded) -> Result<Diff, String> {
    let (sa, sb) = (a.summary(), b.summary());
    if sa.program != sb.program {
        return Err(format!(
            "B {}: a run of {}, and A {} of {}: diff compares two runs of the same program",
            sb.id, sb.program, sa.id, sa.program
        ));
    }
    let (pa, pb) = (stops(&a.records), stops(&b.records));
    let same = pa
        .iter()
        .zip(&pb)
        .take_while(|(x, y)| place(x) == place(y))
        .count();
    let path_differs = (same < pa.len().max(pb.len())).then(|| PathDiff {
        stop: same + 1,
        a: pa.get(same).map(|s| place(s)),
        b: pb.get(same).map(|s| place(s)),
    });
    let value_differs = pa
        .iter()
        .zip(&pb)
        .take(same)
        .enumerate()
        .find_map(|(i, (x, y))| first_value(i + 1, x, y));
    // Before the first difference, or on the whole shared path.
    let compared = value_differs.as_ref().map_or(same, |v| v.stop - 1);
    let cut_values = pa
        .iter()
        .take(compared)
        .flat_map(|s| &s.locals)
        .filter(|v| looks_cut(&v.value))
        .count();
    Ok(Diff {
        a: sa,
        b: sb,
        same_path_stops: same,
        path_differs,
        value_differs,
        cut_values,
    })
}

/// Whether a value's text leaves part of it out: a long text cut, a
/// collection shown in part, or an object not read.
fn looks_cut(v: &str) -> bool {
    v.ends_with('…') || v.contains("...") || v.contains(" items)")
}

/// The first local, in A's order and then B's, whose value differs.
fn first_value(n: usize, x: &StopRecord, y: &StopRecord) -> Option<ValueDiff> {
    let make = |path: String, a: Option<String>, b: Option<String>| ValueDiff {
        stop: n,
        at: place(x),
        function: x.frames.first().map(|f| f.name.clone()).unwrap_or_default(),
        path,
        a,
        b,
    };
    for v in &x.locals {
        match y.locals.iter().find(|w| w.name == v.name) {
            Some(w) => {
                if let Some((path, before, now)) = first_change(&v.name, &v.value, &w.value) {
                    return Some(make(path, Some(before), Some(now)));
                }
            }
            None => return Some(make(v.name.clone(), Some(v.value.clone()), None)),
        }
    }
    y.locals
        .iter()
        .find(|w| !x.locals.iter().any(|v| v.name == w.name))
        .map(|w| make(w.name.clone(), None, Some(w.value.clone())))
}

impl Diff {
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (tag, s) in [("A", &self.a), ("B", &self.b)] {
            let _ = writeln!(
                out,
                "{tag}: {}  {}  {}  ·  {}  ·  {}",
                s.id,
                s.started,
                s.program,
                s.outcome_text,
                super::count(s.stops, "stop")
            );
        }
        let none = "no stop";
        match &self.path_differs {
            None => {
                let at = match self.same_path_stops {
                    1 => "its one stop".to_string(),
                    n => format!("all {n} stops"),
                };
                let _ = writeln!(out, "Path: the same at {at}");
            }
            Some(p) => {
                let _ = writeln!(
                    out,
                    "Path: the same for {}; stop {} differs: A {}, B {}",
                    super::count(self.same_path_stops, "stop"),
                    p.stop,
                    p.a.as_deref().unwrap_or(none),
                    p.b.as_deref().unwrap_or(none)
                );
            }
        }
        let absent = "(no such local)";
        match &self.value_differs {
            None => {
                let _ = writeln!(
                    out,
                    "Values: the same at each of the {} on the shared path",
                    super::count(self.same_path_stops, "stop")
                );
            }
            Some(v) => {
                let _ = writeln!(
                    out,
                    "Values: first differ at stop {} ({} in {}): {}: {} → {}",
                    v.stop,
                    v.at,
                    v.function,
                    v.path,
                    v.a.as_deref().unwrap_or(absent),
                    v.b.as_deref().unwrap_or(absent)
                );
            }
        }
        if self.cut_values > 0 {
            let _ = writeln!(
                out,
                "  ({} compared alike {} cut short in the journal: they may differ past the cut)",
                super::count(self.cut_values, "value"),
                if self.cut_values == 1 { "was" } else { "were" }
            );
        }
        out
    }
}
