//! The value tree of a Rust value gdb sends as a shell around its parts
//! (an enum and its variant, a struct, a tuple, a map's key and value
//! pairs): the same reading as the composed text, as nodes, so an enum is a
//! variant with its payload wherever it is rendered.

use crate::adapters::Language;
use crate::adapters::value::{Count, Raw, Value, child_value};

use super::native::{PRELUDE_ENUMS, is_position, is_std_internal, last_segment};

/// The tree of `raw`, a value composed from its parts; None when its parts
/// were not read.
pub fn composed_tree(language: &dyn Language, raw: &dyn Raw) -> Option<Value> {
    let parts = raw.children()?;
    let type_name = raw.type_name();
    if let Some(map) = map_tree(language, raw, &parts) {
        return Some(map);
    }
    // A reference reads as what it points at, as Rust's `{:?}` shows it.
    if let [target] = parts.as_slice()
        && target.name() == "value"
        && is_reference(type_name)
    {
        return Some(part_value(language, *target));
    }
    if let [variant] = parts.as_slice()
        && variant.type_name() == format!("{type_name}::{}", variant.name())
    {
        let enum_name = last_segment(type_name);
        let name = if PRELUDE_ENUMS.contains(&enum_name.as_str()) {
            variant.name().to_string()
        } else {
            format!("{enum_name}::{}", variant.name())
        };
        let items = match variant.children() {
            Some(payload) => payload_items(language, &payload),
            None if variant.text().is_empty() => vec![not_read()],
            // A variant gdb printed whole.
            None => vec![part_value(language, *variant)],
        };
        return Some(Value::Variant { name, items });
    }
    // An array (`[Cat; 3]`) or a slice: its elements, in Rust's brackets.
    if type_name.starts_with('[') || type_name.starts_with("&[") {
        let items: Vec<Value> = parts.iter().map(|p| part_value(language, *p)).collect();
        let n = raw.indexed().unwrap_or(items.len()).max(items.len());
        return Some(Value::Seq {
            type_name: type_name.to_string(),
            open: '[',
            close: ']',
            count: Count::Exact(n),
            items,
        });
    }
    let name = last_segment(type_name);
    if parts.iter().all(|p| is_position(p.name())) {
        let items: Vec<Value> = parts.iter().map(|p| part_value(language, *p)).collect();
        if name.is_empty() {
            return Some(Value::Seq {
                type_name: String::new(),
                open: '(',
                close: ')',
                count: Count::Exact(items.len()),
                items,
            });
        }
        return Some(Value::Variant { name, items });
    }
    Some(Value::Object {
        type_name: type_name.to_string(),
        fields: fields(language, &parts),
        more: false,
    })
}

/// A variant's payload: its positions (`Some(3)`), its fields as one
/// unnamed struct (`Cat::Food { days: 6 }`), or nothing (`None`).
fn payload_items(language: &dyn Language, payload: &[&dyn Raw]) -> Vec<Value> {
    if payload.is_empty() {
        return vec![];
    }
    if payload.iter().all(|p| is_position(p.name())) {
        return payload.iter().map(|p| part_value(language, *p)).collect();
    }
    vec![Value::Object {
        type_name: String::new(),
        fields: fields(language, payload),
        more: false,
    }]
}

fn fields(language: &dyn Language, parts: &[&dyn Raw]) -> Vec<(String, Value)> {
    parts
        .iter()
        .map(|p| (p.name().to_string(), part_value(language, *p)))
        .collect()
}

/// rustc's printers' `key0`, `val0`, `key1`.. as a map; the composed
/// text's `…` says the printer listed fewer than the map holds.
fn map_tree(language: &dyn Language, raw: &dyn Raw, parts: &[&dyn Raw]) -> Option<Value> {
    if parts.is_empty() || !parts.len().is_multiple_of(2) {
        return None;
    }
    // rustc's printers name the parts `key0`, `val0`..; libstdc++'s, in a
    // standard map, by position (`[0]` a key, `[1]` its value).
    let cxx = super::libstdcxx::is_map(raw.type_name());
    let names = |i: usize| match cxx {
        true => (format!("[{}]", 2 * i), format!("[{}]", 2 * i + 1)),
        false => (format!("key{i}"), format!("val{i}")),
    };
    let entries = parts
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let (key, val) = names(i);
            (pair[0].name() == key && pair[1].name() == val)
                .then(|| (part_value(language, pair[0]), part_value(language, pair[1])))
        })
        .collect::<Option<Vec<_>>>()?;
    let n = entries.len();
    let count = match super::native::sized(raw.text()) {
        Some(size) if cxx => Count::Exact(size.max(n)),
        _ if raw.text().ends_with("…}") => Count::AtLeast(n),
        _ => Count::Exact(n),
    };
    Some(Value::Map {
        type_name: raw.type_name().to_string(),
        entries,
        count,
    })
}

