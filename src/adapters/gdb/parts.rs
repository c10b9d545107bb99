//! Rust readings gdb cannot evaluate, answered from the values' parts:
//! rustc leaves out of the program each generic method no code of it
//! calls (`Vec::len` is not there to call), gdb indexes arrays and slices
//! but never a `Vec` or a map, and it places a string literal in the
//! program's memory by calling the program's allocator.

use crate::adapters::language::{PartsRead, is_ident, split_path};

/// The reading calls answered from a value's exact count.
const COUNTS: &[(&str, bool)] = &[(".len()", false), (".is_empty()", true)];

/// `items[1].name`, `stock["widget"]`, `items.len()`, `word.is_empty()`.
pub fn parts_read(expression: &str) -> Option<PartsRead> {
    let e = expression.trim();
    for (call, is_empty) in COUNTS {
        if let Some(of) = e.strip_suffix(call)
            && is_path(of)
        {
            return Some(PartsRead::Count {
                of: of.to_string(),
                is_empty: *is_empty,
            });
        }
    }
    (is_path(e) && e.contains('[')).then(|| PartsRead::Path(split_path(e)))
}

/// A string key never goes to gdb: it would run the program's allocator.
pub fn parts_read_first(expression: &str) -> bool {
    expression.contains('"') && parts_read(expression).is_some()
}

/// A local followed by fields (`.name`, `.0`), indexes (`[1]`) and string
/// keys without escapes (`["widget"]`).
fn is_path(s: &str) -> bool {
    let s = s.trim();
    let head_end = s.find(['.', '[']).unwrap_or(s.len());
    if !is_ident(&s[..head_end]) {
        return false;
    }
    let mut rest = &s[head_end..];
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            let field = &r[..end];
            let position = !field.is_empty() && field.chars().all(|c| c.is_ascii_digit());
            if !(is_ident(field) || position) {
                return false;
            }
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix('[') {
            let Some(end) = r.find(']') else {
                return false;
            };
            let inner = &r[..end];
            let index = !inner.is_empty() && inner.chars().all(|c| c.is_ascii_digit());
            if !(index || is_string_key(inner)) {
                return false;
            }
            rest = &r[end + 1..];
        } else {
            return false;
        }
    }
    true
}

fn is_string_key(s: &str) -> bool {
    s.len() >= 2
        && s.starts_with('"')
        && s.ends_with('"')
        && !s[1..s.len() - 1].contains(['"', '\\'])
}

/// rustc's printers count a collection exactly (`Vec(size=3)`,
/// `HashMap(size=1)`, `&[main::Item](size=2)`); an array's type holds its
/// length; a string's length in bytes is its text's, where gdb printed it
/// whole and plain (no escapes, no `'a' <repeats 12 times>`, no `...`).
pub fn exact_count(value: &str, type_name: &str) -> Option<usize> {
    let v = value.trim();
    if let Some(n) = super::native::sized(v) {
        return Some(n);
    }
    if let Some(n) = type_name
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .and_then(|t| t.rsplit_once("; "))
        .and_then(|(_, n)| n.parse().ok())
    {
        return Some(n);
    }
    let string = matches!(type_name, "alloc::string::String" | "&str" | "&mut str");
    if !string || v.len() < 2 || !v.starts_with('"') || !v.ends_with('"') {
        return None;
    }
    let inner = &v[1..v.len() - 1];
    (!inner.contains(['"', '\\'])).then_some(inner.len())
}

/// rustc's printers list a map as `key0`, `val0`, `key1`..: each entry
/// reads `["widget"]`, by its key's text, holding the value's child. A
/// key whose text gdb did not give (a struct) leaves the pairs as they
/// are.
pub fn entries(children: &[(&str, &str)]) -> Option<Vec<(String, usize)>> {
    if children.is_empty() || !children.len().is_multiple_of(2) {
        return None;
    }
    children
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let ((key, text), (val, _)) = (pair[0], pair[1]);
            (key == format!("key{i}") && val == format!("val{i}") && !text.trim().is_empty())
                .then(|| (format!("[{}]", text.trim()), 2 * i + 1))
        })
        .collect()
}

/// A condition gdb runs itself, at each hit: a count it cannot call there
/// fails at every one.
pub fn condition_calls_count(condition: &str) -> Option<&'static str> {
    let squashed: String = condition.chars().filter(|c| !c.is_whitespace()).collect();
    COUNTS
        .iter()
        .map(|(call, _)| *call)
        .find(|call| squashed.contains(call))
        .map(|call| call.trim_start_matches('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_counts_are_read_from_parts() {
        assert_eq!(
            parts_read("items.len()"),
            Some(PartsRead::Count {
                of: "items".into(),
                is_empty: false
            })
        );
        assert_eq!(
            parts_read("items[1].name.is_empty()"),
            Some(PartsRead::Count {
                of: "items[1].name".into(),
                is_empty: true
            })
        );
        assert_eq!(
            parts_read("stock[\"widget\"]"),
            Some(PartsRead::Path(vec!["stock".into(), "\"widget\"".into()]))
        );
        assert_eq!(
            parts_read("items[1].name"),
            Some(PartsRead::Path(vec![
                "items".into(),
                "1".into(),
                "name".into()
            ]))
        );
        for e in [
            "items.name",
            "items[i]",
            "f(items)[0]",
            "items[1] + 1",
            "m[\"a\\\"b\"]",
            "items.len() > 2",
        ] {
            assert_eq!(parts_read(e), None, "{e}");
        }
        assert!(parts_read_first("stock[\"widget\"].len()"));
        assert!(!parts_read_first("items[1]"));
    }

    #[test]
    fn counts_are_exact_or_not_read() {
        assert_eq!(exact_count("Vec(size=3)", "alloc::vec::Vec<u8>"), Some(3));
        assert_eq!(
            exact_count(
                "HashMap(size=1)",
                "std::collections::hash::map::HashMap<u8, u8>"
            ),
            Some(1)
        );
        assert_eq!(
            exact_count("&[main::Item](size=2)", "&[main::Item]"),
            Some(2)
        );
        assert_eq!(exact_count("", "[u32; 4]"), Some(4));
        assert_eq!(exact_count("\"shop\"", "alloc::string::String"), Some(4));
        assert_eq!(exact_count("\"héllo\"", "&str"), Some(6));
        for v in [
            "\"a\\nb\"",
            "\"ab\", 'c' <repeats 12 times>, \"d\"",
            "\"abc\"...",
        ] {
            assert_eq!(exact_count(v, "&str"), None, "{v}");
        }
        assert_eq!(exact_count("\"x\"", "main::Name"), None);
    }

    #[test]
    fn map_pairs_read_as_keyed_entries() {
        assert_eq!(
            entries(&[
                ("key0", "\"widget\""),
                ("val0", "3"),
                ("key1", "\"gear\""),
                ("val1", "")
            ]),
            Some(vec![("[\"widget\"]".into(), 1), ("[\"gear\"]".into(), 3)])
        );
        assert_eq!(entries(&[("key0", ""), ("val0", "3")]), None);
        assert_eq!(entries(&[("id", "1"), ("name", "\"x\"")]), None);
    }

    #[test]
    fn a_condition_calling_a_count_is_named() {
        assert_eq!(condition_calls_count("items.len () > 2"), Some("len()"));
        assert_eq!(condition_calls_count("v.is_empty()"), Some("is_empty()"));
        assert_eq!(condition_calls_count("item.id == 42"), None);
    }
}
