//! A Rust value's children as Rust reads them, where gdb lists them
//! otherwise: gdb names every pointer `*mut T`, a reference too, and adds
//! a level for an enum's variant and for a pointer's target.

use super::native::{PRELUDE_ENUMS, is_position, last_segment};
use super::rust_tree::is_reference;

/// The standard library's types whose raw pointers are their internals
/// (a slice iterator's `end_or_len` is one past the end, or a count):
/// shown as addresses, never read through.
const RAW_POINTER_OWNERS: &[&str] = &[
    "core::slice::iter::",
    "core::ptr::",
    "alloc::vec::into_iter::",
];

/// `*mut main::Item` inside `Option<&main::Item>::Some` is `&main::Item`:
/// the container's type names the reference. A pointer whose kind the
/// container's type does not name keeps gdb's type.
pub fn child_type(container_type: &str, child_type: &str) -> Option<(String, bool)> {
    let target = super::pointer_kind::target(child_type)?;
    let args = generic_args(container_type);
    let kinds: Vec<&str> = ["&", "&mut ", "*mut ", "*const "]
        .into_iter()
        .filter(|k| args.iter().any(|a| a == &format!("{k}{target}")))
        .collect();
    match kinds.as_slice() {
        [k] => return Some((format!("{k}{target}"), true)),
        [] => {}
        _ => return None,
    }
    RAW_POINTER_OWNERS
        .iter()
        .any(|p| container_type.starts_with(p))
        .then(|| (child_type.to_string(), false))
}

/// The levels gdb adds: a reference's target (`value`), an enum's variant
/// (`Some` of type `Option<T>::Some`), and the one payload of `Some`, `Ok`
/// or `Err`.
pub fn opens_through(container_type: &str, name: &str, child_type: &str) -> bool {
    if name == "value" && is_reference(container_type) {
        return true;
    }
    if child_type == format!("{container_type}::{name}") {
        return true;
    }
    let variant = last_segment(container_type);
    let prelude_variant = ["Some", "Ok", "Err"].contains(&variant.as_str())
        && PRELUDE_ENUMS
            .iter()
            .any(|e| container_type.contains(&format!("::{e}<")));
    prelude_variant && (name == "0" || (is_position(name) && name == "__0"))
}

/// Every generic argument in `type_name`, nested ones too:
/// `Option<Vec<&u8>>::Some` gives `Vec<&u8>` and `&u8`.
fn generic_args(type_name: &str) -> Vec<String> {
    let mut out = vec![];
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in type_name.char_indices() {
        match c {
            '<' => {
                if depth == 0 {
                    start = i + 1;
                }
                depth += 1;
            }
            '>' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    for arg in top_level_args(&type_name[start..i]) {
                        out.extend(generic_args(arg));
                        out.push(arg.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// `&u8, Vec<u8, G>` → `&u8`, `Vec<u8, G>`.
fn top_level_args(list: &str) -> Vec<&str> {
    let mut args = vec![];
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in list.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                args.push(list[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    args.push(list[start..].trim());
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pointer_is_the_reference_its_container_names() {
        let some = "core::option::Option<&main::Item>::Some";
        assert_eq!(
            child_type(some, "*mut main::Item"),
            Some(("&main::Item".to_string(), true))
        );
        assert_eq!(
            child_type("alloc::vec::Vec<&mut u8, alloc::alloc::Global>", "*mut u8"),
            Some(("&mut u8".to_string(), true))
        );
        // Nothing names it: gdb's type stands.
        assert_eq!(child_type("main::Holder", "*mut main::Item"), None);
        assert_eq!(child_type(some, "u32"), None);
        // A slice iterator's end is an address, not an Item.
        assert_eq!(
            child_type("core::slice::iter::Iter<main::Item>", "*mut main::Item"),
            Some(("*mut main::Item".to_string(), false))
        );
    }

    #[test]
    fn generic_arguments_are_found_at_every_depth() {
        assert_eq!(
            generic_args("core::option::Option<alloc::vec::Vec<&u8, G>>::Some"),
            vec!["&u8", "G", "alloc::vec::Vec<&u8, G>"]
        );
    }

    #[test]
    fn a_variant_and_a_target_are_opened_through() {
        let opt = "core::option::Option<&main::Item>";
        assert!(opens_through(opt, "Some", &format!("{opt}::Some")));
        assert!(opens_through(&format!("{opt}::Some"), "0", "&main::Item"));
        assert!(opens_through("&main::Item", "value", "main::Item"));
        assert!(!opens_through("main::Wrap", "value", "u32"));
        assert!(!opens_through("main::Cat::Gadget", "0", "main::Item"));
    }
}
