//! Reading literal value texts (Python's reprs, and what other languages'
//! texts are rewritten to), so most values are built without asking the
//! adapter for their children: every request to the adapter is time on a
//! step.

/// A repr split at its top level.
#[derive(Debug, Clone, PartialEq)]
pub enum Repr<'a> {
    /// `[..]`, `(..)`, `{..}` with their top-level items.
    Seq {
        open: char,
        items: Vec<&'a str>,
        cut: bool,
    },
    /// `Name(k=v, ..)`, as dataclasses and namedtuples print.
    Call {
        name: &'a str,
        args: Vec<(Option<&'a str>, &'a str)>,
        cut: bool,
    },
    Atom(&'a str),
}

/// SafeRepr marks what it left out with `...`.
fn is_cut(item: &str) -> bool {
    item.trim() == "..." || item.trim_end().ends_with("...")
}

pub fn parse(s: &str) -> Repr<'_> {
    let s = s.trim();
    let (first, last) = match (s.chars().next(), s.chars().last()) {
        (Some(f), Some(l)) => (f, l),
        _ => return Repr::Atom(s),
    };
    if matches!((first, last), ('[', ']') | ('(', ')') | ('{', '}')) {
        if let Some(inner) = balanced_inner(s) {
            let mut items = split_top(inner);
            let cut = items.last().is_some_and(|i| is_cut(i));
            if cut {
                items.pop();
            }
            // `(x,)` is a one-tuple.
            if first == '(' && items.last().is_some_and(|i| i.trim().is_empty()) {
                items.pop();
            }
            return Repr::Seq {
                open: first,
                items,
                cut,
            };
        }
        return Repr::Atom(s);
    }
    if last == ')'
        && let Some(open) = s.find('(')
    {
        let name = &s[..open];
        if !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
            && let Some(inner) = balanced_inner(&s[open..])
        {
            let mut parts = split_top(inner);
            let cut = parts.last().is_some_and(|i| is_cut(i));
            if cut {
                parts.pop();
            }
            let args = parts
                .into_iter()
                .map(|p| match split_kw(p) {
                    Some((k, v)) => (Some(k), v),
                    None => (None, p),
                })
                .collect();
            return Repr::Call { name, args, cut };
        }
    }
    Repr::Atom(s)
}

/// The characters of `s` outside string literals, with their byte index.
fn outside_quotes(s: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    s.char_indices().filter(move |&(_, c)| {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            return false;
        }
        if c == '\'' || c == '"' {
            quote = Some(c);
            return false;
        }
        true
    })
}

/// The inside of a bracketed repr, if its first bracket closes at the end.
pub fn balanced_inner(s: &str) -> Option<&str> {
    let mut depth = 0i32;
    for (i, c) in outside_quotes(s) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return (i == s.len() - 1).then(|| &s[1..i]);
                }
            }
            _ => {}
        }
    }
    None
}

pub fn split_top(s: &str) -> Vec<&str> {
    let mut out = vec![];
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in outside_quotes(s) {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let tail = s[start..].trim();
    if !tail.is_empty() || !out.is_empty() {
        out.push(tail);
    }
    out.retain(|x| !x.is_empty());
    out
}

fn split_kw(p: &str) -> Option<(&str, &str)> {
    let eq = p.find('=')?;
    let k = &p[..eq];
    (!k.is_empty()
        && k.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !p[eq + 1..].starts_with('='))
    .then(|| (k, &p[eq + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_split_at_top_level() {
        assert_eq!(
            parse("[1, 'a,b', (2, 3), {'k': [4]}]"),
            Repr::Seq {
                open: '[',
                items: vec!["1", "'a,b'", "(2, 3)", "{'k': [4]}"],
                cut: false
            }
        );
        assert_eq!(
            parse("(1,)"),
            Repr::Seq {
                open: '(',
                items: vec!["1"],
                cut: false
            }
        );
        assert_eq!(
            parse("[]"),
            Repr::Seq {
                open: '[',
                items: vec![],
                cut: false
            }
        );
        assert!(matches!(parse("[1, 2, ...]"), Repr::Seq { cut: true, .. }));
    }

    #[test]
    fn calls_keep_their_keywords() {
        assert_eq!(
            parse("Item(name='cable', price=9.99, quantity=3)"),
            Repr::Call {
                name: "Item",
                args: vec![
                    (Some("name"), "'cable'"),
                    (Some("price"), "9.99"),
                    (Some("quantity"), "3")
                ],
                cut: false
            }
        );
        assert_eq!(
            parse("<__main__.User object at 0x7f>"),
            Repr::Atom("<__main__.User object at 0x7f>")
        );
        assert_eq!(parse("[1, 2] + x"), Repr::Atom("[1, 2] + x"));
    }
}
