//! Python's chain of causes (`__cause__`, else `__context__` unless
//! suppressed), read in one evaluation at an exception stop.

use crate::adapters::InnerException;

/// Messages are cut so that a long chain fits one evaluated value.
const MESSAGE_CHARS: usize = 120;

/// pydevd puts `(type, value, traceback)` in the stopped frame's locals as
/// `__exception__`. Names inside the lambdas are their parameters only:
/// code compiled by an evaluation cannot close over the frame's locals.
pub fn expression(max: usize) -> String {
    format!(
        r#"(lambda json, e, n: json.dumps((lambda walk: walk(walk, e, 1, n))(lambda walk, x, d, k: (lambda nxt, rel: [] if nxt is None or k <= 0 else [{{"type": ("" if type(nxt).__module__ in ("builtins", "__main__") else type(nxt).__module__ + ".") + type(nxt).__qualname__, "message": str(nxt)[:{MESSAGE_CHARS}], "depth": d, "relation": rel}}] + walk(walk, nxt, d + 1, k - 1))(x.__cause__ if x.__cause__ is not None else (None if x.__suppress_context__ else x.__context__), "cause" if x.__cause__ is not None else "context")), ensure_ascii=True))(__import__("json"), __exception__[1], {max})"#
    )
}

/// The evaluated value is the repr of an ASCII string: quoted, with `\\`
/// and `\'` escaped.
pub fn parse(value: &str) -> Vec<InnerException> {
    let v = value.trim();
    let Some(inner) = v
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .or_else(|| v.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
    else {
        return vec![];
    };
    let mut json = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(n @ ('\\' | '\'' | '"')) => json.push(n),
                Some(n) => {
                    json.push('\\');
                    json.push(n);
                }
                None => {}
            }
        } else {
            json.push(c);
        }
    }
    serde_json::from_str(&json).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn reads_a_repr_of_the_chain() {
        let v = r#"'[{"type": "TypeError", "message": "int() can\'t convert \\"x\\"", "depth": 1, "relation": "cause"}]'"#;
        let chain = parse(v);
        assert_eq!(chain.len(), 1, "{chain:?}");
        assert_eq!(chain[0].type_name, "TypeError");
        assert_eq!(chain[0].message, "int() can't convert \"x\"");
        assert_eq!(chain[0].relation, "cause");
        assert!(parse("'not json'").is_empty());
    }
}
