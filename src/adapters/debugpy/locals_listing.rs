//! debugpy computes every local's repr in one `variables` answer, on the
//! stopped thread itself: one slow `__repr__` holds up the whole scope and
//! every request queued behind it. This listing is evaluated just before
//! that read, so the thread answers it first: each local's name, type,
//! and value where showing it runs none of the program's code (numbers,
//! short strings), or `None` where it would.

use crate::adapters::ListedLocal;

/// debugpy evaluates in a dict of the frame's globals and locals merged,
/// so `locals()` would list globals too: the frame itself is the one the
/// debugger's evaluation holds as `frame`, the first caller up from the
/// evaluation that has one (none found: the listing fails, and the scope's
/// own failure stands). Only names debugpy shows in the Locals scope itself:
/// not its special, protected, function or class groups. `repr` runs only
/// on builtin types whose repr is short; an `int` past 2**63 is left out
/// because its repr can raise (Python's digit limit). JSON with
/// `ensure_ascii` keeps the answer printable.
pub const EXPRESSION: &str = "__import__('json').dumps([[k, type(v).__name__, \
repr(v) if type(v) in (bool, float, complex, type(None)) \
or (type(v) is int and -2**63 <= v < 2**63) \
or (type(v) in (str, bytes) and len(v) <= 256) else None] \
for k, v in next(g.f_locals['frame'] for g, _ in \
__import__('traceback').walk_stack(__import__('sys')._getframe(1)) \
if isinstance(g.f_locals.get('frame'), __import__('types').FrameType)).f_locals.items() \
if not k.startswith('_') and not isinstance(v, type) \
and not __import__('inspect').isroutine(v)])";

/// The listing, from the evaluate answer: asked for with `rawString`,
/// debugpy sends the JSON as is; if it came quoted as a repr, the quotes
/// and the two escapes a printable ASCII repr has are undone.
pub fn parse(value: &str) -> Option<Vec<ListedLocal>> {
    let raw: Vec<(String, String, Option<String>)> = serde_json::from_str(value)
        .ok()
        .or_else(|| serde_json::from_str(&unquote(value)?).ok())?;
    Some(
        raw.into_iter()
            .map(|(name, type_name, value)| ListedLocal {
                name,
                type_name,
                value,
            })
            .collect(),
    )
}

fn unquote(repr: &str) -> Option<String> {
    let inner = repr
        .strip_prefix('\'')
        .and_then(|v| v.strip_suffix('\''))
        .or_else(|| repr.strip_prefix('"').and_then(|v| v.strip_suffix('"')))?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.push(chars.next()?);
        } else {
            out.push(c);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_json_lists_read_and_unread_locals() {
        let got = parse(r#"[["count", "int", "3"], ["slow", "Slow", null]]"#).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].name, "count");
        assert_eq!(got[0].value.as_deref(), Some("3"));
        assert_eq!(got[1].type_name, "Slow");
        assert_eq!(got[1].value, None);
    }

    #[test]
    fn a_quoted_repr_is_unquoted() {
        // Python's repr of the JSON for the str `it's "q"`.
        let got = parse(r#"'[["s", "str", "\'it\\\\\'s \\"q\\"\'"]]'"#).unwrap();
        assert_eq!(got[0].value.as_deref(), Some(r#"'it\'s "q"'"#));
    }

    #[test]
    fn anything_else_is_no_listing() {
        assert!(parse("Traceback (most recent call last)").is_none());
        assert!(parse("'[[1, 2'").is_none());
    }
}
