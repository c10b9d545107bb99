//! The memory view: bytes in hex and as ASCII, sixteen a row (eight on a
//! narrow pane), read on as the person scrolls past the end.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::session::native::Memory;
use crate::tui::panes::block;
use crate::tui::state::{Focus, UiState};
use crate::tui::theme::Theme;

/// Bytes a row holds in a pane `width` columns wide.
pub fn row_bytes(width: u16) -> usize {
    if width >= 84 { 16 } else { 8 }
}

/// One row: the address, the bytes in hex, and the bytes as text.
pub fn row(address: u64, bytes: &[u8], per_row: usize) -> String {
    let mut hex = String::with_capacity(per_row * 3 + 1);
    for i in 0..per_row {
        if i == 8 {
            hex.push(' ');
        }
        match bytes.get(i) {
            Some(b) => hex.push_str(&format!("{b:02x} ")),
            None => hex.push_str("   "),
        }
    }
    let text: String = bytes
        .iter()
        .map(|b| {
            if b.is_ascii_graphic() || *b == b' ' {
                *b as char
            } else {
                '.'
            }
        })
        .collect();
    format!("0x{address:012x}  {hex} |{text}|")
}

pub fn render(
    f: &mut Frame,
    area: Rect,
    ui: &UiState,
    theme: &Theme,
    memory: &Memory,
    scroll: usize,
    reading: bool,
) {
    let title = format!("memory: {} @ 0x{:x}", memory.expression, memory.address);
    let blk = block(&title, Focus::Source, ui, theme);
    let inner = blk.inner(area);
    f.render_widget(blk, area);
    let per_row = row_bytes(inner.width);
    let height = inner.height as usize;
    let first = scroll / per_row;
    let mut lines: Vec<Line> = memory
        .data
        .chunks(per_row)
        .enumerate()
        .skip(first)
        .take(height)
        .map(|(i, chunk)| {
            let address = memory.address + (i * per_row) as u64;
            Line::from(Span::styled(row(address, chunk, per_row), theme.text))
        })
        .collect();
    if lines.len() < height {
        let tail = if reading {
            "reading more…".to_string()
        } else if memory.unreadable > 0 {
            format!("… {} bytes here cannot be read", memory.unreadable)
        } else {
            "(scroll down to read more)".to_string()
        };
        lines.push(Line::from(Span::styled(tail, theme.dim)));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_row_shows_hex_and_text() {
        assert_eq!(
            super::row(0x10, b"AB\0", 8),
            format!("0x000000000010  41 42 00{}|AB.|", " ".repeat(17))
        );
    }
}
