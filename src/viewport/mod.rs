//! The agent's view of a stop: pure functions of a snapshot.

mod config;
mod diff;
mod json;
mod ranked;
mod read_more;
pub mod redact;
pub mod safe_repr;
mod signature;
mod text;
pub mod threads;
pub mod tree_json;
pub mod value;

pub use config::ViewportConfig;
pub use json::render_json;
pub use ranked::{cut_to, render_within};
pub use read_more::ReadMore;
pub use signature::frame_call;
pub use text::{Extras, render_text};
