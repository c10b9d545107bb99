//! lldb's value texts for C, C++ and Rust read into the value tree: C
//! strings behind pointers or in arrays, NULL, summaries that give only a
//! size or a type's name, bytes as numbers, and formatter output that is
//! recognisably broken said to be unreadable.

use crate::adapters::value::{Count, Raw, Value, from_children, from_literal, text_value};

pub fn value(raw: &dyn Raw, child: &dyn Fn(&dyn Raw) -> Value) -> Value {
    let text = raw.text().trim();
    let t = raw.type_name();
    // `0x00005555 "origin"` is the C string the pointer points at.
    if let Some(s) = pointed_string(text) {
        return c_string(s, raw.truncated());
    }
    if is_null_pointer(t, text) {
        return Value::nil("NULL");
    }
    if text.starts_with('"') {
        return c_string(text, raw.truncated());
    }
    if let Some(n) = byte_number(t, text) {
        return Value::atom(n.to_string());
    }
    if is_rust_variant(t, text) {
        return Value::Unreadable {
            what: "enum".into(),
            why: "the adapter cannot read this variant".into(),
        };
    }
    if is_broken_summary(text) {
        return Value::Unreadable {
            what: crate::adapters::value::short_type(t),
            why: "the adapter cannot read this value".into(),
        };
    }
    // A collection summarised by its size (`size=3`).
    let size: Option<usize> = text.strip_prefix("size=").and_then(|n| n.parse().ok());
    if size == Some(0) {
        return empty(t);
    }
    if let Some(children) = raw.children() {
        if let Some(map) = pairs_map(raw, &children, child) {
            return with_size(map, size);
        }
        return with_size(from_children(raw, &children, None, child), size);
    }
    if let Some(n) = size {
        return Value::Seq {
            type_name: t.to_string(),
            open: '[',
            close: ']',
            items: vec![],
            count: Count::Exact(n),
        };
    }
    // A summary that is only the type's name says nothing more than it.
    if !text.is_empty() && text == t {
        return Value::unread_object(t);
    }
    // A C character is no string.
    if text.starts_with('\'') {
        return Value::atom(text);
    }
    from_literal(text, "", raw.truncated(), raw.length())
}

