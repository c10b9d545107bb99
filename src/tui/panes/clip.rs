//! Lines wider than their pane: scrolled sideways, and cut with `…` so a
//! cut value never passes for a whole one.

use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

/// Drops the first `skip` columns of `spans`.
pub fn shift<'a>(spans: Vec<Span<'a>>, mut skip: usize) -> Vec<Span<'a>> {
    let mut out = Vec::with_capacity(spans.len());
    for s in spans {
        if skip == 0 {
            out.push(s);
            continue;
        }
        let mut rest = String::new();
        for c in s.content.chars() {
            if skip > 0 {
                skip = skip.saturating_sub(c.width().unwrap_or(0).max(1));
            } else {
                rest.push(c);
            }
        }
        if !rest.is_empty() {
            out.push(Span::styled(rest, s.style));
        }
    }
    out
}

/// `line` cut to `width` columns, its last column `…` when anything was cut.
pub fn ellipsize(line: Line<'_>, width: usize) -> Line<'_> {
    if line.width() <= width || width == 0 {
        return line;
    }
    let style = line.style;
    let mut room = width - 1;
    let mut spans = vec![];
    let mut last_style = Default::default();
    for s in line.spans {
        last_style = s.style;
        let mut kept = String::new();
        for c in s.content.chars() {
            let w = c.width().unwrap_or(0);
            if w > room {
                room = 0;
                break;
            }
            room -= w;
            kept.push(c);
        }
        let done = room == 0 || kept.chars().count() < s.content.chars().count();
        spans.push(Span::styled(kept, s.style));
        if done {
            break;
        }
    }
    spans.push(Span::styled("…", last_style));
    Line::from(spans).style(style)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_line_ends_with_an_ellipsis_and_a_short_one_is_kept() {
        let l = Line::from(vec![Span::raw("name = "), Span::raw("\"a long value\"")]);
        assert_eq!(ellipsize(l.clone(), 12).to_string(), "name = \"a l…");
        assert_eq!(ellipsize(l.clone(), 40).to_string(), l.to_string());
        let shifted = shift(vec![Span::raw("abc"), Span::raw("def")], 4);
        assert_eq!(Line::from(shifted).to_string(), "ef");
    }
}
