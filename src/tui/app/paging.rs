//! Big containers a page at a time: Enter on `… N more` reads the next page
//! (or the one before), `[` jumps to an index.

use super::App;
use crate::session::types::Var;
use crate::tui::panes::variables::{PAGE, tree};
use crate::tui::state::{Focus, Prompt};

/// The index typed at the prompt: `500000` or `[500000]`.
pub fn index_query(text: &str) -> Option<usize> {
    text.trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim()
        .parse()
        .ok()
}

impl App {
    /// Reads the page after (or before) the children of `path` shown now.
    pub(super) fn read_gap(&mut self, path: String, later: bool, stop_seq: u64) {
        let from = self.ui.pages.get(&path).copied().unwrap_or(0);
        let read = self
            .ui
            .children
            .get(&path)
            .map(|(k, _)| k.len())
            .unwrap_or(0);
        let (start, count) = if later {
            (from + read, PAGE)
        } else {
            let start = from.saturating_sub(PAGE);
            (start, from - start)
        };
        self.fetch_children(path, stop_seq, start, count);
    }

    /// Joins a page to the children read before when it borders them;
    /// else it replaces them (a jump).
    pub(super) fn children_read(&mut self, path: String, start: usize, page: (Vec<Var>, usize)) {
        let (kids, total) = page;
        let from = self.ui.pages.get(&path).copied().unwrap_or(0);
        match self.ui.children.get_mut(&path) {
            Some((old, t)) if start == from + old.len() && start > 0 => {
                old.extend(kids);
                *t = total;
            }
            Some((old, t)) if start + kids.len() == from && start < from => {
                let mut joined = kids;
                joined.append(old);
                *old = joined;
                *t = total;
                self.set_page(&path, start);
            }
            _ => {
                self.ui.children.insert(path.clone(), (kids, total));
                self.set_page(&path, start);
            }
        }
    }

    fn set_page(&mut self, path: &str, start: usize) {
        if start == 0 {
            self.ui.pages.remove(path);
        } else {
            self.ui.pages.insert(path.to_string(), start);
        }
    }

    /// `[` on a container (or a row of its page) asks which index to show.
    pub(super) fn ask_index(&mut self, snap: &crate::session::types::Snapshot) {
        if self.ui.focus != Focus::Variables {
            return;
        }
        let Some(stop) = snap.stop.as_ref() else {
            return;
        };
        let all = tree(&self.ui, stop);
        let Some(row) = all.get(self.ui.selected_var) else {
            return;
        };
        // A child's container is its path up to the last dot.
        let container = if row.gap.is_some() || row.var.reference > 0 {
            row.path.clone()
        } else {
            match row.path.rsplit_once('.') {
                Some((parent, _)) => parent.to_string(),
                None => {
                    self.ui.message = Some(format!("{} holds no items", row.path));
                    return;
                }
            }
        };
        self.ui.value_path = container;
        self.ui.input.reset();
        self.ui.typing = Some(Prompt::GoToIndex);
    }

    pub(super) fn go_to_index(&mut self, text: &str) {
        let path = std::mem::take(&mut self.ui.value_path);
        let Some(index) = index_query(text) else {
            self.ui.message = Some(format!(
                "index: {text:?} is not a number (type 500000 or [500000])"
            ));
            return;
        };
        if let Some((_, total)) = self.ui.children.get(&path)
            && index >= *total
        {
            self.ui.message = Some(format!(
                "index: {index} is past the end of {path} (0 to {})",
                total.saturating_sub(1)
            ));
            return;
        }
        let stop_seq = self.ui.followed_stop;
        self.fetch_children(path.clone(), stop_seq, index, PAGE);
        // Select the container's row: the page opens under it.
        if let Some(stop) = self.session.snapshot().stop.as_ref()
            && let Some(i) = tree(&self.ui, stop)
                .iter()
                .position(|r| r.path == path && r.gap.is_none())
        {
            self.ui.selected_var = i;
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_index_is_typed_bare_or_in_brackets() {
        assert_eq!(super::index_query("[500000]"), Some(500000));
        assert_eq!(super::index_query(" 42 "), Some(42));
        assert_eq!(super::index_query("x"), None);
    }
}
