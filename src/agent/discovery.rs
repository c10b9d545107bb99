//! How `pairdbg mcp` finds the TUI of the same workspace: a file per TUI,
//! readable by its owner only, under the user's runtime directory, named by
//! workspace and process. With several TUIs in one workspace the newest
//! that still runs is found, so one quitting leaves the others findable.
//!
//! A discovery file hands the agent's connection (and every launch's
//! environment) to the server it names, so a file is believed only when
//! nobody else could have written it: the user's own regular file, mode
//! 0600, in the private runtime directory, naming a loopback URL. Without a
//! private runtime directory discovery is off; there is no shared fallback.

use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Discovery {
    pub url: String,
    pub token: String,
    pub pid: u32,
    pub workspace: PathBuf,
    /// What published the file: a person's TUI is never the shell's to stop.
    #[serde(default)]
    pub publisher: Publisher,
}

/// The kind of process behind a discovery file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Publisher {
    /// A person's terminal UI (also what a file without the field is taken
    /// for, the cautious reading).
    #[default]
    Tui,
    /// `pairdbg serve`, headless.
    Host,
}

/// The private runtime directory, or why discovery is off.
pub fn dir() -> Result<PathBuf, String> {
    crate::paths::runtime_dir()
        .map_err(|e| format!("discovery is off: no private runtime directory ({e})"))
}

/// The start of every file name for this workspace.
fn prefix_for(workspace: &Path) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    workspace.hash(&mut h);
    let name = workspace
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let name: String = name
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
        .take(32)
        .collect();
    format!("{name}-{:016x}", h.finish())
}

/// The name of the file the process `pid` publishes for `workspace`.
pub fn file_name(workspace: &Path, pid: u32) -> String {
    format!("{}-{pid}.json", prefix_for(workspace))
}

/// The file the TUI with process id `pid` publishes for `workspace`.
pub fn path_for(workspace: &Path, pid: u32) -> Result<PathBuf, String> {
    Ok(dir()?.join(file_name(workspace, pid)))
}

/// Every file published for `workspace`, newest first (none when discovery
/// is off).
pub fn files_for(workspace: &Path) -> Vec<PathBuf> {
    dir().map(|d| files_in(&d, workspace)).unwrap_or_default()
}

/// Every file published for `workspace` in `dir`, newest first.
fn files_in(dir: &Path, workspace: &Path) -> Vec<PathBuf> {
    let prefix = format!("{}-", prefix_for(workspace));
    let Ok(entries) = std::fs::read_dir(dir) else {
        return vec![];
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().to_string();
            n.starts_with(&prefix) && n.ends_with(".json")
        })
        .map(|e| {
            let t = e
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (t, e.path())
        })
        .collect();
    files.sort_by(|a, b| b.cmp(a));
    files.into_iter().map(|(_, p)| p).collect()
}

/// Removes the file when the TUI ends.
pub struct Published {
    path: PathBuf,
}

impl Drop for Published {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

fn alive(pid: u32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { libc::kill(pid as i32, 0) == 0 }
}

/// Removes files of TUIs that ended without cleaning up (killed, or their
/// terminal vanished first).
fn sweep(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "json")
            && let Ok(text) = std::fs::read_to_string(&p)
            && let Ok(d) = serde_json::from_str::<Discovery>(&text)
            && !alive(d.pid)
        {
            let _ = std::fs::remove_file(&p);
        }
    }
}

pub fn publish(d: &Discovery) -> std::io::Result<Published> {
    let dir = dir().map_err(std::io::Error::other)?;
    sweep(&dir);
    let path = dir.join(file_name(&d.workspace, d.pid));
    let _ = std::fs::remove_file(&path);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)?;
    f.write_all(serde_json::to_string(d).unwrap_or_default().as_bytes())?;
    Ok(Published { path })
}

/// The newest live TUI of this workspace, if there is one. When discovery is
/// off the reason is logged once per call and nothing is found.
pub fn find(workspace: &Path) -> Option<Discovery> {
    match dir() {
        Ok(dir) => find_in(&dir, workspace),
        Err(why) => {
            tracing::warn!("{why}");
            None
        }
    }
}

