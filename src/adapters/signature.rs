//! Reading a parameter list from source text: what stands inside a
//! declaration's parentheses, and its top-level comma-separated parts.
//! `angles` counts `<...>` as brackets, for languages with generics in types.

fn opens(c: char, angles: bool) -> bool {
    matches!(c, '(' | '[' | '{') || angles && c == '<'
}

fn closes(c: char, angles: bool) -> bool {
    matches!(c, ')' | ']' | '}') || angles && c == '>'
}

/// The text inside the bracket `s` starts with, up to its match.
pub fn inside_parens(s: &str, angles: bool) -> Option<&str> {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        if opens(c, angles) {
            depth += 1;
        } else if closes(c, angles) {
            depth -= 1;
            if depth == 0 {
                return Some(&s[1..i]);
            }
        }
    }
    None
}

/// The parts of `s` between commas outside any bracket, trimmed.
pub fn split_top_level(s: &str, angles: bool) -> Vec<&str> {
    let mut out = vec![];
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        if opens(c, angles) {
            depth += 1;
        } else if closes(c, angles) {
            depth -= 1;
        } else if c == ',' && depth == 0 {
            out.push(s[start..i].trim());
            start = i + 1;
        }
    }
    out.push(s[start..].trim());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_nest_and_angles_count_where_asked() {
        assert_eq!(
            inside_parens("(a, f(b), c) -> int", false),
            Some("a, f(b), c")
        );
        assert_eq!(
            split_top_level("a: Vec<(u8, u8)>, b", true),
            vec!["a: Vec<(u8, u8)>", "b"]
        );
        assert_eq!(
            split_top_level("c <-chan int, d int", false),
            vec!["c <-chan int", "d int"]
        );
    }
}
