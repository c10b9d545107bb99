//! Where the cursor shows while the person types to the program: after
//! the last thing it wrote, as in a terminal.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::Span;

use crate::session::output::Stream;

/// Puts the terminal's cursor after the last of `shown` (the lines of the
/// output pane, as drawn in `inner`).
pub fn place(f: &mut Frame, inner: Rect, shown: &[(Stream, String)]) {
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    let (row, col) = match shown.last() {
        None => (0, 0),
        Some((_, l)) if l.ends_with('\n') => (shown.len(), 0),
        Some((stream, l)) => {
            let mark = usize::from(*stream == Stream::Stderr);
            (shown.len() - 1, Span::raw(l.as_str()).width() + mark)
        }
    };
    let row = row.min(inner.height as usize - 1) as u16;
    let col = col.min(inner.width as usize - 1) as u16;
    f.set_cursor_position(Position::new(inner.x + col, inner.y + row));
}
