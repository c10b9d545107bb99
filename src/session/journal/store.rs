//! Where journals live, which ones are kept, and finding one to read.

use std::path::{Path, PathBuf};

use super::file::previous_part;
use super::record::Record;

/// `$XDG_STATE_HOME/pairdbg/journals`, or None without a state directory.
pub fn journals_dir() -> Option<PathBuf> {
    Some(crate::paths::state_dir()?.join("journals"))
}

/// A journal's file name: its start time first, so names sort by age.
pub fn file_name(started_ms: u64, pid: u32, session: &str) -> String {
    let session: String = session
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("{started_ms:013}-{pid}-{session}.jsonl")
}

/// When the journal at `path` started, from its name.
pub fn started_ms(path: &Path) -> Option<u64> {
    let name = path.file_name()?.to_str()?;
    name.split('-').next()?.parse().ok()
}

/// The journals in `dir`, oldest first (their previous parts left out).
pub fn list(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".jsonl") && !name.ends_with(".prev.jsonl")
        })
        .collect();
    found.sort();
    found
}

/// Deletes the oldest journals so that at most `keep` remain.
pub fn prune(dir: &Path, keep: usize) {
    let all = list(dir);
    let excess = all.len().saturating_sub(keep);
    for old in &all[..excess] {
        let _ = std::fs::remove_file(previous_part(old));
        let _ = std::fs::remove_file(old);
    }
}

/// Every record of a journal, its previous part first. Lines that do not
/// parse (a write cut short by a crash) are skipped.
pub fn read(path: &Path) -> std::io::Result<Vec<Record>> {
    let mut records = vec![];
    if let Ok(text) = std::fs::read_to_string(previous_part(path)) {
        records.extend(parse(&text));
    }
    records.extend(parse(&std::fs::read_to_string(path)?));
    Ok(records)
}

fn parse(text: &str) -> impl Iterator<Item = Record> + '_ {
    text.lines().filter_map(|l| serde_json::from_str(l).ok())
}

/// The journal's first record, read alone.
fn start_of(path: &Path) -> Option<(String, String)> {
    use std::io::BufRead;
    let f = std::fs::File::open(path).ok()?;
    let mut line = String::new();
    std::io::BufReader::new(f).read_line(&mut line).ok()?;
    match serde_json::from_str(&line).ok()? {
        Record::Start {
            workspace, session, ..
        } => Some((workspace, session)),
        _ => None,
    }
}

/// The journal to read: the newest of `workspace`'s, or with `session`
/// the newest whose session id or journal id (its file name without
/// `.jsonl`) is that.
pub fn find(dir: &Path, workspace: &Path, session: Option<&str>) -> Result<PathBuf, String> {
    let workspace = workspace.display().to_string();
    let all = list(dir);
    if let Some(id) = session
        && let Some(p) = all
            .iter()
            .find(|p| p.file_stem().and_then(|s| s.to_str()) == Some(id))
    {
        return Ok(p.clone());
    }
    let ours = all.iter().rev().find(|p| match start_of(p) {
        Some((w, s)) => w == workspace && session.is_none_or(|id| s == id),
        None => false,
    });
    match (ours, session) {
        (Some(p), _) => Ok(p.clone()),
        (None, Some(id)) => Err(format!(
            "session: no journal of session {id} for {workspace} in {}",
            dir.display()
        )),
        (None, None) => Err(format!(
            "no journal for {workspace} in {}: a session writes one as it runs",
            dir.display()
        )),
    }
}
