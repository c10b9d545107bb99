//! The file picker: workspace files filtered as you type.

use std::path::{Path, PathBuf};

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::tui::picker;
use crate::tui::theme::Theme;

pub fn render(
    f: &mut Frame,
    area: Rect,
    theme: &Theme,
    files: &[PathBuf],
    root: &Path,
    query: &str,
    selected: usize,
) {
    let found = picker::filter(files, root, query);
    let rows = (area.height.saturating_sub(6)) as usize;
    let h = (found.len().min(rows) as u16 + 3).max(4);
    let w = 70.min(area.width);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + 2.min(area.height),
        w,
        h,
    );
    let start = super::window_start(selected, rows, found.len());
    let mut lines = vec![Line::from(vec![
        Span::styled("open › ", theme.title_focused),
        Span::styled(format!("{query}▏"), theme.text),
    ])];
    for (i, p) in found.iter().enumerate().skip(start).take(rows) {
        let rel = p.strip_prefix(root).unwrap_or(p).display().to_string();
        let line = Line::styled(format!(" {rel}"), theme.text);
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
                .title(format!(" files ({}) ", found.len())),
        ),
        r,
    );
}
