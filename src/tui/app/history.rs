//! What was typed at each kind of prompt, recalled with Up and Down as in a
//! shell.

use std::collections::HashMap;
use std::mem::Discriminant;

use crate::tui::state::Prompt;

/// Entries kept per prompt kind.
const KEEP: usize = 200;

#[derive(Default)]
pub(super) struct History {
    lists: HashMap<Discriminant<Prompt>, Vec<String>>,
    /// The entry shown while walking back, counted from the newest.
    pos: Option<usize>,
}

impl History {
    pub(super) fn record(&mut self, prompt: Prompt, text: &str) {
        self.pos = None;
        // A new value starts from the old one: recalling it would mislead.
        if text.trim().is_empty() || prompt == Prompt::SetValue {
            return;
        }
        let list = self
            .lists
            .entry(std::mem::discriminant(&prompt))
            .or_default();
        list.retain(|t| t != text);
        list.push(text.to_string());
        if list.len() > KEEP {
            list.remove(0);
        }
    }

    pub(super) fn leave(&mut self) {
        self.pos = None;
    }

    /// The older (`back`) or newer entry; past the newest, an empty line.
    pub(super) fn recall(&mut self, prompt: Prompt, back: bool) -> Option<String> {
        let list = self.lists.get(&std::mem::discriminant(&prompt))?;
        let n = list.len();
        if n == 0 {
            return None;
        }
        self.pos = match (self.pos, back) {
            (None, true) => Some(0),
            (Some(p), true) => Some((p + 1).min(n - 1)),
            (Some(0), false) | (None, false) => None,
            (Some(p), false) => Some(p - 1),
        };
        Some(
            self.pos
                .map(|p| list[n - 1 - p].clone())
                .unwrap_or_default(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_walks_back_and_down_returns_to_an_empty_line() {
        let mut h = History::default();
        h.record(Prompt::Evaluate, "a");
        h.record(Prompt::Evaluate, "b");
        h.record(Prompt::Search, "needle");
        assert_eq!(h.recall(Prompt::Evaluate, true).as_deref(), Some("b"));
        assert_eq!(h.recall(Prompt::Evaluate, true).as_deref(), Some("a"));
        assert_eq!(h.recall(Prompt::Evaluate, true).as_deref(), Some("a"));
        assert_eq!(h.recall(Prompt::Evaluate, false).as_deref(), Some("b"));
        assert_eq!(h.recall(Prompt::Evaluate, false).as_deref(), Some(""));
        h.leave();
        assert_eq!(h.recall(Prompt::Search, true).as_deref(), Some("needle"));
        assert_eq!(h.recall(Prompt::Note, true), None);
    }
}
