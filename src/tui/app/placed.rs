//! Where a breakpoint the person set landed: the adapter may move it off a
//! blank or comment line, and the person is told where.

use super::{App, UiEvent};
use crate::session::types::{Breakpoint, Snapshot};
use crate::session::{BreakpointRequest, Origin};

/// What to tell the person about a breakpoint asked for at `asked`.
pub(super) fn placed_message(b: &Breakpoint, asked: u64) -> Option<String> {
    match b.bound_line.filter(|l| *l != asked) {
        Some(l) => Some(format!(
            "breakpoint moved to line {l}: line {asked} has no code"
        )),
        // Short: the status line also holds the state and the program.
        None if !b.verified && b.enabled => Some(match &b.message {
            Some(m) => format!("line {asked} unverified: {m}"),
            None => format!("line {asked}: binds when the program runs"),
        }),
        None => None,
    }
}

impl App {
    /// Breakpoints given before the program ran (`--break`, launch.json,
    /// the saved set) are bound without a key being pressed, so nothing
    /// else says that the adapter moved one: it is said here, once each.
    pub(super) fn tell_moved(&mut self, snap: &Snapshot) {
        let news: Vec<String> = snap
            .breakpoints
            .iter()
            .filter(|b| b.bound_line.is_some_and(|l| l != b.line))
            .filter(|b| self.told_moved.insert(b.id))
            .filter_map(|b| placed_message(b, b.line))
            .collect();
        if !news.is_empty() {
            self.ui.message = Some(news.join("; "));
        }
    }

    /// Sets a breakpoint and says where it bound when that is not where asked.
    pub(super) fn set_breakpoint_here(&self, request: BreakpointRequest) {
        let asked = request.line.max(1) as u64;
        self.ask(
            move |s| async move { s.set_breakpoint(Origin::Human, request).await },
            move |res| match res {
                Ok(b) => placed_message(&b, asked).map(UiEvent::Message),
                Err(e) => Some(UiEvent::Message(e.to_string())),
            },
        );
    }
}
