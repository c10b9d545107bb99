//! Logs go to a file: stdout belongs to the MCP protocol or the viewport.
//! At trace level the log holds every DAP message, the session's secrets
//! masked; it is the user's alone all the same: the file 0600 in a 0700
//! directory.

use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::PathBuf;

fn log_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PAIRDBG_LOG") {
        return Some(PathBuf::from(p));
    }
    Some(crate::paths::state_dir()?.join("pairdbg.log"))
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
    let level = std::env::var("PAIRDBG_LOG_LEVEL").unwrap_or_else(|_| "warn".into());
    let filter = tracing_subscriber::EnvFilter::try_new(with_mcp_quiet(&level))
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(std::sync::Mutex::new(file))
        .try_init();
}

/// The MCP library logs whole requests, a launch's environment included,
/// at debug level and below, unmasked: it stays at `info` unless the
/// filter names it.
fn with_mcp_quiet(level: &str) -> String {
    let verbose = level.contains("debug") || level.contains("trace");
    if verbose && !level.contains("rmcp") {
        format!("{level},rmcp=info")
    } else {
        level.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::with_mcp_quiet;

    #[test]
    fn the_mcp_library_stays_quiet_unless_named() {
        assert_eq!(with_mcp_quiet("trace"), "trace,rmcp=info");
        assert_eq!(
            with_mcp_quiet("debug,dap=trace"),
            "debug,dap=trace,rmcp=info"
        );
        assert_eq!(with_mcp_quiet("warn"), "warn");
        assert_eq!(with_mcp_quiet("rmcp=trace"), "rmcp=trace");
    }
}
