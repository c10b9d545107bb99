//! What C, C++ and Rust mean to the engine under gdb. gdb sends a struct,
//! a tuple and an enum as an empty value with children, and an enum's one
//! child is its variant (`Some` → `__0 = "yes"`): their text is composed
//! here from the parts, in Rust's own spelling (`Some("yes")`, `None`,
//! `Cat::Food { perishable: true, days: 6 }`).

use crate::adapters::language::{Language, Part, PartsRead, c_like_path, split_path};
use crate::adapters::native_code::{frame_name, is_runtime_frame, panic_message, parameters};
use crate::adapters::value::{Raw, Value};

use super::rust_tree::is_reference;

pub struct GdbNative;

/// Enums whose variants Rust's prelude names bare (`Some`, `Ok`).
pub(super) const PRELUDE_ENUMS: &[&str] = &["Option", "Result"];

impl Language for GdbNative {
    /// C's null pointer as lldb and gdb print it, Rust's `None`.
    fn plain_words(&self) -> &'static [&'static str] {
        crate::adapters::native_code::PLAIN_WORDS
    }

    fn opens_function(&self, line: &str) -> bool {
        crate::adapters::native_code::opens_rust_function(line)
    }

    fn parameters(&self, lines: &[String], function: &str, line: u64) -> Option<Vec<String>> {
        parameters(lines, function, line)
    }

    fn side_effect(&self, expression: &str) -> Option<String> {
        crate::adapters::native_pure_calls::side_effect(expression)
    }

    fn path_expression(&self, path: &str) -> Option<String> {
        c_like_path(&split_path(path))
    }

    /// An empty value (a struct, a tuple, an enum), rustc's printers'
    /// `Vec(size=3)` and a pointer say nothing of what they hold.
    fn needs_children(&self, value: &str, truncated: bool) -> bool {
        let v = value.trim();
        truncated || v.is_empty() || is_sized(v) || is_live_pointer(v)
    }

    /// A reference inside a value (`Some(&Item)`) is composed too: it
    /// reads as what it points at, never as an address.
    fn composes_from_parts(&self, value: &str, type_name: &str) -> bool {
        (value.is_empty() && !is_std_internal(type_name))
            || (is_reference(type_name) && is_live_pointer(value.trim()))
    }

    /// A standard-library type with no printer of its own (a slice's
    /// `Iter`, a `PhantomData`) is its library's internals: worth a read
    /// when asked for, not in every stop's preview, so it reads as its type.
    fn value_text(&self, value: String, type_name: &str) -> String {
        if value.is_empty() && is_std_internal(type_name) {
            return type_name.to_string();
        }
        value
    }

    /// rustc's printers say an empty collection is `Vec(size=0)`: it is
    /// `[]` (or `{}` for a map), not a struct named `Vec`.
    fn value(&self, raw: &dyn Raw) -> Value {
        if sized(raw.text().trim()) == Some(0) && raw.children().is_none_or(|c| c.is_empty()) {
            let t = raw.type_name();
            let short = last_segment(t.split('<').next().unwrap_or(t));
            if short.ends_with("Map") || super::libstdcxx::is_map(t) {
                return Value::Map {
                    type_name: t.to_string(),
                    entries: vec![],
                    count: crate::adapters::value::Count::Exact(0),
                };
            }
            return Value::Seq {
                type_name: t.to_string(),
                open: '[',
                close: ']',
                items: vec![],
                count: crate::adapters::value::Count::Exact(0),
            };
        }
        crate::adapters::literal_value(raw, None, &|c| crate::adapters::value::child_value(c, self))
    }

    /// gdb names a Rust reference `*mut T`; the type claims no kind it
    /// did not read.
    fn type_text(&self, type_name: String) -> String {
        super::pointer_kind::type_text(type_name)
    }

    fn parts_read(&self, expression: &str) -> Option<PartsRead> {
        super::parts::parts_read(expression)
    }

    fn parts_read_first(&self, expression: &str) -> bool {
        super::parts::parts_read_first(expression)
    }

    fn exact_count(&self, value: &str, type_name: &str) -> Option<usize> {
        super::parts::exact_count(value, type_name)
    }

    fn entries(
        &self,
        container_type: &str,
        children: &[(&str, &str)],
    ) -> Option<Vec<(String, usize)>> {
        if super::libstdcxx::is_map(container_type) {
            return super::libstdcxx::entries(children);
        }
        super::parts::entries(children)
    }

    fn child_type(&self, container_type: &str, child_type: &str) -> Option<(String, bool)> {
        super::children::child_type(container_type, child_type)
    }

    fn child_name(&self, name: &str) -> Option<String> {
        is_position(name).then(|| name.trim_start_matches('_').to_string())
    }

    fn opens_through(&self, container_type: &str, name: &str, child_type: &str) -> bool {
        super::children::opens_through(container_type, name, child_type)
    }

    fn composed_tree(&self, raw: &dyn Raw) -> Option<Value> {
        super::rust_tree::composed_tree(self, raw)
    }

    fn composed_value(&self, value: &str, type_name: &str, parts: &[Part<'_>]) -> Option<String> {
        let entries = || match super::libstdcxx::is_map(type_name) {
            true => {
                let named: Vec<(&str, Option<&str>)> =
                    parts.iter().map(|p| (p.name, p.value)).collect();
                super::libstdcxx::entry_texts(&named)
            }
            false => map_entries(parts),
        };
        if let Some(size) = sized(value)
            && let Some(entries) = entries()
        {
            let more = if entries.len() < size { ", …" } else { "" };
            return Some(format!("{{{}{more}}}", entries.join(", ")));
        }
        if !value.is_empty() {
            // A reference (gdb says `*mut` for `&` too) reads as what it
            // points at, as Rust's `{:?}` shows it.
            return match parts {
                [target] if target.name == "value" && is_live_pointer(value) => {
                    target.value.map(str::to_string)
                }
                _ => None,
            };
        }
        if let [variant] = parts
            && variant.type_name == format!("{type_name}::{}", variant.name)
        {
            let shown = variant.value.unwrap_or(variant.name);
            let enum_name = last_segment(type_name);
            return Some(if PRELUDE_ENUMS.contains(&enum_name.as_str()) {
                shown.to_string()
            } else {
                format!("{enum_name}::{shown}")
            });
        }
        Some(struct_text(&last_segment(type_name), parts))
    }

    /// gdb's messages are one line already, without a prefix.
    fn evaluation_error(&self, message: &str) -> String {
        message
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or(message)
            .to_string()
    }

    /// A condition that does not parse (C's `A syntax error in expression,
    /// near ...`, Rust's `unexpected token`); a name unknown in this frame
    /// may be known where the breakpoint is, so it is not one.
    fn expression_error(&self, message: &str) -> Option<String> {
        const PARSE: &[&str] = &["syntax error", "unexpected token", "unexpected end"];
        let line = self.evaluation_error(message);
        let lower = line.to_lowercase();
        PARSE.iter().any(|p| lower.contains(p)).then_some(line)
    }

    /// A signal as `info program` tells it: `It stopped with signal
    /// SIGABRT, Aborted.` is `SIGABRT` and `Aborted`; other text names no
    /// signal, so neither part is read from it.
    fn exception_parts(&self, _id: &str, description: &str) -> (String, String) {
        signal_parts(description).unwrap_or_default()
    }

    fn frame_name(&self, raw: &str) -> String {
        frame_name(raw)
    }

    fn exception_message(&self, output_tail: &str) -> Option<String> {
        panic_message(output_tail)
    }

    fn is_runtime_frame(&self, name: &str, file: Option<&str>) -> bool {
        is_runtime_frame(name, file)
    }
}

