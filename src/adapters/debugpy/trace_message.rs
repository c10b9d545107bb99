//! A tracepoint's message as debugpy's `logMessage`. debugpy joins the
//! whole message into one `%` format, so one failing `{expr}` replaces the
//! message with its error, `%` in the text breaks it, and `{{` is not a
//! literal brace. The message is therefore one expression calling a small
//! helper, defined in the program once, that evaluates each piece on its own.

use crate::adapters::{LogPiece, parse_log_message};

/// The helper, defined in `builtins` so every module's frames see it.
const HELPER: &str = "\
def _pairdbg_trace(parts, g, l, _cache={}):
    out = []
    for text, code in parts:
        out.append(text)
        if code is not None:
            try:
                c = _cache.get(code)
                if c is None:
                    c = _cache[code] = compile(code, '<tracepoint>', 'eval')
                out.append(str(eval(c, g, l)))
            except Exception as e:
                out.append('<error: %s>' % type(e).__name__)
    return ''.join(out)
";

pub fn log_message(template: &str) -> String {
    let pieces = match parse_log_message(template) {
        Ok(p) => p,
        // Refused before it gets here; shown rather than lost if not.
        Err(e) => return format!("<error: {e}>"),
    };
    if pieces.iter().all(|p| matches!(p, LogPiece::Text(_))) {
        let text: String = pieces
            .iter()
            .map(|p| match p {
                LogPiece::Text(t) | LogPiece::Expr(t) => t.as_str(),
            })
            .collect();
        return format!("{{{}}}", py_str(&text));
    }
    let parts: Vec<String> = pieces
        .iter()
        .map(|p| match p {
            LogPiece::Text(t) => format!("({}, None)", py_str(t)),
            LogPiece::Expr(e) => format!("('', {})", py_str(e)),
        })
        .collect();
    let b = "__import__('builtins')";
    format!(
        "{{({b}.__dict__.get('_pairdbg_trace') or (exec({}, {b}.__dict__), {b}._pairdbg_trace)[1])(({},), globals(), locals())}}",
        py_str(HELPER),
        parts.join(", ")
    )
}

/// A Python string literal with no brace, quote or `%` in it: debugpy
/// counts braces to find where a `{...}` ends.
fn py_str(s: &str) -> String {
    let mut out = String::from("'");
    for c in s.chars() {
        match c {
            'a'..='z'
            | 'A'..='Z'
            | '0'..='9'
            | ' '
            | '_'
            | '.'
            | ','
            | ':'
            | '('
            | ')'
            | '='
            | '+'
            | '-'
            | '*'
            | '/'
            | '<'
            | '>'
            | '!'
            | '?'
            | '@'
            | '#'
            | '$'
            | '^'
            | '&'
            | '|'
            | '~'
            | ';'
            | '['
            | ']' => out.push(c),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_carry_no_braces() {
        let m = log_message("i={i} {{x}} 100%");
        let inner = &m[1..m.len() - 1];
        assert!(!inner.contains(['{', '}', '%']), "{m}");
        assert_eq!(log_message("plain"), "{'plain'}");
    }
}
