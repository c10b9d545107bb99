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

/// The terminal a launch.json configuration names: pairdbg's own `tty`
/// (as the flag), or CodeLLDB's `stdio` when it puts the program's streams
/// on one device. The path is checked at launch, as the flag's is.
pub fn from_launch_json(c: &serde_json::Value) -> Result<Option<String>, String> {
    use serde_json::Value;
    if let Some(t) = c.get("tty") {
        return match t {
            Value::String(p) => Ok(Some(p.clone())),
            Value::Null => Ok(None),
            _ => Err("tty: give a terminal's device path as a string".into()),
        };
    }
    let one = |paths: Vec<&Value>| -> Result<Option<String>, String> {
        let named: Vec<&str> = paths.iter().filter_map(|p| p.as_str()).collect();
        match named.first() {
            None => Ok(None),
            Some(first) if named.len() == paths.len() && named.iter().all(|p| p == first) => {
                Ok(Some(first.to_string()))
            }
            Some(_) => Err(
                "stdio: pairdbg runs the program's three streams on one terminal; give one device path for all three, or \"tty\""
                    .into(),
            ),
        }
    };
    match c.get("stdio") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(p)) => Ok(Some(p.clone())),
        Some(Value::Array(a)) => one(a.iter().collect()),
        Some(Value::Object(m)) => one(["stdin", "stdout", "stderr"]
            .iter()
            .map(|k| m.get(*k).unwrap_or(&Value::Null))
            .collect()),
        Some(_) => Err("stdio: give a terminal's device path, or a list of three".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_json_names_the_terminal_as_codelldb_or_as_the_flag() {
        use serde_json::json;
        let tty = |c| from_launch_json(&c);
        assert_eq!(
            tty(json!({"tty": "/dev/pts/3"})),
            Ok(Some("/dev/pts/3".into()))
        );
        assert_eq!(
            tty(json!({"stdio": "/dev/pts/4"})),
            Ok(Some("/dev/pts/4".into()))
        );
        assert_eq!(
            tty(json!({"stdio": ["/dev/pts/5", "/dev/pts/5", "/dev/pts/5"]})),
            Ok(Some("/dev/pts/5".into()))
        );
        assert_eq!(
            tty(
                json!({"stdio": {"stdin": "/dev/pts/6", "stdout": "/dev/pts/6", "stderr": "/dev/pts/6"}})
            ),
            Ok(Some("/dev/pts/6".into()))
        );
        assert_eq!(tty(json!({"stdio": [null, null, null]})), Ok(None));
        assert_eq!(tty(json!({})), Ok(None));
        assert!(
            tty(json!({"stdio": ["/dev/pts/5", null, "out.txt"]}))
                .unwrap_err()
                .contains("one terminal")
        );
        assert!(tty(json!({"tty": 3})).unwrap_err().starts_with("tty: "));
    }

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
