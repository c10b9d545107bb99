//! One journal shown: every stop with its full state, the notes, the
//! output and the end in the order they came; or one stop alone.

use std::fmt::Write;

use serde::Serialize;

use super::super::record::{Record, StopRecord};
use super::{Loaded, OutputLines, Summary, place, rotated, stops};

/// Longest line of output shown in a whole session.
const OUTPUT_CHARS: usize = 200;

#[derive(Debug, Clone, Serialize)]
pub struct Shown {
    #[serde(flatten)]
    pub summary: Summary,
    /// The earliest records went to the journal's cap.
    pub cut_at_start: bool,
    /// The stop asked for, with its number; every stop otherwise.
    pub stops: Vec<NumberedStop>,
    pub notes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    #[serde(skip)]
    text: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct NumberedStop {
    pub number: usize,
    #[serde(flatten)]
    pub stop: StopRecord,
}

impl Shown {
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// The journal whole, or its stop `stop` (from 1). The error names
/// `--stop` and the stops there are.
pub fn show(j: &Loaded, stop: Option<usize>) -> Result<Shown, String> {
    let summary = j.summary();
    let all = stops(&j.records);
    let mut text = header(&summary);
    let cut = rotated(&j.records);
    if cut {
        text.push_str("The journal reached its cap: its earliest records are gone.\n");
    }
    let notes: Vec<String> = j
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Note { origin, text, .. } => Some(format!("{}: {text}", origin.tag())),
            _ => None,
        })
        .collect();
    if let Some(n) = stop {
        let s = match n.checked_sub(1).and_then(|i| all.get(i)) {
            Some(s) => *s,
            None if all.is_empty() => {
                return Err(format!("--stop {n}: the journal {} holds no stops", j.id));
            }
            None => {
                return Err(format!(
                    "--stop {n}: the journal {} holds stops 1 to {}",
                    j.id,
                    all.len()
                ));
            }
        };
        stop_text(&mut text, s, n, all.len());
        if !s.viewport.is_empty() {
            let _ = write!(text, "\nAs the agent read it:\n{}", s.viewport);
        }
        return Ok(Shown {
            summary,
            cut_at_start: cut,
            stops: vec![NumberedStop {
                number: n,
                stop: s.clone(),
            }],
            notes,
            output: None,
            text,
        });
    }
    let mut n = 0;
    let mut output = String::new();
    let mut lines = OutputLines::default();
    let out_line = |text: &mut String, (stream, l): (String, String)| {
        let l: String = l.chars().take(OUTPUT_CHARS).collect();
        let _ = writeln!(text, "  {stream}| {l}");
    };
    for r in &j.records {
        if !matches!(r, Record::Output { .. }) {
            lines
                .flush()
                .into_iter()
                .for_each(|l| out_line(&mut text, l));
        }
        match r {
            Record::Stop(s) => {
                n += 1;
                stop_text(&mut text, s, n, all.len());
            }
            Record::Note {
                origin, text: t, ..
            } => {
                let _ = writeln!(text, "\nNote ({}): {t}", origin.tag());
            }
            Record::Output {
                stream, text: t, ..
            } => {
                output.push_str(t);
                for l in lines.push(stream, t) {
                    out_line(&mut text, l);
                }
            }
            Record::OutputCapped { bytes, .. } => {
                let _ = writeln!(text, "  (output past {bytes} bytes not journaled)");
            }
            Record::Exit { summary: s, .. } if !s.is_empty() => {
                let _ = writeln!(text, "\nEnd: {s}");
            }
            Record::Failed { error, .. } => {
                let _ = writeln!(text, "\nFailed: {error}");
            }
            _ => {}
        }
    }
    lines
        .flush()
        .into_iter()
        .for_each(|l| out_line(&mut text, l));
    if all.is_empty() {
        text.push_str("\nNo stops recorded.\n");
    }
    Ok(Shown {
        summary,
        cut_at_start: cut,
        stops: all
            .iter()
            .enumerate()
            .map(|(i, s)| NumberedStop {
                number: i + 1,
                stop: (*s).clone(),
            })
            .collect(),
        notes,
        output: (!output.is_empty()).then_some(output),
        text,
    })
}

fn header(s: &Summary) -> String {
    let run = std::iter::once(s.program.as_str())
        .chain(s.args.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        "Journal {} · session {} in {}\nRun: {run}\nStarted {} · {} · {}\n",
        s.id,
        s.session,
        s.workspace,
        s.started,
        s.outcome_text,
        super::count(s.stops, "stop")
    )
}

fn stop_text(out: &mut String, s: &StopRecord, n: usize, of: usize) {
    let func = s.frames.first().map(|f| f.name.as_str()).unwrap_or("?");
    let _ = writeln!(
        out,
        "\nStop {n} of {of} · {} in {func} · {}",
        place(s),
        s.reason
    );
    if let Some(d) = s.description.as_deref().filter(|d| *d != s.reason) {
        let _ = writeln!(out, "  {d}");
    }
    if let Some(x) = &s.exception {
        let _ = writeln!(out, "  exception: {x}");
    }
    out.push_str("  Stack:\n");
    for (i, f) in s.frames.iter().enumerate() {
        let _ = writeln!(
            out,
            "    #{i} {} {}:{}",
            f.name,
            f.file.as_deref().unwrap_or("?"),
            f.line
        );
    }
    if s.locals.is_empty() {
        out.push_str("  Locals: none recorded\n");
    } else {
        out.push_str("  Locals:\n");
        for v in &s.locals {
            let _ = writeln!(out, "    {} = {}", v.name, v.value.replace('\n', " "));
        }
    }
}
