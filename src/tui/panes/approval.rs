//! An agent's side effect waiting for the person: what it would run, and
//! the keys that answer.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::tui::theme::Theme;

pub fn render(f: &mut Frame, area: Rect, what: &str, theme: &Theme) {
    let w = 72.min(area.width);
    let inner = w.saturating_sub(2).max(1) as usize;
    let body = what.chars().count().div_ceil(inner).clamp(1, 8) as u16;
    let h = (body + 4).min(area.height);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    let lines = vec![
        Line::from(Span::styled(what.to_string(), theme.text)),
        Line::from(""),
        Line::from(vec![
            Span::styled(" y ", theme.title_focused),
            Span::styled("approve   ", theme.text),
            Span::styled(" n ", theme.title_focused),
            Span::styled("deny", theme.text),
        ]),
    ];
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(theme.border_focused)
                .title(" the agent asks to run "),
        ),
        r,
    );
}
