//! The tools, grouped by what they do; server.rs joins their routers.

mod breakpoints;
mod execution;
mod inspection;
pub mod trace;
