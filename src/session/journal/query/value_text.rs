//! A value as the journal keeps it (its rendered text) read back into its
//! containers, so that two runs' values compare as the value model's diff
//! compares trees: a change deep in a list is named by its path
//! (`parts[6]`), not as the whole list.

/// A part of a rendered value: its text, and what it holds.
struct Part<'a> {
    text: &'a str,
    node: Node<'a>,
}

/// What a rendered value holds: parts, or text that is one value.
enum Node<'a> {
    Leaf,
    /// `[a, b]` and `(a, b)`: parts named by index, `[i]`.
    Seq(Vec<Part<'a>>),
    /// `{k: v}`: parts named by key, `[k]`.
    Map(Vec<(&'a str, Part<'a>)>),
    /// `<T: f=v>` and `T {f: v}`: parts named by field, `.f`, of type `T`.
    Fields(&'a str, Vec<(&'a str, Part<'a>)>),
    /// `Name(a, b)`: parts named by position, `.i`.
    Variant(&'a str, Vec<Part<'a>>),
}

/// The first place where `before` and `now`, both values of `name`,
/// differ: its path and the two texts there. None when they are the same.
pub fn first_change(name: &str, before: &str, now: &str) -> Option<(String, String, String)> {
    if before == now {
        return None;
    }
    Some(walk(name.to_string(), &parse(before), &parse(now)))
}

fn walk(path: String, a: &Part, b: &Part) -> (String, String, String) {
    let whole = |path: String| (path, a.text.to_string(), b.text.to_string());
    match (&a.node, &b.node) {
        (Node::Seq(x), Node::Seq(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if p.text != q.text {
                    return walk(format!("{path}[{i}]"), p, q);
                }
            }
            whole(path)
        }
        (Node::Map(x), Node::Map(y)) if same_keys(x, y) => {
            for ((k, p), (_, q)) in x.iter().zip(y) {
                if p.text != q.text {
                    return walk(format!("{path}[{k}]"), p, q);
                }
            }
            whole(path)
        }
        (Node::Fields(s, x), Node::Fields(t, y)) if s == t && same_keys(x, y) => {
            for ((k, p), (_, q)) in x.iter().zip(y) {
                if p.text != q.text {
                    return walk(format!("{path}.{k}"), p, q);
                }
            }
            whole(path)
        }
        (Node::Variant(s, x), Node::Variant(t, y)) if s == t && x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if p.text != q.text {
                    return walk(format!("{path}.{i}"), p, q);
                }
            }
            whole(path)
        }
        _ => whole(path),
    }
}

fn same_keys(x: &[(&str, Part)], y: &[(&str, Part)]) -> bool {
    x.len() == y.len() && x.iter().zip(y).all(|((a, _), (b, _))| a == b)
}

fn parse(s: &str) -> Part<'_> {
    let text = s.trim();
    Part {
        text,
        node: node(text),
    }
}

fn node(s: &str) -> Node<'_> {
    if let Some(inner) = wrapped(s, '[', ']').or_else(|| wrapped(s, '(', ')')) {
        return Node::Seq(split(inner).into_iter().map(parse).collect());
    }
    if let Some(inner) = wrapped(s, '{', '}')
        && let Some(entries) = pairs(inner, ": ")
    {
        return Node::Map(entries);
    }
    // `<Item: name="a", n=2>`: a local's own fields.
    if let Some(inner) = wrapped(s, '<', '>')
        && let Some((name, rest)) = inner.split_once(": ")
        && is_name(name)
        && let Some(fields) = pairs(rest, "=")
    {
        return Node::Fields(name, fields);
    }
    // `Item {name: "a"}`: a nested object's fields.
    if let Some(open) = s.find(" {")
        && is_name(&s[..open])
        && let Some(inner) = wrapped(&s[open + 1..], '{', '}')
        && let Some(fields) = pairs(inner, ": ")
    {
        return Node::Fields(&s[..open], fields);
    }
    if let Some(open) = s.find('(')
        && open > 0
        && is_name(&s[..open])
        && let Some(inner) = wrapped(&s[open..], '(', ')')
    {
        return Node::Variant(&s[..open], split(inner).into_iter().map(parse).collect());
    }
    Node::Leaf
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '<' | '>' | '*'))
}

/// Each part as `key SEP value`, or None where one is not.
fn pairs<'a>(inner: &'a str, sep: &str) -> Option<Vec<(&'a str, Part<'a>)>> {
    split(inner)
        .into_iter()
        .map(|part| {
            let at = top_level_find(part, sep)?;
            Some((part[..at].trim(), parse(&part[at + sep.len()..])))
        })
        .collect()
}

/// `s` without its brackets, where the first opens and the last closes it.
fn wrapped(s: &str, open: char, close: char) -> Option<&str> {
    if !s.starts_with(open) || !s.ends_with(close) || s.len() < 2 {
        return None;
    }
    let end = matching(s)?;
    (end == s.len() - close.len_utf8()).then(|| &s[1..end])
}

/// Where the bracket opening `s` closes, quotes skipped.
fn matching(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if let Some(q) = quote {
            match (escaped, c) {
                (false, '\\') => escaped = true,
                (false, c) if c == q => quote = None,
                _ => escaped = false,
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '[' | '(' | '{' | '<' => depth += 1,
            ']' | ')' | '}' | '>' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The parts of a container's inside, split at its own commas.
fn split(inner: &str) -> Vec<&str> {
    if inner.trim().is_empty() {
        return vec![];
    }
    let mut parts = vec![];
    let mut from = 0;
    while let Some(at) = top_level_find(&inner[from..], ",") {
        parts.push(inner[from..from + at].trim());
        from += at + 1;
    }
    parts.push(inner[from..].trim());
    parts
}

/// The first `sep` in `s` outside brackets and quotes.
fn top_level_find(s: &str, sep: &str) -> Option<usize> {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if let Some(q) = quote {
            match (escaped, c) {
                (false, '\\') => escaped = true,
                (false, c) if c == q => quote = None,
                _ => escaped = false,
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '[' | '(' | '{' | '<' => depth += 1,
            ']' | ')' | '}' | '>' => depth -= 1,
            _ if depth == 0 && s[i..].starts_with(sep) => return Some(i),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::first_change;

    fn change(name: &str, a: &str, b: &str) -> String {
        let (p, x, y) = first_change(name, a, b).expect("a change");
        format!("{p}: {x} → {y}")
    }

    #[test]
    fn a_change_inside_a_container_is_named_by_its_path() {
        assert_eq!(
            change("parts", r#"["a", "b", ""]"#, r#"["a", "b", "167"]"#),
            r#"parts[2]: "" → "167""#
        );
        assert_eq!(
            change("m", r#"{"k": [1, 2], "z": 3}"#, r#"{"k": [1, 5], "z": 3}"#),
            r#"m["k"][1]: 2 → 5"#
        );
        assert_eq!(
            change(
                "it",
                r#"<Item: name="a, b", n=2>"#,
                r#"<Item: name="a, b", n=3>"#
            ),
            "it.n: 2 → 3"
        );
        assert_eq!(
            change("o", "Some(Item {n: 1})", "Some(Item {n: 4})"),
            "o.0.n: 1 → 4"
        );
        // Not alike in shape: the whole value.
        assert_eq!(
            change("xs", "[1, 2]", "[1, 2, 3]"),
            "xs: [1, 2] → [1, 2, 3]"
        );
        assert_eq!(change("n", "4", "5"), "n: 4 → 5");
        assert!(first_change("n", "4", "4").is_none());
    }
}
