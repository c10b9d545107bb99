//! The tools, grouped by what they do; server.rs joins their routers.

mod action_log;
mod breakpoints;
mod events;
mod execution;
mod find;
mod handles;
mod input;
mod inspection;
mod journal;
mod run_until;
pub mod trace;
