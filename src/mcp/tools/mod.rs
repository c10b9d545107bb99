//! The tools, grouped by what they do; server.rs joins their routers.

mod breakpoints;
mod events;
mod execution;
mod find;
mod inspection;
mod run_until;
pub mod trace;
