//! A bare file name (`number.py`) found in the workspace, so an agent
//! can name a file as the stack shows it without guessing its folder.

use std::path::{Path, PathBuf};

/// Every file under `root` named `name`, sorted. Ignored files count: a
/// generated file the person names is still the file meant.
pub fn files_named(root: &Path, name: &str) -> Vec<PathBuf> {
    crate::workspace_files::files(root, false, |p| p.file_name().is_some_and(|n| n == name)).0
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
