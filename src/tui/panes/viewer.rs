//! The value viewer over the screen: the value wrapped, the search's
//! matches lit (the current one brighter), and where the view is.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::tui::state::{Prompt, UiState};
use crate::tui::theme::Theme;
use crate::tui::viewer::{Match, Viewer};

/// The text rows inside the overlay's box of `area`: its width and height.
pub fn text_size(screen: Rect) -> (usize, usize) {
    let r = super::traceback::area(screen);
    (
        r.width.saturating_sub(2) as usize,
        r.height.saturating_sub(3) as usize,
    )
}

pub fn render(f: &mut Frame, screen: Rect, v: &Viewer, ui: &UiState, theme: &Theme) {
    let r = super::traceback::area(screen);
    let (width, height) = text_size(screen);
    let rows = v.rows(width);
    let matches = v.matches();
    let mut lines: Vec<Line> = rows
        .iter()
        .skip(v.scroll)
        .take(height)
        .map(|row| {
            let n = row.text.chars().count();
            let lit: Vec<(usize, usize, bool)> = matches
                .iter()
                .filter(|m| m.line == row.line && m.end > row.start && m.start < row.start + n)
                .map(|m| {
                    (
                        m.start.saturating_sub(row.start),
                        (m.end - row.start).min(n),
                        v.current == Some(*m),
                    )
                })
                .collect();
            spans(&row.text, &lit, theme)
        })
        .collect();
    let bottom = match (ui.typing, &v.note) {
        (Some(Prompt::ViewerSearch), _) => format!("/{}", ui.input.value()),
        (_, Some(note)) => note.clone(),
        _ => found(&matches, v.current, &v.query),
    };
    lines.resize(height, Line::default());
    lines.push(Line::from(Span::styled(bottom, theme.dim)));
    let shown = (v.scroll + height).min(rows.len());
    let title = format!(
        " {} · rows {}–{} of {} (↑↓ PgUp PgDn Home End, / finds, n next, Esc closes) ",
        v.title,
        (v.scroll + 1).min(shown),
        shown,
        rows.len()
    );
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
        r,
    );
}

/// A row with its matched pieces lit.
fn spans<'a>(text: &str, lit: &[(usize, usize, bool)], theme: &Theme) -> Line<'a> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = vec![];
    let mut at = 0;
    for &(start, end, current) in lit {
        if start > at {
            out.push(Span::styled(
                chars[at..start].iter().collect::<String>(),
                theme.text,
            ));
        }
        let style = if current {
            theme.current_line
        } else {
            theme.selected
        };
        out.push(Span::styled(
            chars[start.max(at)..end].iter().collect::<String>(),
            style,
        ));
        at = end;
    }
    if at < chars.len() {
        out.push(Span::styled(
            chars[at..].iter().collect::<String>(),
            theme.text,
        ));
    }
    Line::from(out)
}

fn found(matches: &[Match], current: Option<Match>, query: &str) -> String {
    if query.is_empty() {
        return String::new();
    }
    match current.and_then(|c| matches.iter().position(|m| *m == c)) {
        Some(i) => format!("{query:?}: match {} of {}", i + 1, matches.len()),
        None if matches.is_empty() => format!("{query:?} is not in the value"),
        None => format!("{query:?}: {} matches", matches.len()),
    }
}
