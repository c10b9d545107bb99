//! A line of parts that drops its least important parts first when the
//! screen is too narrow for all of them, keeping the rest in their place.

use ratatui::text::Span;

/// One part of the line; rank 0 is the most important.
pub struct Part<'a> {
    pub rank: u8,
    pub span: Span<'a>,
    /// Shown only if it fits, and left out without dropping what ranks
    /// below it (a message that has a line of its own when too long).
    pub optional: bool,
    /// Shown instead when the part does not fit.
    pub short: Option<Span<'a>>,
}

/// The parts that fit in `width`, taken by rank until one does not fit,
/// in their order on the line; the most important part is always kept.
pub fn fit(mut parts: Vec<Part<'_>>, width: usize) -> Vec<(usize, Span<'_>)> {
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|i| parts[*i].rank);
    let mut kept = vec![false; parts.len()];
    let mut used = 0;
    for (n, i) in order.into_iter().enumerate() {
        let p = &mut parts[i];
        if n > 0
            && used + p.span.width() > width
            && let Some(short) = p.short.take()
        {
            p.span = short;
        }
        let w = p.span.width();
        if n == 0 || used + w <= width {
            kept[i] = true;
            used += w;
        } else if !p.optional {
            break;
        }
    }
    parts
        .into_iter()
        .enumerate()
        .filter(|(i, _)| kept[*i])
        .map(|(i, p)| (i, p.span))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(rank: u8, text: &str) -> Part<'_> {
        Part {
            rank,
            span: Span::raw(text),
            optional: false,
            short: None,
        }
    }

    fn text(kept: &[(usize, Span)]) -> String {
        kept.iter().map(|(_, s)| s.content.as_ref()).collect()
    }

    #[test]
    fn the_least_important_go_first_and_the_rest_keep_their_place() {
        let parts = || {
            vec![
                part(0, "[state]"),
                part(3, "[c]"),
                part(1, "[a]"),
                part(2, "[bb]"),
            ]
        };
        assert_eq!(text(&fit(parts(), 100)), "[state][c][a][bb]");
        assert_eq!(text(&fit(parts(), 14)), "[state][a][bb]");
        assert_eq!(text(&fit(parts(), 11)), "[state][a]");
        assert_eq!(text(&fit(parts(), 3)), "[state]");
    }

    #[test]
    fn a_part_too_long_shows_its_short_form() {
        let long = Part {
            short: Some(Span::raw("[s]")),
            ..part(1, "[a long one]")
        };
        let parts = vec![part(0, "[state]"), long, part(2, "[b]")];
        assert_eq!(text(&fit(parts, 13)), "[state][s][b]");
    }
}
