//! One file per pane; each draws from (snapshot, UI state, theme) only.

pub mod activity;
pub mod approval;
pub mod breakpoints;
pub mod clip;
pub mod console;
pub mod files;
pub mod help;
pub mod inline_values;
pub mod journals;
pub mod messages;
pub mod output;
pub mod palette;
pub mod program_cursor;
pub mod ranked;
pub mod source;
pub mod stack;
pub mod status;
pub mod tabs;
pub mod thread_rows;
pub mod traceback;
pub mod variables;
pub mod viewer;
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

/// A filtered list over the screen, with its query line on top (the palette,
/// the file picker); keeps `selected` in view however long the list.
#[allow(clippy::too_many_arguments)]
pub fn list_overlay(
    f: &mut ratatui::Frame,
    area: ratatui::layout::Rect,
    theme: &Theme,
    width: u16,
    title: &str,
    prompt: &str,
    query: &str,
    items: Vec<ratatui::text::Line<'_>>,
    selected: usize,
) {
    use ratatui::layout::Rect;
    use ratatui::text::{Line, Span};
    use ratatui::widgets::{Clear, Paragraph};
    let rows = area.height.saturating_sub(6) as usize;
    let h = (items.len().min(rows) as u16 + 3).max(4).min(area.height);
    let w = width.min(area.width);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + 2.min(area.height),
        w,
        h,
    );
    let start = window_start(selected, rows, items.len());
    let mut lines = vec![Line::from(vec![
        Span::styled(prompt.to_string(), theme.title_focused),
        Span::styled(format!("{query}▏"), theme.text),
    ])];
    for (i, line) in items.into_iter().enumerate().skip(start).take(rows) {
        lines.push(if i == selected {
            line.style(theme.selected)
        } else {
            line
        });
    }
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" {title} ")),
        ),
        r,
    );
}
