//! The files of a workspace, walked one way for every search: a bare file
//! name resolved, text or definitions found, a Python function found for a
//! breakpoint. Folders that hold others' code or build output are skipped
//! even without a .gitignore saying so, and a huge tree costs a bounded
//! walk, never a stalled session.

use std::path::{Path, PathBuf};

use ignore::WalkBuilder;

/// Folders a walk never enters: caches, virtual environments, build output.
pub const SKIPPED_DIRS: &[&str] = &[
    "node_modules",
    "target",
    "__pycache__",
    ".venv",
    "venv",
    ".git",
    ".tox",
    "dist",
    "build",
];

/// Entries a walk looks at before it stops.
pub const MAX_ENTRIES: usize = 50_000;

/// Every file under `root`, in a stable (sorted) order, with `keep`
/// choosing among them. `gitignore` also leaves out what .gitignore does:
/// right for a search, wrong for resolving a file the person names. The
/// bool says whether the walk stopped at `MAX_ENTRIES`.
pub fn files(root: &Path, gitignore: bool, keep: impl Fn(&Path) -> bool) -> (Vec<PathBuf>, bool) {
    let mut seen = 0usize;
    let mut capped = false;
    let mut out = vec![];
    let walk = WalkBuilder::new(root)
        .require_git(false)
        .git_ignore(gitignore)
        .ignore(gitignore)
        .git_exclude(gitignore)
        .filter_entry(|e| {
            !(e.file_type().is_some_and(|t| t.is_dir())
                && SKIPPED_DIRS.contains(&e.file_name().to_string_lossy().as_ref()))
        })
        .build();
    for entry in walk.filter_map(Result::ok) {
        seen += 1;
        if seen > MAX_ENTRIES {
            capped = true;
            break;
        }
        if entry.file_type().is_some_and(|t| t.is_file()) && keep(entry.path()) {
            out.push(entry.into_path());
        }
    }
    out.sort();
    (out, capped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_vendored_and_hidden_folders_and_gitignore_when_asked() {
        let d = tempfile::tempdir().unwrap();
        for p in [
            "a/x.py",
            "b/c/x.py",
            "target/x.py",
            ".git/x.py",
            ".venv/lib/x.py",
            "gen/x.py",
            "y.py",
        ] {
            let p = d.path().join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "").unwrap();
        }
        std::fs::write(d.path().join(".gitignore"), "gen/\n").unwrap();
        let rel = |(v, _): (Vec<PathBuf>, bool)| -> Vec<String> {
            v.iter()
                .map(|p| p.strip_prefix(d.path()).unwrap().display().to_string())
                .collect()
        };
        let named = |p: &Path| p.file_name().is_some_and(|n| n == "x.py");
        assert_eq!(rel(files(d.path(), true, named)), ["a/x.py", "b/c/x.py"]);
        assert_eq!(
            rel(files(d.path(), false, named)),
            ["a/x.py", "b/c/x.py", "gen/x.py"]
        );
    }
}
