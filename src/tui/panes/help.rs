//! The help overlay, generated from the keymap.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::tui::action::DEFAULT_KEYS;
use crate::tui::theme::Theme;

pub fn render(f: &mut Frame, area: Rect, theme: &Theme) {
    let h = (DEFAULT_KEYS.len() as u16 + 2).min(area.height);
    let w = 44.min(area.width);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    let lines: Vec<Line> = DEFAULT_KEYS
        .iter()
        .map(|(keys, _, what)| {
            Line::from(vec![
                Span::styled(format!(" {keys:<12}"), theme.title_focused),
                Span::styled(*what, theme.text),
            ])
        })
        .collect();
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" keys ")),
        r,
    );
}
