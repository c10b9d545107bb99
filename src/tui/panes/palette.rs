//! The command palette: every action by name, filtered as you type; a
//! number goes to that line.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::tui::action::{Action, Keymap};
use crate::tui::theme::Theme;

/// The line a query names: `42` or `:42`.
pub fn line_query(query: &str) -> Option<usize> {
    query.trim().trim_start_matches(':').parse().ok()
}

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
    if let Some(line) = line_query(query) {
        let items = vec![Line::from(Span::styled(
            format!(" go to line {line}"),
            theme.text,
        ))];
        super::list_overlay(f, area, theme, 50, "commands", ": ", query, items, 0);
        return;
    }
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
