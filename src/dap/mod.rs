//! The Debug Adapter Protocol: framing, envelope, client, transports and
//! adapter processes.
//! Knows nothing of the TUI or MCP.

pub mod announced;
pub mod client;
pub mod codec;
pub mod envelope;
pub mod events;
pub mod exit_watch;
pub mod keeper;
pub mod proc_tree;
pub mod process;
pub mod quick_ack;
pub mod strays;
pub mod transport;

pub use client::{DapClient, DapError, Settings, TraceMask};
pub use events::DapEvent;
