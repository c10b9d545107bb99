//! The hand-off card: a journal as markdown that a person or an agent reads
//! in a minute: what ran, the stops in order with their key values, the
//! notes and hypotheses, and the breakpoints.

use std::fmt::Write;

use super::record::{Record, StopRecord};
use crate::session::types::Origin;

/// Stops listed on a card (the newest).
const STOPS_SHOWN: usize = 100;
/// Locals shown per stop.
const KEY_VALUES: usize = 8;
/// Longest value shown on a card.
const VALUE_CHARS: usize = 80;
/// Actions listed (the newest).
const ACTIONS_SHOWN: usize = 60;
/// How the engine words a note's action; the notes have their own section.
const NOTE_ACTION: &str = "wrote a note";

pub fn render_card(records: &[Record]) -> String {
    let mut out = String::new();
    let start = records.iter().find_map(|r| match r {
        Record::Start {
            session,
            workspace,
            program,
            args,
            at,
            ..
        } => Some((session, workspace, program, args, *at)),
        _ => None,
    });
    match start {
        Some((session, workspace, program, args, at)) => {
            let _ = writeln!(out, "# Debugging hand-off: {program}\n");
            let _ = writeln!(
                out,
                "- Session {session} in `{workspace}`, started {}",
                utc(at)
            );
            let run = std::iter::once(program.as_str())
                .chain(args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ");
            let _ = writeln!(out, "- Run: `{run}`");
        }
        None => out.push_str("# Debugging hand-off\n\n"),
    }
    let _ = writeln!(out, "- Outcome: {}", outcome(records));
    let _ = writeln!(out, "- Commands: {}", commands(records, false));
    let _ = writeln!(
        out,
        "- Of them moving the program or changing breakpoints: {}",
        commands(records, true)
    );
    if records.iter().any(|r| matches!(r, Record::Rotated { .. })) {
        out.push_str("- The journal reached its cap: its earliest records are gone.\n");
    }
    stops(&mut out, records);
    notes(&mut out, records);
    breakpoints(&mut out, records);
    actions(&mut out, records);
    out
}

/// How many commands, and by whom: `12 (person 5, agent 7)`.
fn commands(records: &[Record], only_control: bool) -> String {
    let mut counts: Vec<(Origin, usize)> = vec![];
    for r in records {
        if let Record::Command {
            origin, control, ..
        } = r
            && (*control || !only_control)
        {
            match counts.iter_mut().find(|(o, _)| o == origin) {
                Some((_, n)) => *n += 1,
                None => counts.push((*origin, 1)),
            }
        }
    }
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    let by: Vec<String> = counts
        .iter()
        .map(|(o, n)| format!("{} {n}", o.tag()))
        .collect();
    match total {
        0 => "0".into(),
        _ => format!("{total} ({})", by.join(", ")),
    }
}

fn outcome(records: &[Record]) -> String {
    for r in records.iter().rev() {
        match r {
            Record::Exit {
                summary, exit_code, ..
            } => {
                return match (summary.is_empty(), exit_code) {
                    (false, _) => summary.clone(),
                    (true, Some(c)) => format!("exited with code {c}"),
                    (true, None) => "exited".into(),
                };
            }
            Record::Failed { error, .. } => return format!("failed: {error}"),
            Record::Stop(s) => return format!("stopped at {} when the journal ends", place(s)),
            _ => {}
        }
    }
    "no stop recorded".into()
}

fn stops(out: &mut String, records: &[Record]) {
    // Who moved the program to each stop: the last action with an origin.
    let mut by: Option<String> = None;
    let mut list: Vec<(&StopRecord, Option<String>)> = vec![];
    for r in records {
        match r {
            Record::Action {
                origin: Some(_),
                what,
                ..
            } if !what.ends_with(NOTE_ACTION) => by = Some(what.clone()),
            Record::Stop(s) => list.push((s, by.take())),
            _ => {}
        }
    }
    let _ = writeln!(out, "\n## Stops ({})\n", list.len());
    if list.is_empty() {
        out.push_str("None.\n");
    }
    let skip = list.len().saturating_sub(STOPS_SHOWN);
    if skip > 0 {
        let _ = writeln!(out, "({skip} earlier stops left out.)\n");
    }
    for (n, (s, by)) in list.iter().enumerate().skip(skip) {
        let func = s.frames.first().map(|f| f.name.as_str()).unwrap_or("?");
        let _ = write!(out, "{}. `{}` in `{func}`: {}", n + 1, place(s), s.reason);
        if let Some(by) = by {
            let _ = write!(out, ", after {by}");
        }
        out.push('\n');
        if let Some(x) = &s.exception {
            let _ = writeln!(out, "   - exception: {x}");
        }
        for v in s.locals.iter().take(KEY_VALUES) {
            let _ = writeln!(out, "   - `{} = {}`", v.name, short(&v.value));
        }
        if s.locals.len() > KEY_VALUES {
            let _ = writeln!(out, "   - … {} more locals", s.locals.len() - KEY_VALUES);
        }
    }
}

fn notes(out: &mut String, records: &[Record]) {
    out.push_str("\n## Notes and hypotheses\n\n");
    let mut any = false;
    for r in records {
        if let Record::Note { origin, text, .. } = r {
            any = true;
            let _ = writeln!(out, "- {}: {}", origin.tag(), text.replace('\n', " "));
        }
    }
    if !any {
        out.push_str("None.\n");
    }
}

fn breakpoints(out: &mut String, records: &[Record]) {
    out.push_str("\n## Breakpoints\n\n");
    let last = records.iter().rev().find_map(|r| match r {
        Record::Breakpoints { list, .. } => Some(list),
        _ => None,
    });
    let Some(list) = last.filter(|l| !l.is_empty()) else {
        out.push_str("None.\n");
        return;
    };
    for b in list {
        let _ = write!(out, "- `{}` ({})", b.place, b.origin.tag());
        if let Some(c) = &b.condition {
            let _ = write!(out, ", condition `{c}`");
        }
        if let Some(h) = &b.hit_condition {
            let _ = write!(out, ", hit count `{h}`");
        }
        if let Some(m) = &b.log_message {
            let _ = write!(out, ", logs `{m}`");
        }
        if !b.enabled {
            out.push_str(", off");
        }
        out.push('\n');
    }
}

fn actions(out: &mut String, records: &[Record]) {
    let list: Vec<&str> = records
        .iter()
        .filter_map(|r| match r {
            Record::Action {
                origin: Some(_),
                what,
                ..
            } if !what.ends_with(NOTE_ACTION) => Some(what.as_str()),
            _ => None,
        })
        .collect();
    if list.is_empty() {
        return;
    }
    out.push_str("\n## What was done\n\n");
    let skip = list.len().saturating_sub(ACTIONS_SHOWN);
    if skip > 0 {
        let _ = writeln!(out, "- … {skip} earlier");
    }
    for what in &list[skip..] {
        let _ = writeln!(out, "- {what}");
    }
}

fn place(s: &StopRecord) -> String {
    match s.frames.first() {
        Some(f) => format!("{}:{}", f.file.as_deref().unwrap_or("?"), f.line),
        None => "?".into(),
    }
}

fn short(v: &str) -> String {
    let one = v.replace('\n', " ");
    if one.chars().count() <= VALUE_CHARS {
        return one;
    }
    let mut s: String = one.chars().take(VALUE_CHARS).collect();
    s.push('…');
    s
}

fn utc(ms: u64) -> String {
    super::query::utc(ms)
}
