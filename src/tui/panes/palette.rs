//! The command palette: every action by name, filtered as you type.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::tui::action::{Action, Keymap};
use crate::tui::theme::Theme;

/// The actions matching `query`, in keymap order.
pub fn matches(keymap: &Keymap, query: &str) -> Vec<(Action, String)> {
    let q = query.to_lowercase();
    keymap
        .bindings
        .iter()
        .filter(|(a, _)| *a != Action::Palette && a.describe().contains(&q))
        .map(|(a, keys)| (*a, keys.join(" ")))
        .collect()
}

pub fn render(
    f: &mut Frame,
    area: Rect,
    keymap: &Keymap,
    theme: &Theme,
    query: &str,
    selected: usize,
) {
    let items = matches(keymap, query)
        .into_iter()
        .map(|(a, keys)| {
            Line::from(vec![
                Span::styled(format!(" {:<28}", a.describe()), theme.text),
                Span::styled(keys, theme.dim),
            ])
        })
        .collect();
    super::list_overlay(f, area, theme, 50, "commands", ": ", query, items, selected);
}