/// The newest live, trusted discovery file for `workspace` in `dir`.
pub fn find_in(dir: &Path, workspace: &Path) -> Option<Discovery> {
    files_in(dir, workspace).into_iter().find_map(|p| {
        if let Err(why) = trusted_file(&p) {
            tracing::warn!("ignoring discovery file {}: {why}", p.display());
            return None;
        }
        let text = std::fs::read_to_string(&p).ok()?;
        let d: Discovery = serde_json::from_str(&text).ok()?;
        if !is_loopback_url(&d.url) {
            tracing::warn!(
                "ignoring discovery file {}: its URL {} is not on loopback",
                p.display(),
                d.url
            );
            return None;
        }
        (alive(d.pid) && d.workspace == workspace).then_some(d)
    })
}

/// Why a file must not be believed, if it must not: only a regular file of
/// our own that nobody else may read or write (a symlink could point at
/// anything, a group-writable file could have been rewritten).
fn trusted_file(path: &Path) -> Result<(), String> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| e.to_string())?;
    if !meta.file_type().is_file() {
        return Err("not a regular file".into());
    }
    // SAFETY: getuid cannot fail.
    let me = unsafe { libc::getuid() };
    if meta.uid() != me {
        return Err(format!("owned by uid {}, not by you ({me})", meta.uid()));
    }
    if meta.mode() & 0o077 != 0 {
        return Err(format!("mode {:o}, not 600", meta.mode() & 0o777));
    }
    Ok(())
}

/// True when `url` is http(s) to a loopback address or `localhost`.
pub fn is_loopback_url(url: &str) -> bool {
    let Some(rest) = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
    else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return false;
    }
    let host = match authority.strip_prefix('[') {
        Some(v6) => match v6.split_once(']') {
            Some((h, _)) => h,
            None => return false,
        },
        None => authority.rsplit_once(':').map_or(authority, |(h, _)| h),
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn plant(dir: &Path, ws: &Path, url: &str, mode: u32) -> PathBuf {
        let d = Discovery {
            url: url.into(),
            token: "t".into(),
            pid: std::process::id(),
            workspace: ws.to_path_buf(),
            publisher: Publisher::Host,
        };
        let path = dir.join(file_name(ws, d.pid));
        std::fs::write(&path, serde_json::to_string(&d).unwrap()).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        path
    }

    #[test]
    fn a_private_loopback_file_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let ws = Path::new("/some/ws");
        plant(dir.path(), ws, "http://127.0.0.1:4000/mcp", 0o600);
        let d = find_in(dir.path(), ws).expect("found");
        assert_eq!(d.url, "http://127.0.0.1:4000/mcp");
    }

    #[test]
    fn a_file_others_may_write_or_read_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let ws = Path::new("/some/ws");
        for mode in [0o644, 0o620, 0o604, 0o666] {
            plant(dir.path(), ws, "http://127.0.0.1:4000/mcp", mode);
            assert!(
                find_in(dir.path(), ws).is_none(),
                "mode {mode:o} was believed"
            );
        }
    }

    #[test]
    fn a_file_naming_another_host_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let ws = Path::new("/some/ws");
        for url in [
            "http://10.0.0.5:4000/mcp",
            "http://evil.example:4000/mcp",
            "http://127.0.0.1.evil.example/mcp",
            "http://user@127.0.0.1:4000/mcp",
            "file:///etc/passwd",
        ] {
            plant(dir.path(), ws, url, 0o600);
            assert!(find_in(dir.path(), ws).is_none(), "{url} was believed");
        }
    }

    #[test]
    fn a_symlink_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        let ws = Path::new("/some/ws");
        let real = plant(elsewhere.path(), ws, "http://127.0.0.1:4000/mcp", 0o600);
        let link = dir.path().join(real.file_name().unwrap());
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(find_in(dir.path(), ws).is_none());
    }

    #[test]
    fn a_file_of_another_user_is_ignored() {
        // SAFETY: geteuid cannot fail.
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("SKIPPED: giving a file to another user needs root");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let ws = Path::new("/some/ws");
        let p = plant(dir.path(), ws, "http://127.0.0.1:4000/mcp", 0o600);
        std::os::unix::fs::chown(&p, Some(54321), Some(54321)).unwrap();
        assert!(find_in(dir.path(), ws).is_none());
    }

    #[test]
    fn loopback_urls() {
        for url in [
            "http://127.0.0.1:1/mcp",
            "http://127.0.0.2:1/mcp",
            "http://[::1]:1/mcp",
            "http://localhost:1/mcp",
            "https://LOCALHOST/mcp",
        ] {
            assert!(is_loopback_url(url), "{url}");
        }
        for url in ["http://[::2]:1/", "http://0.0.0.0:1/", "ftp://127.0.0.1/"] {
            assert!(!is_loopback_url(url), "{url}");
        }
    }
}
