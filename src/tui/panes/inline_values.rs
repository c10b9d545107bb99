//! Values of the selected frame's variables at the end of the source lines
//! that name them, while stopped (as VS Code shows them): dimmed, and lit
//! where they changed since the last stop. Only the visible lines of the
//! frame's function are scanned, so a long file costs nothing more.

use ratatui::text::Span;

use crate::adapters::Language;
use crate::session::types::Var;
use crate::tui::theme::Theme;
use crate::viewport::ViewportConfig;
use crate::viewport::value::{render as render_value, same_value};

/// Values longer than this are cut: the line's own text comes first.
const VALUE_CHARS: usize = 40;
/// How far up the function's first line is looked for.
const FUNCTION_LINES: usize = 2_000;

/// The first line (1-based) of the function holding `line`: the nearest
/// line above it that starts at the left margin, or one its language says
/// opens a function inside other code (a method). Lines above it belong to
/// other code and get no values.
pub fn function_start(lines: &[String], line: usize, language: Option<&dyn Language>) -> usize {
    let top = line.saturating_sub(FUNCTION_LINES).max(1);
    for n in (top..=line.min(lines.len())).rev() {
        let text = &lines[n - 1];
        let body = text.trim_start();
        if body.is_empty() {
            continue;
        }
        let at_margin = body.len() == text.len() && !body.starts_with('}');
        let opens = || language.is_some_and(|l| l.opens_function(body));
        if n < line && (at_margin || opens()) {
            return n;
        }
    }
    top
}

/// The identifiers `line` names, in order, each once: not a member after
/// `.` or `->`, nor inside a string or a comment.
pub fn identifiers(line: &str) -> Vec<&str> {
    let bytes = line.as_bytes();
    let mut out: Vec<&str> = vec![];
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'#' => break,
            b'/' if bytes.get(i + 1) == Some(&b'/') => break,
            b'"' | b'`' => i = closing(bytes, i, c),
            // A character literal, not a Rust lifetime.
            b'\'' if bytes.get(i + 2) == Some(&b'\'') || bytes.get(i + 1) == Some(&b'\\') => {
                i = closing(bytes, i, c)
            }
            b'\'' if opens_string(bytes, i) => i = closing(bytes, i, c),
            c if c == b'_' || c.is_ascii_alphabetic() => {
                let start = i;
                while i < bytes.len() && (bytes[i] == b'_' || bytes[i].is_ascii_alphanumeric()) {
                    i += 1;
                }
                let before = line[..start].trim_end();
                let member = before.ends_with('.') || before.ends_with("->");
                let word = &line[start..i];
                if !member && !out.contains(&word) {
                    out.push(word);
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// A `'` opens a string unless it starts a Rust lifetime (`&'a`, `<'a>`).
fn opens_string(bytes: &[u8], i: usize) -> bool {
    let lifetime = i > 0 && matches!(bytes[i - 1], b'&' | b'<');
    !lifetime && bytes[i + 1..].contains(&b'\'')
}

/// The index of the quote that closes the one at `open`, or the end.
fn closing(bytes: &[u8], open: usize, quote: u8) -> usize {
    let mut i = open + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b if b == quote => return i,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// The spans to append to `line`: `  name = value, other = value`.
pub fn annotate<'a>(
    line: &str,
    vars: &[Var],
    previous: Option<&[Var]>,
    theme: &Theme,
    formats: (&crate::tui::number_format::Formats, &str),
) -> Vec<Span<'a>> {
    let cfg = ViewportConfig {
        string_truncate_length: VALUE_CHARS,
        ..Default::default()
    };
    let mut spans = vec![];
    for word in identifiers(line) {
        let Some(v) = vars
            .iter()
            .find(|v| v.name == word && !v.hidden && !v.is_return_value())
        else {
            continue;
        };
        let value = render_value(&formats.0.shown(formats.1, &v.name, v), &cfg, 0);
        let changed =
            previous.is_some_and(|p| !p.iter().any(|o| o.name == v.name && same_value(o, v)));
        spans.push(Span::styled(
            if spans.is_empty() { "   " } else { ", " },
            theme.dim,
        ));
        let style = if changed { theme.changed } else { theme.dim };
        spans.push(Span::styled(format!("{} = {value}", v.name), style));
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_strings_and_comments_are_not_variables() {
        assert_eq!(
            identifiers("total = item.price * q  # total so far"),
            ["total", "item", "q"]
        );
        assert_eq!(identifiers("print(\"n = \", n, 'x')"), ["print", "n"]);
        assert_eq!(identifiers("p->x + s.len() // len"), ["p", "s"]);
        assert_eq!(
            identifiers("fn f<'a>(x: &'a str)"),
            ["fn", "f", "a", "x", "str"]
        );
    }

    #[test]
    fn the_function_starts_at_its_definition() {
        let python = crate::adapters::by_name_or_language("python")
            .expect("python")
            .language();
        let lines: Vec<String> = "import x\n\ndef f(a):\n    b = a\n\n    return b\n"
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(function_start(&lines, 6, None), 3);
        let lines: Vec<String> = "class A:\n    def m(self):\n        y = 1\n"
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(function_start(&lines, 3, Some(python)), 2);
        assert_eq!(
            function_start(&lines, 3, None),
            1,
            "no language, the margin"
        );
        // A Rust method: its own `fn` line, not the `impl` and the methods
        // above it.
        let rust = crate::adapters::by_name_or_language("rust")
            .expect("rust")
            .language();
        let lines: Vec<String> =
            "impl Shape {\n    fn area(&self) -> f64 {\n        self.w * self.h\n    }\n\n    pub(crate) fn grow(&mut self, by: f64) {\n        self.w += by;\n    }\n}\n"
                .lines()
                .map(str::to_string)
                .collect();
        assert_eq!(function_start(&lines, 7, Some(rust)), 6);
        assert_eq!(function_start(&lines, 3, Some(rust)), 2);
    }
}
