//! delve's value texts, which name their type first:
//! `main.Item {Name: "a", Price: 1}`, `[]int len: 3, cap: 3, [1,2,3]`,
//! `map[string]int ["a": 1, ]`, `*main.Item nil`, `(*main.Item)(0xc000..)`,
//! `main.Shape(*main.Circle) *{R: 1.5}`, read into the neutral value tree.

use crate::adapters::value::literal::{balanced_inner, split_top};
use crate::adapters::value::{Count, Value, short_type, text_value};

/// A value text split into its parts.
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
    /// A pointer written as `*` and its target's text, inside a container
    /// whose type names the target's (`*{ID: 1}`, `*nil`, `*(*T)(0x..)`).
    Pointer {
        target: &'a str,
    },
    /// An interface and the dynamic type and value it holds:
    /// `main.Shape(*main.Circle) *{R: 1.5}`, `interface {}(int) 5`.
    Interface {
        dynamic: &'a str,
        data: &'a str,
    },
}

/// Reads a typed value text; None for anything else (every Python repr).
pub fn parse_typed(s: &str) -> Option<Typed<'_>> {
    let s = s.trim();
    if let Some(t) = interface(s) {
        return Some(t);
    }
    let typed = parse_named(s);
    // Not `*main.Item {..}`, whose type is a pointer's: `*` and a target.
    match s.strip_prefix('*') {
        Some(target) if typed.is_none() && !target.trim().is_empty() => Some(Typed::Pointer {
            target: target.trim(),
        }),
        _ => typed,
    }
}

/// `main.Shape(*main.Circle) *{R: 1.5}`: the dynamic type in brackets
/// after the interface's own, then the value it holds.
fn interface(s: &str) -> Option<Typed<'_>> {
    let rest = match s.strip_prefix(ANY) {
        Some(rest) => rest,
        None => {
            let open = s.find('(')?;
            is_type_token(&s[..open]).then_some(())?;
            &s[open..]
        }
    };
    if rest == " nil" {
        return Some(Typed::Nil);
    }
    let inner = rest.strip_prefix('(')?;
    let mut depth = 1;
    let close = inner.char_indices().find_map(|(i, c)| {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        (depth == 0).then_some(i)
    })?;
    let dynamic = &inner[..close];
    let data = inner[close + 1..].strip_prefix(' ')?;
    is_type_token(dynamic).then_some(())?;
    Some(Typed::Interface {
        dynamic,
        data: data.trim(),
    })
}

/// A text that starts with its type (or is a struct literal without one).
fn parse_named(s: &str) -> Option<Typed<'_>> {
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

/// The empty interface, the one type whose name holds a space.
const ANY: &str = "interface {}";

fn is_type_token(t: &str) -> bool {
    !t.is_empty()
        && t.replace(ANY, "any")
            .chars()
            .all(|c| c.is_alphanumeric() || "_.*[]/".contains(c))
}

