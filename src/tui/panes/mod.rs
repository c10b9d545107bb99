//! One file per pane; each draws from (snapshot, UI state, theme) only.

pub mod activity;
pub mod breakpoints;
pub mod console;
pub mod files;
pub mod help;
pub mod output;
pub mod palette;
pub mod source;
pub mod stack;
pub mod status;
pub mod variables;
pub mod watches;

use ratatui::widgets::{Block, BorderType, Borders};

use super::state::{Focus, UiState};
use super::theme::Theme;

/// A pane's frame, lit when it has focus.
pub fn block<'a>(title: &'a str, pane: Focus, ui: &UiState, theme: &Theme) -> Block<'a> {
    let focused = ui.focus == pane;
    Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(if focused {
            theme.border_focused
        } else {
            theme.border
        })
        .title(ratatui::text::Span::styled(
            format!(" {title} "),
            if focused {
                theme.title_focused
            } else {
                theme.title
            },
        ))
}

/// The first row to show so that `selected` stays visible in `height` rows.
pub fn window_start(selected: usize, height: usize, len: usize) -> usize {
    if height == 0 || len <= height {
        return 0;
    }
    selected.saturating_sub(height / 2).min(len - height)
}
