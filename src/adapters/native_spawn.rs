//! Starting a native adapter (gdb, lldb-dap): found as a program, spoken
//! to over its stdio, and given the session's terminal for the program.

use std::path::Path;

use serde_json::Value;
use tokio::process::Command;

use super::{AdapterError, Found, LaunchSpec, Spawned, Target, Transport};
use crate::dap::process::AdapterProcess;

/// The adapter program at `path`, as found.
pub fn found(version: String, path: &Path) -> Found {
    Found {
        version,
        path: path.display().to_string(),
        warning: None,
    }
}

/// A launched program runs on the session's terminal when it has one; an
/// attached one keeps its own.
pub fn on_terminal(spec: &LaunchSpec) -> bool {
    spec.stdio.is_some() && matches!(spec.target, Target::Program(_))
}

/// A native adapter runs programs: a module (`-m`) is Python's.
pub fn no_modules(adapter: &str) -> AdapterError {
    AdapterError::Unsupported(format!(
        "{adapter} runs programs, not modules; give program"
    ))
}

/// Spawns `cmd` (the adapter at `path`), spoken to over its stdio.
pub fn over_stdio(
    cmd: Command,
    path: &Path,
    spec: &LaunchSpec,
    start: (&'static str, Value),
    notes: Vec<String>,
) -> Result<Spawned, AdapterError> {
    let (process, stdin, stdout) = AdapterProcess::spawn(cmd)
        .map_err(|e| AdapterError::NotFound(format!("cannot start {}: {e}", path.display())))?;
    Ok(Spawned {
        process: Some(process),
        transport: Transport::Stdio {
            reader: Box::pin(stdout),
            writer: Box::pin(stdin),
        },
        on_terminal: on_terminal(spec),
        program_output: None,
        start,
        exit_code_file: None,
        notes,
    })
}
