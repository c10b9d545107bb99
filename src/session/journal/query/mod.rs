//! Reading the journals back: list them with filters, search them, show
//! one, and compare two runs of the same program. Read-only: nothing here
//! writes a journal. Each answer reads for a person (`text`) or, being
//! serializable, as JSON for a script or an agent.

mod dates;
mod diff;
mod filter;
mod search;
mod show;
mod summary;
mod value_text;

use std::path::{Path, PathBuf};

pub use dates::utc;
pub use diff::{Diff, diff};
pub use filter::Filter;
pub use search::{Hit, Search, search};
pub use show::{Shown, show};
pub use summary::{Outcome, Summary, summarize};

use super::record::Record;
use super::store;

/// A journal read whole: its id (file name without `.jsonl`) and records.
pub struct Loaded {
    pub id: String,
    pub path: PathBuf,
    pub records: Vec<Record>,
}

impl Loaded {
    pub fn summary(&self) -> Summary {
        summarize(&self.id, &self.records)
    }
}

/// Reads the journal at `path`, its secrets masked again: a journal an
/// older version wrote may hold a value under a secret's name in clear.
pub fn load(path: &Path) -> Result<Loaded, String> {
    let mut records =
        store::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let taint = crate::session::secrets::Taint::default();
    for r in &mut records {
        remask(r, &taint);
    }
    Ok(Loaded {
        id: id_of(path),
        path: path.to_path_buf(),
        records,
    })
}

fn remask(r: &mut Record, taint: &crate::session::secrets::Taint) {
    use crate::session::secrets::{is_secret_name, mask, text};
    match r {
        Record::Stop(s) => {
            for v in &mut s.locals {
                if v.value.starts_with("<redacted") {
                    continue;
                }
                v.value = match is_secret_name(&v.name) {
                    true => mask(&v.value),
                    false => text(&v.value, taint),
                };
            }
            s.exception.iter_mut().for_each(|x| *x = text(x, taint));
        }
        Record::Note { text: t, .. } | Record::Output { text: t, .. } => *t = text(t, taint),
        _ => {}
    }
}

pub fn id_of(path: &Path) -> String {
    path.file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string()
}

/// The journals that pass `filter`, oldest first.
pub fn list(dir: &Path, filter: &Filter) -> Vec<Loaded> {
    store::list(dir)
        .iter()
        .filter_map(|p| load(p).ok())
        .filter(|j| filter.passes(&j.summary()))
        .collect()
}

/// The journal `id` names: a journal id, or a session id (the newest of
/// `workspace`'s sessions with it). The error names `arg`.
pub fn resolve(dir: &Path, workspace: &Path, arg: &str, id: &str) -> Result<Loaded, String> {
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!(
            "{arg} {id:?}: a journal id is letters, digits, '-' and '_' (as `pairdbg journal list` prints it), or a session id"
        ));
    }
    let all = store::list(dir);
    if let Some(p) = all.iter().find(|p| id_of(p) == id) {
        return load(p);
    }
    let ws = workspace.display().to_string();
    for p in all.iter().rev() {
        let j = load(p)?;
        let s = j.summary();
        if s.session == id && s.workspace == ws {
            return Ok(j);
        }
    }
    Err(format!(
        "{arg} {id:?}: no journal with that id, nor of a session {id} in {ws}, in {} (`pairdbg journal list` shows them)",
        dir.display()
    ))
}

/// The place of a stop's top frame, `file:line`, or `?` unread.
pub(crate) fn place(s: &super::record::StopRecord) -> String {
    match s.frames.first() {
        Some(f) => format!("{}:{}", f.file.as_deref().unwrap_or("?"), f.line),
        None => "?".into(),
    }
}

/// The stops of a journal in order.
pub fn stops_of(records: &[Record]) -> Vec<&super::record::StopRecord> {
    stops(records)
}

pub(crate) fn stops(records: &[Record]) -> Vec<&super::record::StopRecord> {
    records
        .iter()
        .filter_map(|r| match r {
            Record::Stop(s) => Some(&**s),
            _ => None,
        })
        .collect()
}

/// Whether the journal lost its earliest records to its cap.
pub(crate) fn rotated(records: &[Record]) -> bool {
    records.iter().any(|r| matches!(r, Record::Rotated { .. }))
}

/// A list of journals for a person, one a line.
pub fn list_text(list: &[Summary]) -> String {
    if list.is_empty() {
        return "No journals match.\n".into();
    }
    let mut out = String::new();
    for s in list {
        let run = std::iter::once(s.program.as_str())
            .chain(s.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        out.push_str(&format!(
            "{}  {}  {run}  ·  {}  ·  {}, {}\n",
            s.id,
            s.started,
            s.outcome_text,
            count(s.stops, "stop"),
            count(s.notes, "note")
        ));
    }
    out
}

/// `1 stop`, `2 stops`.
pub fn count(n: usize, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        _ => format!("{n} {what}s"),
    }
}

/// The program's output joined into whole lines: a print may reach the
/// journal in pieces.
#[derive(Default)]
pub(crate) struct OutputLines {
    stream: String,
    text: String,
}

impl OutputLines {
    /// Adds a piece; returns the lines it completed, with their stream.
    pub fn push(&mut self, stream: &str, text: &str) -> Vec<(String, String)> {
        let mut done = vec![];
        if stream != self.stream {
            done = self.flush();
            self.stream = stream.to_string();
        }
        self.text.push_str(text);
        while let Some(at) = self.text.find('\n') {
            let line: String = self.text.drain(..=at).collect();
            done.push((
                self.stream.clone(),
                line.trim_end_matches(['\n', '\r']).into(),
            ));
        }
        done
    }

    /// What is left of a line not ended.
    pub fn flush(&mut self) -> Vec<(String, String)> {
        match self.text.is_empty() {
            true => vec![],
            false => vec![(self.stream.clone(), std::mem::take(&mut self.text))],
        }
    }
}
