//! The list of past sessions' journals, filtered as you type.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::tui::app::past_matches;
use crate::tui::theme::Theme;

pub fn render(
    f: &mut Frame,
    area: Rect,
    theme: &Theme,
    rows: &[(String, String)],
    query: &str,
    selected: usize,
) {
    let found = past_matches(rows, query);
    let items = found
        .iter()
        .map(|(_, label)| Line::styled(format!(" {label}"), theme.text))
        .collect();
    let title = format!("past sessions ({})", found.len());
    super::list_overlay(
        f,
        area,
        theme,
        100,
        &title,
        "open › ",
        query,
        items,
        selected,
    );
}
