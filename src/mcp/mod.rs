//! The MCP server: tools over the session engine, and its transports.

mod activity;
mod annotations;
pub mod call;
mod completions;
mod economy;
pub(crate) mod format;
pub mod http;
mod journal_resources;
pub mod names;
pub mod params;
pub mod profiles;
mod progress;
pub mod proxy;
mod push;
mod resources;
mod schema;
pub mod server;
pub mod stdio_guard;
mod tools;

pub use server::PairdbgServer;
