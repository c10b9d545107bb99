//! The help overlay, generated from the keymap in use.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::tui::action::Keymap;
use crate::tui::theme::Theme;

pub fn render(f: &mut Frame, area: Rect, keymap: &Keymap, theme: &Theme) {
    let h = (keymap.bindings.len() as u16 + 2).min(area.height);
    let w = 48.min(area.width);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    let lines: Vec<Line> = keymap
        .bindings
        .iter()
        .map(|(action, keys)| {
            Line::from(vec![
                Span::styled(format!(" {:<14}", keys.join(" ")), theme.title_focused),
                Span::styled(action.describe(), theme.text),
            ])
        })
        .collect();
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .title(" keys (any key closes) "),
        ),
        r,
    );
}
