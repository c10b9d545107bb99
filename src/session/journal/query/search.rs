//! Finding text across journals: in the stops' places, their values and
//! exceptions, the notes, the program's output and how a session ended.

use serde::Serialize;

use super::super::record::Record;
use super::{Loaded, OutputLines, place};

/// Hits returned at most; the rest are counted.
const HITS_SHOWN: usize = 200;
/// Longest line of a hit shown.
const HIT_CHARS: usize = 160;

#[derive(Debug, Clone, Serialize)]
pub struct Hit {
    pub journal: String,
    pub program: String,
    pub started: String,
    /// What matched: `place`, `value`, `exception`, `note`, `output` or `end`.
    pub kind: &'static str,
    /// The stop's number in its journal, for what belongs to a stop.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop: Option<usize>,
    /// Where the program stood: the stop's place, or the last stop's
    /// before a note or output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    pub text: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Search {
    pub query: String,
    pub journals_read: usize,
    pub hits: Vec<Hit>,
    /// Hits beyond those returned.
    pub more: usize,
}

/// Every place `query` occurs (ignoring case) in `journals`, oldest first.
pub fn search(journals: &[Loaded], query: &str) -> Result<Search, String> {
    if query.trim().is_empty() {
        return Err("TEXT: empty: give the text to find".into());
    }
    let needle = query.to_lowercase();
    let found = |s: &str| s.to_lowercase().contains(&needle);
    let mut hits = vec![];
    let mut more = 0;
    for j in journals {
        let summary = j.summary();
        let mut push = |kind, stop, at: Option<String>, text: &str| {
            if hits.len() >= HITS_SHOWN {
                more += 1;
                return;
            }
            hits.push(Hit {
                journal: j.id.clone(),
                program: summary.program.clone(),
                started: summary.started.clone(),
                kind,
                stop,
                at,
                text: line(text),
            });
        };
        let mut n = 0;
        let mut at: Option<String> = None;
        let mut lines = OutputLines::default();
        for r in &j.records {
            if !matches!(r, Record::Output { .. }) {
                for (_, l) in lines.flush().iter().filter(|(_, l)| found(l)) {
                    push("output", None, at.clone(), l);
                }
            }
            match r {
                Record::Stop(s) => {
                    n += 1;
                    let here = place(s);
                    for f in &s.frames {
                        let frame =
                            format!("{} {}:{}", f.name, f.file.as_deref().unwrap_or("?"), f.line);
                        if found(&frame) {
                            push("place", Some(n), Some(here.clone()), &frame);
                            break;
                        }
                    }
                    for v in &s.locals {
                        let shown = format!("{} = {}", v.name, v.value);
                        if found(&shown) {
                            push("value", Some(n), Some(here.clone()), &shown);
                        }
                    }
                    if let Some(x) = s.exception.as_deref().filter(|x| found(x)) {
                        push("exception", Some(n), Some(here.clone()), x);
                    }
                    at = Some(here);
                }
                Record::Note { origin, text, .. } if found(text) => {
                    push(
                        "note",
                        None,
                        at.clone(),
                        &format!("{}: {text}", origin.tag()),
                    );
                }
                Record::Output { stream, text, .. } => {
                    for (_, l) in lines.push(stream, text).iter().filter(|(_, l)| found(l)) {
                        push("output", None, at.clone(), l);
                    }
                }
                Record::Exit { summary, .. } if found(summary) => {
                    push("end", None, None, summary);
                }
                Record::Failed { error, .. } if found(error) => {
                    push("end", None, None, error);
                }
                _ => {}
            }
        }
        for (_, l) in lines.flush().iter().filter(|(_, l)| found(l)) {
            push("output", None, at.clone(), l);
        }
    }
    Ok(Search {
        query: query.to_string(),
        journals_read: journals.len(),
        hits,
        more,
    })
}

fn line(s: &str) -> String {
    let one = s.replace('\n', " ");
    if one.chars().count() <= HIT_CHARS {
        return one;
    }
    let mut out: String = one.chars().take(HIT_CHARS).collect();
    out.push('…');
    out
}

impl Search {
    pub fn text(&self) -> String {
        if self.hits.is_empty() {
            return format!(
                "{:?} is in none of the {} journals read.\n",
                self.query, self.journals_read
            );
        }
        let mut out = String::new();
        let mut journal = "";
        for h in &self.hits {
            if h.journal != journal {
                journal = &h.journal;
                out.push_str(&format!("{}  {}  {}\n", h.journal, h.started, h.program));
            }
            let stop = h.stop.map(|n| format!("stop {n} ")).unwrap_or_default();
            let at =
                h.at.as_deref()
                    .map(|a| format!("at {a} "))
                    .unwrap_or_default();
            out.push_str(&format!("  {stop}{at}{}: {}\n", h.kind, h.text));
        }
        if self.more > 0 {
            out.push_str(&format!("… {} more hits\n", self.more));
        }
        out
    }
}