/// A std::map's or std::unordered_map's elements are pairs whose own
/// children are `first` and `second`: it reads as a map.
fn pairs_map(
    raw: &dyn Raw,
    children: &[&dyn Raw],
    child: &dyn Fn(&dyn Raw) -> Value,
) -> Option<Value> {
    let members: Vec<&dyn Raw> = children.iter().copied().filter(|c| !c.hidden()).collect();
    if members.is_empty() {
        return None;
    }
    let entries = members
        .iter()
        .map(|m| {
            let kids = m.children()?;
            let first = kids.iter().find(|k| k.name() == "first")?;
            let second = kids.iter().find(|k| k.name() == "second")?;
            Some((child(*first), child(*second)))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Value::Map {
        type_name: raw.type_name().to_string(),
        count: Count::Exact(raw.indexed().unwrap_or(entries.len()).max(entries.len())),
        entries,
    })
}

/// An empty collection: `{}` for a map, `[]` for the others.
fn empty(t: &str) -> Value {
    let short = crate::adapters::value::short_type(t);
    if short.to_ascii_lowercase().ends_with("map") {
        Value::Map {
            type_name: t.to_string(),
            entries: vec![],
            count: Count::Exact(0),
        }
    } else {
        Value::Seq {
            type_name: t.to_string(),
            open: '[',
            close: ']',
            items: vec![],
            count: Count::Exact(0),
        }
    }
}

/// A collection's count is its summary's `size=N`, however many of its
/// elements were read.
fn with_size(v: Value, size: Option<usize>) -> Value {
    match (v, size) {
        (
            Value::Seq {
                type_name,
                open,
                close,
                items,
                ..
            },
            Some(n),
        ) if n >= items.len() => Value::Seq {
            type_name,
            open,
            close,
            items,
            count: Count::Exact(n),
        },
        (
            Value::Map {
                type_name, entries, ..
            },
            Some(n),
        ) if n >= entries.len() => Value::Map {
            type_name,
            entries,
            count: Count::Exact(n),
        },
        (v, _) => v,
    }
}

/// A C string ends at its first NUL, whatever the array holds after it.
fn c_string(quoted: &str, cut: bool) -> Value {
    let (s, cut) = match quoted.find("\\0") {
        Some(i) => (format!("{}\"", &quoted[..i]), false),
        None => (quoted.to_string(), cut),
    };
    text_value(&s, cut, None).unwrap_or_else(|| Value::atom(s))
}

fn is_null_pointer(t: &str, text: &str) -> bool {
    t.trim_end().ends_with('*')
        && text
            .strip_prefix("0x")
            .is_some_and(|a| !a.is_empty() && a.chars().all(|c| c == '0'))
}

/// The quoted string after a pointer's address, as C strings show.
fn pointed_string(value: &str) -> Option<&str> {
    let rest = value.strip_prefix("0x")?;
    let (addr, s) = rest.split_once(' ')?;
    (addr.chars().all(|c| c.is_ascii_hexdigit()) && s.starts_with('"') && s.ends_with('"'))
        .then_some(s)
}

/// Rust's `u8` and `i8`, and C's `uint8_t` and `int8_t`, are numbers,
/// though lldb writes them as characters (`'\x02'`, `'A'`).
fn byte_number(t: &str, text: &str) -> Option<i64> {
    let signed = match t {
        "u8" | "uint8_t" | "std::uint8_t" => false,
        "i8" | "int8_t" | "std::int8_t" => true,
        _ => return None,
    };
    let inner = text.strip_prefix('\'')?.strip_suffix('\'')?;
    let byte: u8 = if let Some(hex) = inner.strip_prefix("\\x") {
        u8::from_str_radix(hex, 16).ok()?
    } else {
        match inner {
            "\\0" => 0,
            "\\n" => b'\n',
            "\\t" => b'\t',
            "\\r" => b'\r',
            "\\\\" => b'\\',
            "\\'" => b'\'',
            _ => {
                let mut chars = inner.chars();
                let c = chars.next()?;
                if chars.next().is_some() || !c.is_ascii() {
                    return None;
                }
                c as u8
            }
        }
    };
    Some(if signed {
        i64::from(byte as i8)
    } else {
        i64::from(byte)
    })
}

/// Rust's formatters under lldb read some enums' storage as a set of
/// unit values (`{[0]:(), [1]:()}`): no program holds that.
/// A Rust enum's variant with data, as rustc's formatters write it
/// (`Some(..)`, `Err(..)`, `Food { .. }`): lldb reads the variant a
/// niche-encoded enum holds wrongly (`None` as `Some(..)`, `Ok(3)` as
/// `Err("")`, any `Cat` as its one variant with a `String`), and nothing
/// in its answer tells a right reading from a wrong one.
fn is_rust_variant(type_name: &str, text: &str) -> bool {
    let name_len = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let (name, rest) = text.split_at(name_len);
    let rest = rest.trim_start();
    let bracketed = (rest.starts_with('(') && text.ends_with(')'))
        || (rest.starts_with('{') && text.ends_with('}'));
    type_name.contains("::") && name.starts_with(|c: char| c.is_ascii_uppercase()) && bracketed
}

fn is_broken_summary(text: &str) -> bool {
    text.starts_with("{[0]:()")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::Language;
    use crate::adapters::lldb::native::Native;
    use crate::adapters::value::testing::{text, var};

    #[test]
    fn c_and_rust_values_read_as_what_they_hold() {
        let v = |t: &str, s: &str| Native.value(&var("x", t, s));
        assert_eq!(
            v("const char *", "0x0000555555556004 \"origin\""),
            text("origin")
        );
        assert_eq!(v("char[8]", "\"ab\\0\\0zz\""), text("ab"));
        assert_eq!(v("item *", "0x0000000000000000"), Value::nil("NULL"));
        assert_eq!(v("u8", "'\\x02'"), Value::atom("2"));
        assert_eq!(v("uint8_t", "'A'"), Value::atom("65"));
        assert_eq!(v("i8", "'\\xff'"), Value::atom("-1"));
        assert_eq!(v("char", "'a'"), Value::atom("'a'"));
        assert_eq!(v("int", "42"), Value::atom("42"));
        assert_eq!(
            v("alloc::vec::Vec<u32>", "size=0"),
            Value::Seq {
                type_name: "alloc::vec::Vec<u32>".into(),
                open: '[',
                close: ']',
                items: vec![],
                count: Count::Exact(0)
            }
        );
        assert_eq!(
            v("shop::Item", "shop::Item"),
            Value::unread_object("shop::Item")
        );
        let unread = Value::Unreadable {
            what: "enum".into(),
            why: "the adapter cannot read this variant".into(),
        };
        for (t, s) in [
            ("core::option::Option<u8>", "Some(3)"),
            (
                "core::option::Option<main::Item>",
                "Some({id:0, name:\"\"})",
            ),
            (
                "core::result::Result<u32, alloc::string::String>",
                "Err(\"\")",
            ),
            ("main::Cat", "Gadget(\"\", \"\\0\")"),
            ("main::Cat", "Food {perishable: true, days: 6}"),
        ] {
            assert_eq!(v(t, s), unread, "{t} {s}");
        }
        // A C enum's name and a C++ pair's summary are read as they are.
        assert_eq!(v("color", "RED"), Value::atom("RED"));
        assert_ne!(v("std::pair<int, int>", "(first = 1, second = 2)"), unread);
        assert!(matches!(
            v("core::result::Result<i32, &str>", "{[0]:(), [1]:()}"),
            Value::Unreadable { .. }
        ));
    }

    #[test]
    fn a_map_of_pairs_and_a_vector_of_structs() {
        let pair = |i: usize, k: &str, n: &str| {
            var(
                &format!("[{i}]"),
                "std::pair<const std::string, int>",
                "std::pair<const std::string, int>",
            )
            .with(vec![
                var("first", "std::string", k),
                var("second", "int", n),
            ])
        };
        let map = var("m", "std::map<std::string, int>", "size=2").with(vec![
            pair(0, "\"food\"", "-325"),
            pair(1, "\"rent\"", "1200"),
        ]);
        assert_eq!(
            Native.value(&map),
            Value::Map {
                type_name: "std::map<std::string, int>".into(),
                entries: vec![
                    (text("food"), Value::atom("-325")),
                    (text("rent"), Value::atom("1200"))
                ],
                count: Count::Exact(2)
            }
        );
        let item = |i: usize| {
            var(&format!("[{i}]"), "Item", "Item").with(vec![var("id", "int", &i.to_string())])
        };
        let items = var("items", "std::vector<Item>", "size=5").with(vec![item(0), item(1)]);
        let Value::Seq { items, count, .. } = Native.value(&items) else {
            panic!("a sequence");
        };
        assert_eq!(count, Count::Exact(5));
        assert_eq!(
            items[1],
            Value::Object {
                type_name: "Item".into(),
                fields: vec![("id".into(), Value::atom("1"))],
                more: false
            }
        );
    }
}