/// Where a leading type such as `map[string][]main.Item` ends.
fn type_token_end(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        if s[i..].starts_with(ANY) {
            chars.nth(ANY.len() - 2);
            continue;
        }
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

/// The value a delve text reads as; None for a text that names no type
/// (a number, a string).
pub fn value(text: &str, hint: &str) -> Option<Value> {
    parse_typed(text).map(|t| from_typed(&t, hint))
}

/// A Go type as the person reads it: `Item` for `main.Item` and
/// `*main.Item`, `[]Item` for `[]main.Item`.
fn type_name(t: &str, hint: &str) -> String {
    let t = if t.is_empty() { hint } else { t };
    short_type(t.trim_start_matches('*'))
}

fn from_typed(typed: &Typed, hint: &str) -> Value {
    match typed {
        Typed::Nil => Value::nil("nil"),
        Typed::Unloaded { type_name: t } => Value::unread_object(type_name(t, "")),
        Typed::Pointer { target } => match (hint.strip_prefix('*'), parse_typed(target)) {
            // `*(*main.Shape)(0x..)` is also how delve writes an interface
            // it did not load; where the type says so, it is one.
            (None, Some(Typed::Unloaded { .. })) if !hint.is_empty() => {
                Value::unread_object(type_name(hint, ""))
            }
            (target_type, _) => pointer(target, target_type.unwrap_or(hint)),
        },
        // What the interface holds is what the person reads; a pointer
        // delve left unread there is known by its type.
        Typed::Interface { dynamic, data } => match dynamic.strip_prefix('*') {
            Some(target) if is_address(data) => Value::Pointer {
                target: Box::new(Value::unread_object(type_name(target, ""))),
            },
            Some(target) => match *data {
                // Not a nil interface (`err != nil` holds): Go's own
                // spelling of a typed nil says so.
                "nil" => Value::nil(format!("(*{})(nil)", type_name(target, ""))),
                "..." => Value::Pointer {
                    target: Box::new(Value::unread_object(type_name(target, ""))),
                },
                _ => match data.strip_prefix('*') {
                    Some(inner) => pointer(inner, target),
                    None => item(data, dynamic),
                },
            },
            None => item(data, dynamic),
        },
        Typed::Struct {
            type_name: t,
            fields,
            more,
        } => {
            let object = Value::Object {
                type_name: type_name(t, hint),
                fields: fields
                    .iter()
                    .map(|(k, v)| (k.to_string(), item(v, "")))
                    .collect(),
                more: *more > 0,
            };
            // In an interface's place the pointer is part of what it holds.
            if t.starts_with('*') {
                Value::Pointer {
                    target: Box::new(object),
                }
            } else {
                object
            }
        }
        Typed::List {
            type_name: t,
            len,
            items,
            more,
        } => {
            let t = if t.is_empty() { hint } else { t };
            let count = Count::Exact(len.unwrap_or(items.len() + more));
            let element = element_type(t);
            if t.trim_start_matches('*').starts_with("map[") {
                let entries = items
                    .iter()
                    .map(|i| match i.split_once(": ") {
                        Some((k, v)) => (item(k, ""), item(v, element)),
                        None => (item(i, ""), Value::atom("")),
                    })
                    .collect();
                return Value::Map {
                    type_name: type_name(t, ""),
                    entries,
                    count,
                };
            }
            Value::Seq {
                type_name: type_name(t, ""),
                open: '[',
                close: ']',
                items: items.iter().map(|i| item(i, element)).collect(),
                count,
            }
        }
    }
}

/// What a pointer to `target_type` points to: `nil` for none.
fn pointer(target: &str, target_type: &str) -> Value {
    match target {
        "nil" => Value::nil("nil"),
        _ => Value::Pointer {
            target: Box::new(item(target, target_type)),
        },
    }
}

/// `0xc000012345`: all delve could say of a value it did not load.
fn is_address(text: &str) -> bool {
    text.strip_prefix("0x")
        .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
}

/// One part of a typed value: typed values recursively, strings unquoted.
fn item(text: &str, hint: &str) -> Value {
    let text = text.trim();
    if let Some(v) = value(text, hint) {
        return v;
    }
    // delve's `...` is an interface holding a pointer it did not load: an
    // item of the container's type, not an elision.
    if text == "..." && !hint.is_empty() {
        return Value::unread_object(type_name(hint, ""));
    }
    if text == "nil" {
        return Value::nil("nil");
    }
    text_value(text, false, None).unwrap_or_else(|| Value::atom(text))
}

/// `main.Item` for `[]main.Item`, `[3]main.Item` or `map[string]main.Item`.
pub fn element_type(t: &str) -> &str {
    let t = t.trim_start_matches('*');
    if let Some(rest) = t.strip_prefix("map[") {
        let mut depth = 1;
        for (i, c) in rest.char_indices() {
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        return &rest[i + 1..];
                    }
                }
                _ => {}
            }
        }
        return "";
    }
    if t.starts_with('[') {
        return t.find(']').map(|i| &t[i + 1..]).unwrap_or("");
    }
    ""
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn delve_texts_become_values() {
        use crate::adapters::value::testing::text;
        assert_eq!(
            value("main.Item {ID: 1, Name: \"hammer\"}", "").unwrap(),
            Value::Object {
                type_name: "Item".into(),
                fields: vec![
                    ("ID".into(), Value::atom("1")),
                    ("Name".into(), text("hammer"))
                ],
                more: false
            }
        );
        let shapes = value(
            "[]main.Shape len: 2, cap: 2, [main.Rect {W: 2, H: 3},*main.Circle {R: 1.5}]",
            "",
        )
        .unwrap();
        let Value::Seq { items, count, .. } = shapes else {
            panic!("a slice");
        };
        assert_eq!(count, Count::Exact(2));
        assert!(
            matches!(&items[1], Value::Pointer { target } if matches!(**target, Value::Object { ref type_name, .. } if type_name == "Circle"))
        );
        assert_eq!(
            value("map[string]int [\"food\": -325, ]", "").unwrap(),
            Value::Map {
                type_name: "map[string]int".into(),
                entries: vec![(text("food"), Value::atom("-325"))],
                count: Count::Exact(1)
            }
        );
        assert_eq!(value("*main.Item nil", "").unwrap(), Value::nil("nil"));
        assert_eq!(
            value("[]int len: 0, cap: 0, []", "").unwrap(),
            Value::Seq {
                type_name: "[]int".into(),
                open: '[',
                close: ']',
                items: vec![],
                count: Count::Exact(0)
            }
        );
        assert_eq!(value("42", ""), None);
    }

    #[test]
    fn pointers_and_interfaces_read_as_what_they_hold() {
        use crate::adapters::value::testing::text;
        let item = |id: &str| Value::Object {
            type_name: "Item".into(),
            fields: vec![("ID".into(), Value::atom(id))],
            more: false,
        };
        let to = |v: Value| Value::Pointer {
            target: Box::new(v),
        };
        let Some(Value::Seq { items, .. }) = value(
            "[]*main.Item len: 3, cap: 3, [*{ID: 1},*nil,*(*main.Item)(0xc000010018)]",
            "",
        ) else {
            panic!("a slice");
        };
        assert_eq!(
            items,
            vec![
                to(item("1")),
                Value::nil("nil"),
                to(Value::unread_object("Item"))
            ]
        );
        assert_eq!(
            value("main.Shape(*main.Circle) *{R: 1.5}", "").unwrap(),
            to(Value::Object {
                type_name: "Circle".into(),
                fields: vec![("R".into(), Value::atom("1.5"))],
                more: false
            })
        );
        assert_eq!(
            value("interface {}(*main.Item) *{ID: 2}", "").unwrap(),
            to(item("2"))
        );
        assert_eq!(
            value("main.Shape(main.Item) {ID: 3}", "").unwrap(),
            item("3")
        );
        assert_eq!(value("interface {}(string) \"x\"", "").unwrap(), text("x"));
        assert_eq!(value("interface {}(int) 5", "").unwrap(), Value::atom("5"));
        assert_eq!(value("interface {} nil", "").unwrap(), Value::nil("nil"));
        assert_eq!(value("error nil", "").unwrap(), Value::nil("nil"));
        assert_eq!(
            value("main.Shape(*main.Circle) nil", "").unwrap(),
            Value::nil("(*Circle)(nil)")
        );
        // An interface delve did not load, in a slice of them, is no pointer.
        let Some(Value::Seq { items, .. }) = value(
            "[]interface {} len: 1, cap: 1, [*(*interface {})(0xc000010018)]",
            "",
        ) else {
            panic!("a slice");
        };
        assert_eq!(items, vec![Value::unread_object("interface {}")]);
        let Some(Value::Seq { items, .. }) = value("[]main.Shape len: 2, cap: 2, [...,nil]", "")
        else {
            panic!("a slice");
        };
        assert_eq!(
            items,
            vec![Value::unread_object("Shape"), Value::nil("nil")]
        );
    }
}
