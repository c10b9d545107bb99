//! The exit code a program's preload wrote to a file, for adapters that
//! send no `exited` event (`Spawned::exit_code_file`).

use std::path::Path;

/// Reads and removes the file; None when the program wrote none (it died
/// by a signal, or never started) or wrote something that is not a code.
pub fn take_exit_code(path: &Path) -> Option<i64> {
    let text = std::fs::read_to_string(path).ok();
    let _ = std::fs::remove_file(path);
    text?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_once_and_removes() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("exit");
        std::fs::write(&f, "3").unwrap();
        assert_eq!(take_exit_code(&f), Some(3));
        assert!(!f.exists());
        assert_eq!(take_exit_code(&f), None);
        std::fs::write(&f, "garbage").unwrap();
        assert_eq!(take_exit_code(&f), None);
    }
}
