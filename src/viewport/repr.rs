//! Reading Python reprs, so most values render without asking the adapter
//! for their children: every request to the adapter is time on a step.

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
fn balanced_inner(s: &str) -> Option<&str> {
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

fn split_top(s: &str) -> Vec<&str> {
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

/// A Python string literal in the viewport's double quotes.
pub fn requote(item: &str) -> String {
    let t = item.trim();
    for q in ['\'', '"'] {
        if t.len() >= 2 && t.starts_with(q) && t.ends_with(q) {
            return format!("\"{}\"", &t[1..t.len() - 1]);
        }
    }
    t.to_string()
}

/// A value text that names its type first, as Go debuggers print them:
/// `main.Item {Name: "a", Price: 1}`, `[]int len: 3, cap: 3, [1,2,3]`,
/// `map[string]int ["a": 1, ]`, `*main.Item nil`, `(*main.Item)(0xc000..)`.
#[derive(Debug, Clone, PartialEq)]
pub enum Typed<'a> {
    /// A struct literal; `type_name` is empty inside a typed container.
    Struct {
        type_name: &'a str,
        fields: Vec<(&'a str, &'a str)>,
        more: usize,
    },
    /// A slice, array or map, with the length its header gives.
    List {
        type_name: &'a str,
        len: Option<usize>,
        items: Vec<&'a str>,
        more: usize,
    },
    Nil,
    /// Left unread at a depth: only its type is known.
    Unloaded {
        type_name: &'a str,
    },
}

/// Reads a typed value text; None for anything else (every Python repr).
pub fn parse_typed(s: &str) -> Option<Typed<'_>> {
    let s = s.trim();
    if let Some(rest) = s.strip_prefix("(*")
        && let Some((t, addr)) = rest.split_once(")(0x")
        && addr.ends_with(')')
        && is_type_token(t)
    {
        return Some(Typed::Unloaded { type_name: t });
    }
    let (type_name, rest) = if s.starts_with('{') {
        ("", s)
    } else {
        let end = type_token_end(s)?;
        let (t, rest) = (&s[..end], &s[end..]);
        (t, rest.strip_prefix(' ')?)
    };
    if rest == "nil" && !type_name.is_empty() {
        return Some(Typed::Nil);
    }
    if let Some(header) = rest.strip_prefix("len: ") {
        let (len, after) = header.split_once(", ")?;
        let len = len.parse().ok()?;
        let after = match after.strip_prefix("cap: ") {
            Some(cap) => cap.split_once(", ")?.1,
            None => after,
        };
        if after == "nil" {
            return Some(Typed::Nil);
        }
        let (items, more) = typed_items(after, '[', ']')?;
        return Some(Typed::List {
            type_name,
            len: Some(len),
            items,
            more,
        });
    }
    if rest.starts_with('[') && !type_name.is_empty() {
        let (items, more) = typed_items(rest, '[', ']')?;
        return Some(Typed::List {
            type_name,
            len: None,
            items,
            more,
        });
    }
    let (parts, more) = typed_items(rest, '{', '}')?;
    let fields = parts
        .iter()
        .map(|p| {
            let (k, v) = p.split_once(": ")?;
            is_ident_like(k).then_some((k, v))
        })
        .collect::<Option<Vec<_>>>()?;
    // `{}` alone says nothing of its kind.
    if fields.is_empty() && type_name.is_empty() {
        return None;
    }
    Some(Typed::Struct {
        type_name,
        fields,
        more,
    })
}

/// The items between `open` and `close`, and how many more were left out
/// (`...+97 more`).
fn typed_items(s: &str, open: char, close: char) -> Option<(Vec<&str>, usize)> {
    if !(s.starts_with(open) && s.ends_with(close)) {
        return None;
    }
    let inner = balanced_inner(s)?;
    let mut items = join_headers(inner, split_top(inner));
    let mut more = 0;
    if let Some(last) = items.last()
        && let Some(n) = last
            .trim()
            .strip_prefix("...+")
            .and_then(|r| r.strip_suffix(" more"))
    {
        more = n.parse().ok()?;
        items.pop();
    }
    Some((items, more))
}

/// Puts back together a nested slice that the split cut at the commas of
/// its own header (`[]int len: 2`, `cap: 2`, `[1,2]`).
fn join_headers<'a>(whole: &'a str, parts: Vec<&'a str>) -> Vec<&'a str> {
    let ends_with_count = |p: &str, key: &str| {
        p.rsplit_once(key)
            .is_some_and(|(_, n)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    let mut out: Vec<&'a str> = vec![];
    for part in parts {
        let joins = out.last().is_some_and(|prev: &&str| {
            ends_with_count(prev, " len: ") && part.starts_with("cap: ")
                || (ends_with_count(prev, " len: ") || ends_with_count(prev, "cap: "))
                    && (part.starts_with('[') || part == "nil")
        });
        match out.last_mut() {
            Some(prev) if joins => {
                // Both are slices of `whole`: take the span from one to the other.
                let start = prev.as_ptr() as usize - whole.as_ptr() as usize;
                let end = part.as_ptr() as usize - whole.as_ptr() as usize + part.len();
                *prev = &whole[start..end];
            }
            _ => out.push(part),
        }
    }
    out
}

fn is_ident_like(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

fn is_type_token(t: &str) -> bool {
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_alphanumeric() || "_.*[]/".contains(c))
}

/// Where a leading type such as `map[string][]main.Item` ends.
fn type_token_end(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ' ' if depth == 0 => return (i > 0 && is_type_token(&s[..i])).then_some(i),
            _ if c.is_alphanumeric() || "_.*/".contains(c) => {}
            _ => return None,
        }
    }
    None
}

/// A type with its package paths dropped: `[]main.Item` → `[]Item`.
pub fn short_type_name(t: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(word.rsplit('.').next().unwrap_or(word));
        word.clear();
    };
    for c in t.chars() {
        if c.is_alphanumeric() || "_./".contains(c) {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
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

    #[test]
    fn typed_values_split_into_parts() {
        assert_eq!(
            parse_typed("*main.User {ID: 482, Tier: \"gold\"}"),
            Some(Typed::Struct {
                type_name: "*main.User",
                fields: vec![("ID", "482"), ("Tier", "\"gold\"")],
                more: 0
            })
        );
        assert_eq!(
            parse_typed("[]int len: 100, cap: 100, [1,2,...+98 more]"),
            Some(Typed::List {
                type_name: "[]int",
                len: Some(100),
                items: vec!["1", "2"],
                more: 98
            })
        );
        assert!(matches!(
            parse_typed("map[string]int [\"gold\": 10, \"silver\": 5, ]"),
            Some(Typed::List { len: None, ref items, .. }) if items.len() == 2
        ));
        assert_eq!(parse_typed("*main.Item nil"), Some(Typed::Nil));
        assert_eq!(
            parse_typed("(*main.Item)(0xc0000ac000)"),
            Some(Typed::Unloaded {
                type_name: "main.Item"
            })
        );
        for python in [
            "{'a': 1}",
            "{1, 2}",
            "[1, 2]",
            "Item(name='a')",
            "<X object at 0x1>",
        ] {
            assert_eq!(parse_typed(python), None, "{python}");
        }
        assert_eq!(
            short_type_name("map[string][]main.Item"),
            "map[string][]Item"
        );
    }

    #[test]
    fn requote_switches_quotes() {
        assert_eq!(requote("'gold'"), "\"gold\"");
        assert_eq!(requote("3"), "3");
    }
}
