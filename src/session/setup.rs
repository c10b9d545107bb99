//! Whether a launch's adapter is ready, for controllers that offer to fix it
//! (the TUI) without reaching into the adapter specs themselves.

use std::path::{Path, PathBuf};

use super::config::LaunchConfig;
use crate::dap::adapters::debugpy;

/// debugpy is missing for the interpreter this launch would use.
#[derive(Debug, Clone)]
pub struct MissingDebugpy {
    pub python: PathBuf,
    /// The exact command that installs it.
    pub install_command: String,
}

pub async fn missing_debugpy(config: &LaunchConfig) -> Option<MissingDebugpy> {
    let python = debugpy::find_python(config.python.as_deref(), &config.workspace.root).ok()?;
    if debugpy::version(&python).await.is_ok() {
        return None;
    }
    let install_command = debugpy::install_command(&python);
    Some(MissingDebugpy {
        python,
        install_command,
    })
}

pub async fn debugpy_installed(python: &Path) -> bool {
    debugpy::version(python).await.is_ok()
}
