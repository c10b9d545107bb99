//! Tracepoint messages for the adapters that interpolate `{expr}`
//! themselves but know no literal brace (lldb-dap reads every brace pair as
//! an expression, delve refuses a lone one and runs the text through a `%`
//! format) and print a failed expression in their own words. The message
//! goes out with literal braces as private-use characters and each value
//! fenced, and the record that comes back is put right: braces restored, a
//! failure shown as `<error: message>`.

use crate::adapters::{LogPiece, parse_log_message};

const OPEN: char = '\u{E000}';
const CLOSE: char = '\u{E001}';
const VALUE: char = '\u{E002}';
const VALUE_END: char = '\u{E003}';

/// What differs from the documented form, for the tracepoint's result.
pub const NOTE: &str = "a failed {expr} shows the debugger's message, <error: …>, not a type";

/// How one adapter reads a log message.
pub struct Dialect {
    /// Literal text as the adapter's text (its escapes).
    pub escape: fn(&str) -> String,
    /// The failure's message, when a value is the adapter's error text.
    pub error: fn(&str) -> Option<String>,
}

pub fn log_message(template: &str, dialect: &Dialect) -> String {
    let pieces = match parse_log_message(template) {
        Ok(p) => p,
        // Refused before it gets here; shown rather than lost if not.
        Err(e) => return (dialect.escape)(&format!("<error: {e}>")).replace(['{', '}'], ""),
    };
    let mut out = String::new();
    for p in pieces {
        match p {
            LogPiece::Text(t) => {
                let t: String = t
                    .chars()
                    .map(|c| match c {
                        '{' => OPEN,
                        '}' => CLOSE,
                        c => c,
                    })
                    .collect();
                out.push_str(&(dialect.escape)(&t));
            }
            LogPiece::Expr(e) => {
                out.push(VALUE);
                out.push('{');
                out.push_str(&e);
                out.push('}');
                out.push(VALUE_END);
            }
        }
    }
    out
}

/// The adapter's output for one hit as the documented form.
pub fn record(message: &str, dialect: &Dialect) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find(VALUE) {
        out.push_str(&rest[..at]);
        let value = &rest[at + VALUE.len_utf8()..];
        let (value, next) = match value.find(VALUE_END) {
            Some(end) => (&value[..end], &value[end + VALUE_END.len_utf8()..]),
            None => (value, ""),
        };
        match (dialect.error)(value) {
            Some(e) => out.push_str(&format!("<error: {}>", one_line(&e))),
            None => out.push_str(value),
        }
        rest = next;
    }
    out.push_str(rest);
    out.chars()
        .map(|c| match c {
            OPEN => '{',
            CLOSE => '}',
            c => c,
        })
        .collect()
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Dialect = Dialect {
        escape: |s| s.replace('%', "%%"),
        error: |v| v.strip_prefix("ERR ").map(str::to_string),
    };

    #[test]
    fn braces_travel_as_private_characters_and_come_back() {
        let m = log_message("i={i} {{lit}} 5% {{{i}}}", &PLAIN);
        assert_eq!(m.matches('{').count(), 2, "only the expressions: {m}");
        assert!(m.contains("5%%"), "{m}");
        let back = m
            .replace("\u{E002}{i}\u{E003}", "\u{E002}3\u{E003}")
            .replace("%%", "%");
        assert_eq!(record(&back, &PLAIN), "i=3 {lit} 5% {3}");
    }

    #[test]
    fn a_failed_value_becomes_one_error_line() {
        let got = record("x=\u{E002}ERR no such\n  name\u{E003}!", &PLAIN);
        assert_eq!(got, "x=<error: no such name>!");
    }
}
