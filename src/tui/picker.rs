//! Finding things: text in the source pane, and files in the workspace.

use std::path::{Path, PathBuf};

/// Workspace files a person might open, honouring .gitignore; capped so a
/// huge tree cannot stall the UI.
pub fn workspace_files(root: &Path, limit: usize) -> Vec<PathBuf> {
    let mut out = vec![];
    for entry in ignore::WalkBuilder::new(root)
        .hidden(true)
        .build()
        .flatten()
    {
        if entry.file_type().is_some_and(|t| t.is_file()) {
            out.push(entry.into_path());
            if out.len() >= limit {
                break;
            }
        }
    }
    out.sort();
    out
}

/// Files whose workspace-relative path contains every word of `query`.
pub fn filter<'a>(files: &'a [PathBuf], root: &Path, query: &str) -> Vec<&'a PathBuf> {
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    files
        .iter()
        .filter(|p| {
            let rel = p
                .strip_prefix(root)
                .unwrap_or(p)
                .to_string_lossy()
                .to_lowercase();
            words.iter().all(|w| rel.contains(w))
        })
        .collect()
}

/// The next line (1-based) after `from` holding `needle`, wrapping around.
pub fn find_line(lines: &[String], from: usize, needle: &str) -> Option<usize> {
    if needle.is_empty() || lines.is_empty() {
        return None;
    }
    let n = lines.len();
    let smart_case = needle.chars().any(char::is_uppercase);
    let matches = |l: &str| {
        if smart_case {
            l.contains(needle)
        } else {
            l.to_lowercase().contains(&needle.to_lowercase())
        }
    };
    (1..=n)
        .map(|k| (from.saturating_sub(1) + k) % n)
        .find(|&i| matches(&lines[i]))
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_wraps_and_is_smart_about_case() {
        let lines: Vec<String> = ["alpha", "Beta", "gamma beta"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(find_line(&lines, 1, "beta"), Some(2));
        assert_eq!(find_line(&lines, 2, "beta"), Some(3));
        assert_eq!(find_line(&lines, 3, "beta"), Some(2), "wraps");
        assert_eq!(find_line(&lines, 1, "Beta"), Some(2));
        assert_eq!(
            find_line(&lines, 2, "Beta"),
            Some(2),
            "only itself matches Beta"
        );
        assert_eq!(find_line(&lines, 1, "delta"), None);
    }

    #[test]
    fn files_filter_by_words() {
        let root = Path::new("/ws");
        let files = vec![
            PathBuf::from("/ws/src/app.py"),
            PathBuf::from("/ws/tests/test_app.py"),
            PathBuf::from("/ws/README.md"),
        ];
        assert_eq!(filter(&files, root, "app").len(), 2);
        assert_eq!(filter(&files, root, "test app").len(), 1);
        assert_eq!(filter(&files, root, "").len(), 3);
    }
}
