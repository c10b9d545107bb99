//! A compiled program older than its sources: debugging it shows lines
//! and values that no longer match the files, so the session says so, as
//! gdb does ("source file is more recent than executable").

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Files looked at, at most: a workspace larger than this is not walked
/// whole (the check must not hold up a launch).
const MAX_FILES: usize = 20_000;

/// Folders that hold no sources of the program: build output, tools' state.
const SKIPPED: &[&str] = &["target", "node_modules", "build", "dist", "out", "vendor"];

/// The sources of a binary's language, by extension.
fn extensions(language: &str) -> &'static [&'static str] {
    match language {
        "c" => &["c", "h"],
        "c++" => &["cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h", "c"],
        "rust" => &["rs"],
        "go" => &["go"],
        _ => &[],
    }
}

/// The newest source of `program`'s language under `root` when it is
/// newer than `program`, a compiled binary; None for an interpreted
/// program, a Go package built at launch, or sources no newer.
pub fn newer_source(program: &Path, root: &Path) -> Option<PathBuf> {
    let language = super::detect::infer_language(program).filter(|_| program.is_file())?;
    let built = std::fs::metadata(program).ok()?.modified().ok()?;
    // A program named by its source is built at launch.
    let exts = extensions(language);
    if program
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| exts.contains(&e))
    {
        return None;
    }
    let (path, modified) = newest(root, exts)?;
    (modified > built).then_some(path)
}

fn newest(root: &Path, exts: &[&str]) -> Option<(PathBuf, SystemTime)> {
    if exts.is_empty() {
        return None;
    }
    let mut best: Option<(PathBuf, SystemTime)> = None;
    // Hidden and ignored files are left out, as the project's own tools do.
    let walk = ignore::WalkBuilder::new(root)
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0 || !SKIPPED.contains(&name.as_ref())
        })
        .build();
    for entry in walk.flatten().take(MAX_FILES) {
        let ext = entry.path().extension().and_then(|e| e.to_str());
        if !entry.file_type().is_some_and(|t| t.is_file())
            || !ext.is_some_and(|e| exts.contains(&e))
        {
            continue;
        }
        let Some(modified) = entry.metadata().ok().and_then(|m| m.modified().ok()) else {
            continue;
        };
        if best.as_ref().is_none_or(|(_, m)| modified > *m) {
            best = Some((entry.path().to_path_buf(), modified));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_compiled_languages_have_sources_to_compare() {
        assert_eq!(extensions("python"), &[] as &[&str]);
        assert!(extensions("rust").contains(&"rs"));
        assert!(extensions("c++").contains(&"hpp"));
    }
}
