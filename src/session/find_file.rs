//! A bare file name (`number.py`) found in the workspace, so an agent
//! can name a file as the stack shows it without guessing its folder.

use std::path::{Path, PathBuf};

/// Directories a search skips: tools' caches and build output hold
/// copies and generated files, never the file meant.
const SKIPPED: &[&str] = &["node_modules", "target", "__pycache__", "venv", "build"];
/// Entries a search looks at before it gives up, so a huge tree costs
/// a bounded time.
const MAX_ENTRIES: usize = 50_000;

/// Every file under `root` named `name`, sorted.
pub fn files_named(root: &Path, name: &str) -> Vec<PathBuf> {
    let mut found = vec![];
    let mut dirs = vec![root.to_path_buf()];
    let mut seen = 0;
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            seen += 1;
            if seen > MAX_ENTRIES {
                found.sort();
                return found;
            }
            let file_name = e.file_name();
            let n = file_name.to_string_lossy();
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                if !n.starts_with('.') && !SKIPPED.contains(&n.as_ref()) {
                    dirs.push(e.path());
                }
            } else if kind.is_file() && n == name {
                found.push(e.path());
            }
        }
    }
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_file_of_a_name_outside_skipped_dirs() {
        let d = tempfile::tempdir().unwrap();
        for p in ["a/x.py", "b/c/x.py", "target/x.py", ".git/x.py", "y.py"] {
            let p = d.path().join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "").unwrap();
        }
        let found: Vec<PathBuf> = files_named(d.path(), "x.py")
            .into_iter()
            .map(|p| p.strip_prefix(d.path()).unwrap().to_path_buf())
            .collect();
        assert_eq!(found, [PathBuf::from("a/x.py"), PathBuf::from("b/c/x.py")]);
    }
}
