//! The exception's whole traceback over the screen, its causes included,
//! scrolled with the movement keys and the wheel.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::session::autopsy::ExceptionContext;
use crate::tui::theme::Theme;

#[derive(Debug, Clone, Default)]
pub struct Traceback {
    pub title: String,
    pub lines: Vec<String>,
    /// The first line shown.
    pub scroll: usize,
}

impl Traceback {
    pub fn new(c: &ExceptionContext) -> Traceback {
        let e = &c.exception;
        let mut lines: Vec<String> = e.stack_trace_string.lines().map(str::to_string).collect();
        // Causes the traceback's text does not tell already.
        let untold: Vec<_> = c
            .inner_exceptions
            .iter()
            .filter(|i| !e.stack_trace_string.contains(&i.message) || i.message.is_empty())
            .collect();
        if !untold.is_empty() {
            lines.push(String::new());
            for i in untold {
                lines.push(format!("{} {}: {}", i.relation, i.type_name, i.message));
            }
        }
        Traceback {
            title: format!("{}: {}", e.type_name, e.message),
            lines,
            scroll: 0,
        }
    }

    /// Moves by `delta` lines, keeping a screenful in view.
    pub fn scroll_by(&mut self, delta: i64) {
        let last = self.lines.len().saturating_sub(1) as i64;
        self.scroll = (self.scroll as i64).saturating_add(delta).clamp(0, last) as usize;
    }
}

/// The overlay's box: most of the screen.
pub fn area(screen: Rect) -> Rect {
    let w = screen.width.saturating_sub(4).max(screen.width.min(20));
    let h = screen.height.saturating_sub(2).max(screen.height.min(5));
    Rect::new(
        screen.x + (screen.width - w) / 2,
        screen.y + (screen.height - h) / 2,
        w,
        h,
    )
}

pub fn render(f: &mut Frame, screen: Rect, tb: &Traceback, theme: &Theme) {
    let r = area(screen);
    let rows = r.height.saturating_sub(3) as usize;
    let mut lines = vec![Line::from(Span::styled(tb.title.clone(), theme.error))];
    lines.extend(tb.lines.iter().skip(tb.scroll).take(rows).map(|l| {
        let style = if l.trim_start().starts_with("File ") || l.trim_start().starts_with("at ") {
            theme.dim
        } else {
            theme.text
        };
        Line::from(Span::styled(l.clone(), style))
    }));
    let shown = (tb.scroll + rows).min(tb.lines.len());
    let title = format!(
        " traceback {}–{} of {} (↑↓ PgUp PgDn scroll, Esc closes) ",
        (tb.scroll + 1).min(shown),
        shown,
        tb.lines.len()
    );
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        r,
    );
}