/// A part's tree: a shell read in turn is composed again, one not read
/// says so.
fn part_value(language: &dyn Language, part: &dyn Raw) -> Value {
    // A reference inside a value (`Some(&Item)`) reads as what it points
    // at, as Rust's `{:?}` shows it, not as an address.
    if is_reference(part.type_name())
        && let Some(kids) = part.children()
        && let [target] = kids.as_slice()
        && target.name() == "value"
    {
        return part_value(language, *target);
    }
    let shell = part.text().is_empty() && !is_std_internal(part.type_name());
    match part.children() {
        Some(_) if shell => composed_tree(language, part).unwrap_or_else(not_read),
        None if shell => not_read(),
        _ => child_value(part, language),
    }
}

fn not_read() -> Value {
    Value::Unreadable {
        what: String::new(),
        why: "not read".into(),
    }
}

/// gdb names a reference's type as a pointer's (`*mut T`) or as Rust does.
pub(super) fn is_reference(type_name: &str) -> bool {
    super::pointer_kind::is_pointer(type_name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::gdb::GdbNative;
    use crate::adapters::value::testing::{TestVar, text, var};

    fn tree(v: &TestVar) -> Value {
        composed_tree(&GdbNative, v).expect("parts read")
    }

    #[test]
    fn an_array_is_a_sequence_and_a_reference_its_target() {
        let cats = var("cats", "[main::Cat; 2]", "").with(vec![
            var("0", "main::Cat", "").with(vec![var("Tool", "main::Cat::Tool", "").with(vec![])]),
            var("1", "main::Cat", "").with(vec![var("Tool", "main::Cat::Tool", "").with(vec![])]),
        ]);
        let Value::Seq {
            open, count, items, ..
        } = tree(&cats)
        else {
            panic!("a sequence")
        };
        assert_eq!((open, count, items.len()), ('[', Count::Exact(2), 2));
        assert_eq!(
            items[0],
            Value::Variant {
                name: "Cat::Tool".into(),
                items: vec![]
            }
        );
        let opt = "core::option::Option<&main::Item>";
        let target = var("value", "main::Item", "").with(vec![var("id", "u32", "2")]);
        let reference = var("__0", "&main::Item", "0x5555555afd80").with(vec![target]);
        let some = var("Some", &format!("{opt}::Some"), "").with(vec![reference]);
        let found = var("found", opt, "").with(vec![some]);
        let Value::Variant { items, .. } = tree(&found) else {
            panic!("a variant")
        };
        assert!(
            matches!(&items[..], [Value::Object { fields, .. }] if fields[0].1 == Value::atom("2")),
            "{items:?}"
        );
    }

    #[test]
    fn an_option_is_its_variant_with_its_payload() {
        let opt = "core::option::Option<main::Item>";
        let item = var("__0", "main::Item", "").with(vec![
            var("id", "u32", "1"),
            var("name", "&str", "\"hammer\""),
        ]);
        let some = var("Some", &format!("{opt}::Some"), "").with(vec![item]);
        let v = var("found", opt, "Some(Item { id: 1, name: \"hammer\" })").with(vec![some]);
        assert_eq!(
            tree(&v),
            Value::Variant {
                name: "Some".into(),
                items: vec![Value::Object {
                    type_name: "main::Item".into(),
                    fields: vec![
                        ("id".into(), Value::atom("1")),
                        ("name".into(), text("hammer"))
                    ],
                    more: false,
                }],
            }
        );
        let none = var("None", &format!("{opt}::None"), "").with(vec![]);
        let v = var("missing", opt, "None").with(vec![none]);
        assert_eq!(
            tree(&v),
            Value::Variant {
                name: "None".into(),
                items: vec![]
            }
        );
    }

    #[test]
    fn a_struct_variant_a_tuple_and_a_part_not_read() {
        let food = var("Food", "main::Cat::Food", "").with(vec![
            var("perishable", "bool", "true"),
            var("days", "u32", "6"),
        ]);
        let v = var("cat", "main::Cat", "").with(vec![food]);
        let Value::Variant { name, items } = tree(&v) else {
            panic!("a variant")
        };
        assert_eq!(name, "Cat::Food");
        assert!(
            matches!(&items[..], [Value::Object { type_name, fields, .. }] if type_name.is_empty() && fields.len() == 2)
        );
        let pair =
            var("p", "(u32, u8)", "").with(vec![var("__0", "u32", "1"), var("__1", "u8", "2")]);
        assert!(matches!(
            tree(&pair),
            Value::Seq {
                open: '(',
                count: Count::Exact(2),
                ..
            }
        ));
        let wrap = var("w", "main::Wrap", "").with(vec![var("inner", "main::Item", "")]);
        let Value::Object { fields, .. } = tree(&wrap) else {
            panic!("an object")
        };
        assert_eq!(fields[0].1, not_read());
    }

    #[test]
    fn a_map_keeps_its_entries_and_says_when_it_was_cut() {
        let m = var(
            "stock",
            "std::collections::hash::map::HashMap<&str, u32>",
            "{\"widget\": 3, …}",
        )
        .with(vec![
            var("key0", "&str", "\"widget\""),
            var("val0", "u32", "3"),
        ]);
        assert_eq!(
            tree(&m),
            Value::Map {
                type_name: "std::collections::hash::map::HashMap<&str, u32>".into(),
                entries: vec![(text("widget"), Value::atom("3"))],
                count: Count::AtLeast(1),
            }
        );
    }
}