fn signal_parts(info_program: &str) -> Option<(String, String)> {
    let said = info_program
        .lines()
        .find_map(|l| l.trim().strip_prefix("It stopped with signal "))?;
    let said = said.strip_suffix('.').unwrap_or(said);
    let (name, meaning) = said.split_once(", ").unwrap_or((said, ""));
    Some((name.to_string(), meaning.to_string()))
}

/// A type of Rust's standard library other than its prelude enums and
/// their variants.
pub(super) fn is_std_internal(type_name: &str) -> bool {
    ["core::", "alloc::", "std::"]
        .iter()
        .any(|p| type_name.starts_with(p))
        && !without_generics(type_name)
            .split("::")
            .any(|s| PRELUDE_ENUMS.contains(&s))
}

/// `Vec(size=3)`, `HashMap(size=1)`: a collection rustc's printers count.
fn is_sized(v: &str) -> bool {
    sized(v).is_some()
}

/// rustc's printers' `Vec(size=3)`, or libstdc++'s `std::vector of
/// length 3, capacity 3`.
pub(super) fn sized(v: &str) -> Option<usize> {
    let rust = || v.strip_suffix(')')?.split_once("(size=")?.1.parse().ok();
    rust().or_else(|| super::libstdcxx::sized(v))
}

/// A map's parts, as rustc's printers give them (`key0`, `val0`, `key1`..),
/// as `k: v` entries; None when the parts are not such pairs or one is
/// not read.
fn map_entries(parts: &[Part<'_>]) -> Option<Vec<String>> {
    if parts.is_empty() || !parts.len().is_multiple_of(2) {
        return None;
    }
    parts
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let (k, v) = (pair[0], pair[1]);
            (k.name == format!("key{i}") && v.name == format!("val{i}"))
                .then(|| Some(format!("{}: {}", k.value?, v.value?)))
                .flatten()
        })
        .collect()
}

