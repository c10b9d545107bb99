//! How a front end spells the calls an answer points to: an error that
//! says "List them with debug_sessions" helps an MCP client and misleads a
//! shell user, who types `pairdbg ctl status`. Each front end writes its
//! own spelling.

pub use crate::viewport::ReadMore;

/// The name of each call an answer may suggest next.
#[derive(Debug)]
pub struct Names {
    pub sessions: &'static str,
    pub start: &'static str,
    pub end: &'static str,
    pub breakpoints: &'static str,
    pub wait: &'static str,
    pub pause: &'static str,
    pub note: &'static str,
    /// Starts recording, so that the program can be run backwards.
    pub record: &'static str,
    /// The reads for what a viewport leaves out.
    pub more: ReadMore,
}
