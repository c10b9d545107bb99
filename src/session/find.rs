//! Finds code in the workspace by text or by definition, so that an agent
//! can place a breakpoint from a `file:line` instead of reading files whole.

use std::path::{Path, PathBuf};

pub use crate::adapters::definitions::DefinitionKind;
use crate::adapters::definitions::{self, SOURCE_EXTENSIONS};
use crate::session::SessionError;
use crate::workspace_files;

/// What to look for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindKind {
    Text,
    Definition(DefinitionKind),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// Relative to the searched root.
    pub file: String,
    pub line: u64,
    pub text: String,
}

#[derive(Debug, Default)]
pub struct Found {
    pub hits: Vec<Hit>,
    /// Hits past the cap, counted while the search went on.
    pub more: usize,
    pub files_searched: usize,
    /// The search stopped early (`MAX_FILES`, or the walk's own cap): the
    /// count of `more` is a lower bound.
    pub files_capped: bool,
    /// The pattern matched whatever the case.
    pub ignore_case: bool,
}

pub const MAX_PATTERN: usize = 200;
pub const MAX_RESULTS: usize = 200;
pub const MAX_FILES: usize = 20_000;
/// Larger files are generated or data; a definition in one is rare and
/// reading it costs more than the search is worth.
const MAX_FILE_BYTES: u64 = 2 << 20;
/// A shown line is cut here: the hit's place matters, not its whole text.
const LINE_CHARS: usize = 120;
/// Searches `root` for `pattern`: plain text in source files, or the
/// definitions whose name contains it.
pub fn find(root: &Path, pattern: &str, kind: FindKind, cap: usize) -> Result<Found, SessionError> {
    find_cased(root, pattern, kind, cap, false)
}

/// As `find`, the pattern's case ignored when `ignore_case`.
pub fn find_cased(
    root: &Path,
    pattern: &str,
    kind: FindKind,
    cap: usize,
    ignore_case: bool,
) -> Result<Found, SessionError> {
    if pattern.trim().is_empty() {
        return Err(SessionError::invalid("pattern", "must not be empty"));
    }
    if pattern.len() > MAX_PATTERN {
        return Err(SessionError::invalid(
            "pattern",
            format!("is {} bytes; the limit is {MAX_PATTERN}", pattern.len()),
        ));
    }
    if cap == 0 || cap > MAX_RESULTS {
        return Err(SessionError::invalid(
            "max_results",
            format!("must be 1 to {MAX_RESULTS}"),
        ));
    }
    if let FindKind::Definition(_) = kind
        && !pattern.chars().all(|c| c.is_alphanumeric() || c == '_')
    {
        return Err(SessionError::invalid(
            "pattern",
            "a function or class search takes a name or part of one (letters, digits, _)",
        ));
    }
    let (files, walk_capped) = source_files(root);
    let mut found = Found {
        files_capped: walk_capped,
        ignore_case,
        ..Found::default()
    };
    for path in files {
        if found.files_searched == MAX_FILES {
            found.files_capped = true;
            break;
        }
        found.files_searched += 1;
        search_file(root, &path, pattern, kind, cap, &mut found);
    }
    Ok(found)
}

/// Searches `files` too (a program's loaded modules outside the
/// workspace), after what `find` found; hits show the files' full paths.
pub fn also_search(
    found: &mut Found,
    files: &[PathBuf],
    pattern: &str,
    kind: FindKind,
    cap: usize,
) {
    for path in files {
        if found.files_searched == MAX_FILES {
            found.files_capped = true;
            break;
        }
        let big = std::fs::metadata(path).map_or(true, |m| m.len() > MAX_FILE_BYTES);
        if big {
            continue;
        }
        found.files_searched += 1;
        search_file(Path::new(""), path, pattern, kind, cap, found);
    }
}

fn source_files(root: &Path) -> (Vec<PathBuf>, bool) {
    workspace_files::files(root, true, |p| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SOURCE_EXTENSIONS.contains(&e))
            && std::fs::metadata(p).is_ok_and(|m| m.len() <= MAX_FILE_BYTES)
    })
}

fn search_file(
    root: &Path,
    path: &Path,
    pattern: &str,
    kind: FindKind,
    cap: usize,
    found: &mut Found,
) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let matcher = match kind {
        FindKind::Text => None,
        FindKind::Definition(k) => {
            match definitions::definition_cased(ext, k, pattern, found.ignore_case) {
                Some(re) => Some(re),
                None => return,
            }
        }
    };
    let lower = pattern.to_lowercase();
    let rel = path
        .strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned();
    for (i, line) in text.lines().enumerate() {
        let hit = match &matcher {
            None if found.ignore_case => line.to_lowercase().contains(&lower),
            None => line.contains(pattern),
            Some(re) => re.is_match(line),
        };
        if !hit {
            continue;
        }
        if found.hits.len() == cap {
            found.more += 1;
            continue;
        }
        found.hits.push(Hit {
            file: rel.clone(),
            line: i as u64 + 1,
            text: shown(line.trim()),
        });
    }
}

fn shown(line: &str) -> String {
    match line.char_indices().nth(LINE_CHARS) {
        Some((at, _)) => format!("{}…", &line[..at]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for (p, body) in files {
            let path = d.path().join(p);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, body).unwrap();
        }
        d
    }

    #[test]
    fn finds_definitions_text_and_counts_what_the_cap_left_out() {
        let d = tree(&[
            (
                "app/order.py",
                "def calculate_discount(u):\n    return 0\n\nx = calculate_discount(1)\n",
            ),
            ("lib/shop.rs", "fn discount() {}\n"),
            ("node_modules/dep/index.js", "function discount() {}\n"),
            ("notes.txt", "calculate_discount\n"),
        ]);
        let f = find(
            d.path(),
            "discount",
            FindKind::Definition(DefinitionKind::Function),
            50,
        )
        .unwrap();
        let at: Vec<String> = f
            .hits
            .iter()
            .map(|h| format!("{}:{}", h.file, h.line))
            .collect();
        assert_eq!(at, ["app/order.py:1", "lib/shop.rs:1"]);
        let f = find(d.path(), "calculate_discount(", FindKind::Text, 1).unwrap();
        assert_eq!(f.hits[0].text, "def calculate_discount(u):");
        assert_eq!(f.more, 1);
    }

    #[test]
    fn bad_patterns_name_the_field_and_the_limit() {
        let d = tree(&[]);
        let e = find(d.path(), "", FindKind::Text, 5)
            .unwrap_err()
            .to_string();
        assert!(e.contains("pattern"), "{e}");
        let e = find(d.path(), &"x".repeat(201), FindKind::Text, 5)
            .unwrap_err()
            .to_string();
        assert!(e.contains("201") && e.contains("200"), "{e}");
        let e = find(
            d.path(),
            "a b",
            FindKind::Definition(DefinitionKind::Class),
            5,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("name"), "{e}");
        let e = find(d.path(), "x", FindKind::Text, 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("max_results"), "{e}");
    }
}
