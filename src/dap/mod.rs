//! The Debug Adapter Protocol: framing, envelope, client and adapter specs.
//! Knows nothing of the TUI or MCP.

pub mod adapters;
pub mod client;
pub mod codec;
pub mod envelope;
pub mod events;
pub mod process;

pub use client::{DapClient, DapError};
pub use events::DapEvent;
