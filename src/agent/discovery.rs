//! How `pairdbg mcp` finds the TUI of the same workspace: a file per TUI,
//! readable by its owner only, under the user's runtime directory, named by
//! workspace and process. With several TUIs in one workspace the newest
//! that still runs is found, so one quitting leaves the others findable.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
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

fn dir() -> PathBuf {
    crate::paths::runtime_dir().unwrap_or_else(|_| std::env::temp_dir())
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

/// The file the TUI with process id `pid` publishes for `workspace`.
pub fn path_for(workspace: &Path, pid: u32) -> PathBuf {
    dir().join(format!("{}-{pid}.json", prefix_for(workspace)))
}

/// Every file published for `workspace`, newest first.
pub fn files_for(workspace: &Path) -> Vec<PathBuf> {
    let prefix = format!("{}-", prefix_for(workspace));
    let Ok(entries) = std::fs::read_dir(dir()) else {
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
fn sweep() {
    let Ok(entries) = std::fs::read_dir(dir()) else {
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
    sweep();
    crate::paths::runtime_dir()?;
    let path = path_for(&d.workspace, d.pid);
    let _ = std::fs::remove_file(&path);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)?;
    f.write_all(serde_json::to_string(d).unwrap_or_default().as_bytes())?;
    Ok(Published { path })
}

/// The newest live TUI of this workspace, if there is one.
pub fn find(workspace: &Path) -> Option<Discovery> {
    files_for(workspace).into_iter().find_map(|p| {
        let text = std::fs::read_to_string(p).ok()?;
        let d: Discovery = serde_json::from_str(&text).ok()?;
        (alive(d.pid) && d.workspace == workspace).then_some(d)
    })
}
