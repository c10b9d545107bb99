//! pairdbg: a terminal debugger that a person and an AI agent drive together.

pub mod adapters;
pub mod agent;
pub mod cli;
pub mod dap;
pub mod host;
pub mod mcp;
pub mod paths;
pub mod rest;
pub mod session;
pub mod shell;
pub mod sync;
pub mod tui;
pub mod viewport;
pub mod workspace_files;
