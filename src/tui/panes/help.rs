//! The help overlay, generated from the keymap in use; it scrolls when the
//! screen is shorter than the list.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::tui::action::Keymap;
use crate::tui::theme::Theme;

/// The first row shown for a wanted scroll: never past the last page.
pub fn clamp_scroll(keymap: &Keymap, area: Rect, scroll: usize) -> usize {
    let rows = area.height.saturating_sub(2) as usize;
    scroll.min(keymap.bindings.len().saturating_sub(rows))
}

pub fn render(f: &mut Frame, area: Rect, keymap: &Keymap, theme: &Theme, scroll: usize) {
    let h = (keymap.bindings.len() as u16 + 2).min(area.height);
    let w = 52.min(area.width);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    let rows = h.saturating_sub(2) as usize;
    let first = clamp_scroll(keymap, area, scroll);
    let lines: Vec<Line> = keymap
        .bindings
        .iter()
        .skip(first)
        .take(rows)
        .map(|(action, keys)| {
            Line::from(vec![
                Span::styled(format!(" {:<14}", keys.join(" ")), theme.title_focused),
                Span::styled(action.describe(), theme.text),
            ])
        })
        .collect();
    let below = keymap.bindings.len().saturating_sub(first + rows);
    let mut block = Block::default().borders(Borders::ALL).title(
        if first + rows < keymap.bindings.len() || first > 0 {
            " keys (j/k PgUp/PgDn scroll, other keys close) "
        } else {
            " keys (any key closes) "
        },
    );
    if below > 0 {
        block = block.title_bottom(format!(" ↓ {below} more "));
    }
    f.render_widget(Clear, r);
    f.render_widget(Paragraph::new(lines).block(block), r);
}
