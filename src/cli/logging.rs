//! Logs go to a file: stdout belongs to the MCP protocol or the viewport.
//! At trace level the log holds every DAP message, values and environments
//! included, so it is the user's alone: the file 0600 in a 0700 directory.

use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::PathBuf;

fn log_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PAIRDBG_LOG") {
        return Some(PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    Some(base.join("pairdbg/pairdbg.log"))
}

pub fn init() {
    let Some(path) = log_path() else { return };
    if let Some(dir) = path.parent() {
        let _ = std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir);
    }
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(&path)
    else {
        return;
    };
    // A log an older pairdbg created keeps its mode when reopened.
    let _ = file.set_permissions(std::fs::Permissions::from_mode(0o600));
    let filter = tracing_subscriber::EnvFilter::try_from_env("PAIRDBG_LOG_LEVEL")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(std::sync::Mutex::new(file))
        .try_init();
}
