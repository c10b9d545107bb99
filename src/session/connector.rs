//! How the engine reaches an adapter: by default the launch's own adapter
//! spawns itself; tests plug in a scripted adapter over an in-memory pipe.

use std::sync::Arc;

use super::config::LaunchConfig;
use super::error::SessionError;
pub use crate::adapters::{ProgramOutput, Spawned, Transport};

pub trait Connector: Send + Sync {
    /// Called once per launch and again at every restart.
    fn connect(&self, config: &LaunchConfig) -> Result<Spawned, SessionError>;
}

pub type SharedConnector = Arc<dyn Connector>;

/// Spawns the adapter the launch names.
pub struct Spawn;

impl Connector for Spawn {
    fn connect(&self, config: &LaunchConfig) -> Result<Spawned, SessionError> {
        Ok(config.adapter.spawn(&config.spec())?)
    }
}