fn is_live_pointer(v: &str) -> bool {
    v.strip_prefix("0x")
        .is_some_and(|h| h.chars().all(|c| c.is_ascii_hexdigit()) && h.chars().any(|c| c != '0'))
}

/// `Item { id: 7, name: "hammer" }`, `Pair(1, 5)`, `(1, 5)` or `Tool`; a
/// part not read shows as `…`.
fn struct_text(name: &str, parts: &[Part<'_>]) -> String {
    if parts.is_empty() {
        return name.to_string();
    }
    let text = |p: &Part<'_>| p.value.unwrap_or("…").to_string();
    if parts.iter().all(|p| is_position(p.name)) {
        let items: Vec<String> = parts.iter().map(text).collect();
        return format!("{name}({})", items.join(", "));
    }
    let fields: Vec<String> = parts
        .iter()
        .map(|p| format!("{}: {}", p.name, text(p)))
        .collect();
    format!("{name} {{ {} }}", fields.join(", "))
}

/// `__0`: gdb's name for a tuple's field.
pub(super) fn is_position(name: &str) -> bool {
    name.strip_prefix("__")
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// `core::option::Option<main::Item>::Some` → `Some`; `main::Cat` → `Cat`;
/// a tuple type has no name.
pub(super) fn last_segment(type_name: &str) -> String {
    let plain = without_generics(type_name);
    if plain.starts_with('(') {
        return String::new();
    }
    plain.rsplit("::").next().unwrap_or("").trim().to_string()
}

/// `core::option::Option<main::Item>::Some` → `core::option::Option::Some`.
fn without_generics(type_name: &str) -> String {
    let mut plain = String::new();
    let mut depth = 0;
    for c in type_name.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    plain
}

#[cfg(test)]
mod tests {

    #[test]
    fn an_empty_collection_reads_as_empty_brackets() {
        use crate::adapters::value::testing::var;
        use crate::adapters::value::{Count, Value};
        let empty = var(
            "empty",
            "alloc::vec::Vec<u8, alloc::alloc::Global>",
            "Vec(size=0)",
        );
        assert!(matches!(
            GdbNative.value(&empty),
            Value::Seq { open: '[', count: Count::Exact(0), ref items, .. } if items.is_empty()
        ));
        let map = var(
            "m",
            "std::collections::hash::map::HashMap<u8, u8, std::hash::random::RandomState>",
            "HashMap(size=0)",
        );
        assert!(
            matches!(GdbNative.value(&map), Value::Map { ref entries, .. } if entries.is_empty())
        );
    }
    use super::*;

    fn part<'a>(name: &'a str, value: Option<&'a str>, type_name: &'a str) -> Part<'a> {
        Part {
            name,
            value,
            type_name,
        }
    }

    #[test]
    fn enums_read_as_their_variant() {
        let g = GdbNative;
        let opt = "core::option::Option<&str>";
        let some = g
            .composed_value(
                "",
                &format!("{opt}::Some"),
                &[part("__0", Some("\"yes\""), "&str")],
            )
            .unwrap();
        assert_eq!(some, "Some(\"yes\")");
        let whole = g
            .composed_value(
                "",
                opt,
                &[part("Some", Some(&some), &format!("{opt}::Some"))],
            )
            .unwrap();
        assert_eq!(whole, "Some(\"yes\")");
        let none = g.composed_value("", &format!("{opt}::None"), &[]).unwrap();
        let whole = g
            .composed_value(
                "",
                opt,
                &[part("None", Some(&none), &format!("{opt}::None"))],
            )
            .unwrap();
        assert_eq!(whole, "None");
        let food = g
            .composed_value(
                "",
                "main::Cat::Food",
                &[
                    part("perishable", Some("true"), "bool"),
                    part("days", Some("6"), "u32"),
                ],
            )
            .unwrap();
        let whole = g
            .composed_value(
                "",
                "main::Cat",
                &[part("Food", Some(&food), "main::Cat::Food")],
            )
            .unwrap();
        assert_eq!(whole, "Cat::Food { perishable: true, days: 6 }");
        // A struct with one field is no enum.
        let s = g
            .composed_value("", "main::Wrap", &[part("inner", None, "main::Item")])
            .unwrap();
        assert_eq!(s, "Wrap { inner: … }");
        let map = g.composed_value(
            "HashMap(size=2)",
            "std::collections::hash::map::HashMap<&str, u32>",
            &[
                part("key0", Some("\"widget\""), "&str"),
                part("val0", Some("3"), "u32"),
            ],
        );
        assert_eq!(map.as_deref(), Some("{\"widget\": 3, …}"));
        assert!(is_std_internal("core::slice::iter::Iter<main::Item>"));
        assert!(!is_std_internal("core::option::Option<&str>::Some"));
        assert_eq!(
            g.composed_value(
                "",
                "(u32, u8)",
                &[part("__0", Some("1"), "u32"), part("__1", Some("2"), "u8")]
            ),
            Some("(1, 2)".to_string())
        );
    }

    #[test]
    fn a_signal_is_named_from_info_program() {
        let g = GdbNative;
        let text = "\tUsing the running image of child process 7.\nProgram stopped at 0x7ffff7e3feec.\nIt stopped with signal SIGABRT, Aborted.\n";
        assert_eq!(
            g.exception_parts("", text),
            ("SIGABRT".to_string(), "Aborted".to_string())
        );
        let other = "It stopped at breakpoint 1.";
        assert_eq!(g.exception_parts("", other), (String::new(), String::new()));
    }

    #[test]
    fn what_needs_its_children() {
        let g = GdbNative;
        for v in ["", "Vec(size=2)", "0x5555555b0d60"] {
            assert!(g.needs_children(v, false), "{v}");
        }
        for v in ["\"yes\"", "2", "0x0", "true"] {
            assert!(!g.needs_children(v, false), "{v}");
        }
    }
}
