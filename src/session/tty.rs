//! The terminal a person names for the program (`--tty`): checked before
//! the launch, so a wrong path is an error in the flag's own name rather
//! than a program that never starts.

use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::PathBuf;

use super::error::SessionError;

/// A device path is short; anything longer is not one.
const MAX_TTY_PATH: usize = 256;

pub fn check(path: &str) -> Result<PathBuf, SessionError> {
    if path.len() > MAX_TTY_PATH {
        return Err(SessionError::invalid(
            "tty",
            format!(
                "the path is {} bytes; the limit is {MAX_TTY_PATH}",
                path.len()
            ),
        ));
    }
    let p = PathBuf::from(path);
    let not = |why: String| {
        SessionError::invalid(
            "tty",
            format!("{path} {why}: give a terminal's device, as `tty` prints it in that terminal"),
        )
    };
    let meta = std::fs::metadata(&p).map_err(|e| not(format!("cannot be read ({e})")))?;
    if !meta.file_type().is_char_device() {
        return Err(not("is not a device".into()));
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOCTTY)
        .open(&p)
        .map_err(|e| not(format!("cannot be opened ({e})")))?;
    if !nix::unistd::isatty(&file).unwrap_or(false) {
        return Err(not("is not a terminal".into()));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_terminal_device_is_taken() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain");
        std::fs::write(&file, "").unwrap();
        let said = |p: &str| check(p).unwrap_err().to_string();
        assert!(said(file.to_str().unwrap()).contains("is not a device"));
        assert!(said("/dev/null").contains("is not a terminal"));
        assert!(said("/no/such/tty").contains("cannot be read"));
        assert!(said(&"x".repeat(300)).contains("the limit is 256"));
    }
}
