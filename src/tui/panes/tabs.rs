//! Tabs in source lines, expanded to the next tab stop: a terminal cell
//! has no width for a tab, so an indentation made of tabs (gofmt's) would
//! vanish from the pane.

use ratatui::text::Span;
use unicode_width::UnicodeWidthChar;

/// Four columns, as Go's editors and its own documentation show a tab.
pub const TAB_WIDTH: usize = 4;

/// `spans` with each tab replaced by the spaces up to the next tab stop,
/// counting columns across the spans.
pub fn expand(spans: Vec<Span<'_>>) -> Vec<Span<'_>> {
    if !spans.iter().any(|s| s.content.contains('\t')) {
        return spans;
    }
    let mut column = 0;
    spans
        .into_iter()
        .map(|s| {
            let mut text = String::with_capacity(s.content.len());
            for c in s.content.chars() {
                if c == '\t' {
                    let n = TAB_WIDTH - column % TAB_WIDTH;
                    text.extend(std::iter::repeat_n(' ', n));
                    column += n;
                } else {
                    text.push(c);
                    column += c.width().unwrap_or(0);
                }
            }
            Span::styled(text, s.style)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(spans: &[Span]) -> String {
        spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn tabs_reach_the_next_stop_across_spans() {
        let spans = vec![Span::raw("\t\tif"), Span::raw(" x {\t// y")];
        assert_eq!(text(&expand(spans)), "        if x {  // y");
        let plain = vec![Span::raw("no tabs")];
        assert_eq!(text(&expand(plain)), "no tabs");
    }
}
