//! Status messages in full: a message line above the status bar that grows
//! to fit a long one, and the list of recent ones (`:messages`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::tui::theme::Theme;

/// The message wrapped over as many rows as it needs just above `status`.
pub fn message_line(f: &mut Frame, status: Rect, message: &str, theme: &Theme) {
    let width = status.width.max(1) as usize;
    let len = message.chars().count() + 1;
    let rows = len.div_ceil(width).clamp(1, status.y as usize) as u16;
    let r = Rect::new(status.x, status.y - rows, status.width, rows);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(format!(" {message}"))
            .style(theme.status.patch(theme.error))
            .wrap(Wrap { trim: false }),
        r,
    );
}

/// The recent messages, newest last, over the screen; any key closes.
pub fn render(f: &mut Frame, area: Rect, messages: &[String], theme: &Theme) {
    let w = area.width.saturating_sub(4).min(100);
    let inner_w = w.saturating_sub(2).max(1) as usize;
    let wrapped: usize = messages
        .iter()
        .map(|m| m.chars().count().max(1).div_ceil(inner_w))
        .sum();
    let h = (wrapped as u16 + 2).clamp(3, area.height);
    let r = Rect::new(area.x + (area.width - w) / 2, area.y, w, h);
    let lines: Vec<Line> = if messages.is_empty() {
        vec![Line::from(Span::styled("no messages yet", theme.dim))]
    } else {
        messages
            .iter()
            .map(|m| Line::from(Span::styled(m.clone(), theme.text)))
            .collect()
    };
    // The newest are at the bottom: show the end when they overflow.
    let inner = h.saturating_sub(2) as usize;
    let mut skip = 0;
    let mut rows = wrapped;
    while rows > inner && skip < messages.len() {
        rows -= messages[skip].chars().count().max(1).div_ceil(inner_w);
        skip += 1;
    }
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines[skip..].to_vec())
            .wrap(Wrap { trim: false })
            .block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" messages (any key closes) "),
            ),
        r,
    );
}
