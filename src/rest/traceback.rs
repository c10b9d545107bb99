//! An error's traceback in Python's shape, from the stop's frames: the
//! document's `traceback`, whatever the language.

use crate::session::types::{ExceptionDetails, StopInfo};

/// The longest traceback sent; the innermost frames are kept.
const MAX_TRACEBACK_CHARS: usize = 8192;

/// The exception's type without a module prefix Python adds to builtins.
pub fn type_name(raw: &str) -> String {
    raw.strip_prefix("builtins.").unwrap_or(raw).to_string()
}

pub fn render(stop: &StopInfo, e: &ExceptionDetails) -> String {
    let mut frames = vec![];
    for f in &stop.frames {
        let mut entry = match &f.file {
            Some(p) => format!(
                "  File \"{}\", line {}, in {}\n",
                p.display(),
                f.line,
                f.name
            ),
            None => format!("  <unknown>, in {}\n", f.name),
        };
        if let Some(text) = f.file.as_deref().and_then(|p| line_text(p, f.line)) {
            entry.push_str(&format!("    {text}\n"));
        }
        frames.push(entry);
    }
    let last = format!("{}: {}", type_name(&e.type_name), e.message);
    let mut body = String::new();
    // Innermost last, as Python prints it; the outermost go first when long.
    for entry in frames.iter() {
        if body.len() + entry.len() + last.len() > MAX_TRACEBACK_CHARS {
            break;
        }
        body.insert_str(0, entry);
    }
    format!("Traceback (most recent call last):\n{body}{last}")
}

fn line_text(path: &std::path::Path, line: u64) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let l = text.lines().nth(line.checked_sub(1)? as usize)?.trim();
    (!l.is_empty()).then(|| l.to_string())
}
