//! How the engine reaches an adapter. debugpy is spawned as a process; tests
//! plug in a scripted adapter over an in-memory pipe.

use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};

use super::config::LaunchConfig;
use super::error::SessionError;
use crate::dap::adapters::debugpy;
use crate::dap::process::AdapterProcess;

pub struct Connection {
    pub reader: Pin<Box<dyn AsyncRead + Send>>,
    pub writer: Pin<Box<dyn AsyncWrite + Send>>,
    pub process: Option<AdapterProcess>,
    pub launch_arguments: Value,
    pub adapter_id: String,
    /// Facts the user should know about this launch.
    pub notes: Vec<String>,
}

pub trait Connector: Send + Sync {
    /// Called once per launch and again at every restart.
    fn connect(&self, config: &LaunchConfig) -> Result<Connection, SessionError>;
}

pub type SharedConnector = Arc<dyn Connector>;

pub struct Debugpy;

impl Connector for Debugpy {
    fn connect(&self, config: &LaunchConfig) -> Result<Connection, SessionError> {
        let python = debugpy::find_python(config.python.as_deref(), &config.workspace.root)?;
        let cmd = debugpy::adapter_command(&python, config.nodelay)?;
        let (process, stdin, stdout) = AdapterProcess::spawn(cmd)
            .map_err(|e| SessionError::State(format!("cannot start debugpy: {e}")))?;
        let launch_arguments = debugpy::launch_arguments(&debugpy::LaunchSpec {
            program: config.program.as_deref(),
            module: config.module.as_deref(),
            args: &config.args,
            cwd: &config.cwd,
            env: &config.env,
            stop_on_entry: config.stop_on_entry,
            python: &python,
            nodelay: config.nodelay,
        })?;
        Ok(Connection {
            reader: Box::pin(stdout),
            writer: Box::pin(stdin),
            process: Some(process),
            launch_arguments,
            adapter_id: "debugpy".into(),
            notes: vec![
                "Child processes run without the debugger (subprocess debugging is off).".into(),
            ],
        })
    }
}
