//! The per-user directories: the runtime one (discovery files and the
//! adapters' boot helpers; only its owner may use it, as the boot helpers
//! run as code), state, and data (installed adapters).

use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::PathBuf;

pub fn runtime_dir() -> std::io::Result<PathBuf> {
    let dir = match std::env::var_os("XDG_RUNTIME_DIR") {
        Some(d) => PathBuf::from(d).join("pairdbg"),
        // SAFETY: getuid cannot fail.
        None => std::env::temp_dir().join(format!("pairdbg-{}", unsafe { libc::getuid() })),
    };
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)?;
    let meta = std::fs::symlink_metadata(&dir)?;
    // SAFETY: as above.
    let me = unsafe { libc::getuid() };
    if !meta.is_dir() || meta.uid() != me || meta.permissions().mode() & 0o077 != 0 {
        return Err(std::io::Error::other(format!(
            "{} must be a directory owned by you with mode 0700",
            dir.display()
        )));
    }
    Ok(dir)
}

/// Writes `contents` to `name` under the runtime directory unless it is
/// already there, atomically, and returns its path.
pub fn install_file(subdir: &str, name: &str, contents: &str) -> std::io::Result<PathBuf> {
    let dir = runtime_dir()?.join(subdir);
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&dir)?;
    let path = dir.join(name);
    if std::fs::read_to_string(&path).is_ok_and(|c| c == contents) {
        return Ok(path);
    }
    // Unique per call, not only per process: sessions launched together
    // in one process write the same file, and a shared temporary name let
    // one rename the other's away (ENOENT on the second rename).
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.{}.{n}", std::process::id()));
    std::fs::write(&tmp, contents)?;
    std::fs::rename(&tmp, &path)?;
    Ok(path)
}

/// The per-user state directory, `$XDG_STATE_HOME/pairdbg` (by default
/// `~/.local/state/pairdbg`), or None without HOME.
pub fn state_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_STATE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    Some(base.join("pairdbg"))
}

/// The per-user configuration directory, `$XDG_CONFIG_HOME/pairdbg` (by
/// default `~/.config/pairdbg`): config.toml, keys.toml, themes/.
pub fn config_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("pairdbg"))
}

/// config.toml, read and parsed once per process; None where there is
/// none or it does not parse.
pub fn config_table() -> Option<&'static toml::Table> {
    static TABLE: std::sync::OnceLock<Option<toml::Table>> = std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| {
            let text = std::fs::read_to_string(config_dir()?.join("config.toml")).ok()?;
            toml::from_str(&text).ok()
        })
        .as_ref()
}

/// The per-user data directory, `$XDG_DATA_HOME/pairdbg` (by default
/// `~/.local/share/pairdbg`), where installed adapters live; None without HOME.
pub fn data_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(base.join("pairdbg"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sessions in one process install the same file at once: every write
    /// lands, none loses its temporary file to another's rename.
    #[test]
    fn the_same_file_installed_at_once_from_many_threads() {
        let sub = format!("test-install-{}", std::process::id());
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let sub = sub.clone();
                std::thread::spawn(move || {
                    for i in 0..50 {
                        install_file(&sub, "same.txt", &format!("{t}-{i}")).expect("install_file");
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("a writer panicked");
        }
        let dir = runtime_dir().expect("runtime dir").join(&sub);
        let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").flatten().collect();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(left.len(), 1, "only the file, no temporary one left");
    }
}
