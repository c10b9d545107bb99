//! An error's traceback for the document's `traceback`, from the stop's
//! frames, in the shape the program's language writes one.

use crate::adapters::{TraceFrame, plain_traceback};
use crate::session::types::{ExceptionDetails, Snapshot, StopInfo};

/// The longest traceback sent; the innermost frames are kept.
const MAX_TRACEBACK_CHARS: usize = 8192;

/// The exception's type as the program's language shows it.
pub fn type_name(snap: &Snapshot, raw: &str) -> String {
    match snap.language.0 {
        Some(l) => l.exception_type_shown(raw),
        None => raw.to_string(),
    }
}

pub fn render(snap: &Snapshot, stop: &StopInfo, e: &ExceptionDetails) -> String {
    let frames: Vec<TraceFrame> = stop
        .frames
        .iter()
        .map(|f| TraceFrame {
            file: f.file.as_deref().map(|p| p.display().to_string()),
            line: f.line,
            function: f.name.clone(),
            source: f.file.as_deref().and_then(|p| line_text(p, f.line)),
        })
        .collect();
    match snap.language.0 {
        Some(l) => l.traceback(&frames, &e.type_name, &e.message, MAX_TRACEBACK_CHARS),
        None => plain_traceback(&frames, &e.type_name, &e.message, MAX_TRACEBACK_CHARS),
    }
}

fn line_text(path: &std::path::Path, line: u64) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let l = text.lines().nth(line.checked_sub(1)? as usize)?.trim();
    (!l.is_empty()).then(|| l.to_string())
}
