//! Whether a launch's adapter is ready, and installing it, for controllers
//! that offer to fix it (the TUI) without reaching into the adapters.

use super::config::LaunchConfig;
use crate::adapters::{AdapterError, Found};

/// The launch's adapter is missing.
#[derive(Debug, Clone)]
pub struct MissingAdapter {
    /// The adapter's name, as users know it.
    pub adapter: &'static str,
    /// What is wrong, in the adapter's words.
    pub problem: String,
    /// The exact command that installs it.
    pub install_command: String,
}

pub async fn missing_adapter(config: &LaunchConfig) -> Option<MissingAdapter> {
    let spec = config.spec();
    let err = config.adapter.probe(&spec).await.err()?;
    Some(MissingAdapter {
        adapter: config.adapter.name(),
        problem: match err {
            AdapterError::Missing { what, .. } => what,
            other => other.to_string(),
        },
        install_command: config.adapter.install_command(&spec),
    })
}

pub async fn install_adapter(config: &LaunchConfig) -> Result<Found, AdapterError> {
    config.adapter.install(&config.spec()).await
}
