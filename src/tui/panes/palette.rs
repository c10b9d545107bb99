//! The command palette: every action by name, filtered as you type.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::tui::action::{Action, Keymap};
use crate::tui::theme::Theme;

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
    let found = matches(keymap, query);
    let h = (found.len() as u16 + 3).min(area.height).max(4);
    let w = 50.min(area.width);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + 2.min(area.height),
        w,
        h,
    );
    let mut lines = vec![Line::from(vec![
        Span::styled(": ", theme.title_focused),
        Span::styled(format!("{query}▏"), theme.text),
    ])];
    for (i, (a, keys)) in found.iter().enumerate() {
        let line = Line::from(vec![
            Span::styled(format!(" {:<28}", a.describe()), theme.text),
            Span::styled(keys.clone(), theme.dim),
        ]);
        lines.push(if i == selected {
            line.style(theme.selected)
        } else {
            line
        });
    }
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" commands ")),
        r,
    );
}
