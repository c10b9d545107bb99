//! Paths to variables (`cart.items[0].price`): splitting them and finding
//! their parts among a value's children. Turning a path into an expression
//! is the language's job.

use super::types::Var;

pub use crate::adapters::split_path;

/// A key without its quotes: `'k'`, `"k"` and `k` name the same child.
fn bare(name: &str) -> &str {
    for q in ['\'', '"'] {
        if name.len() >= 2 && name.starts_with(q) && name.ends_with(q) {
            return &name[1..name.len() - 1];
        }
    }
    name
}

/// An item's index from its name: `7`, `007` or `[7]`.
fn index_of(name: &str) -> Option<usize> {
    let bare = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(name);
    bare.parse().ok()
}

/// Finds a child by a path segment, by name, quoted key or index.
pub fn find_child<'a>(children: &'a [Var], seg: &str) -> Option<&'a Var> {
    let seg = bare(seg);
    let quoted = [
        format!("'{seg}'"),
        format!("\"{seg}\""),
        format!("['{seg}']"),
        format!("[\"{seg}\"]"),
    ];
    // Some adapters zero-pad list indices ("007" in a list of 120).
    let index = seg.parse::<usize>().ok();
    children
        .iter()
        .find(|v| v.name == seg)
        .or_else(|| children.iter().find(|v| quoted.contains(&v.name)))
        .or_else(|| index.and_then(|i| children.iter().find(|v| index_of(&v.name) == Some(i))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_on_dots_and_brackets() {
        assert_eq!(split_path("cart.items[0]"), vec!["cart", "items", "0"]);
        assert_eq!(split_path("d['k'].x"), vec!["d", "'k'", "x"]);
        assert_eq!(split_path("a"), vec!["a"]);
    }

    #[test]
    fn keys_match_with_either_quotes() {
        let k = Var {
            name: "'limits'".into(),
            ..Default::default()
        };
        let kids = [k];
        for seg in ["limits", "'limits'", "\"limits\""] {
            assert!(find_child(&kids, seg).is_some(), "{seg}");
        }
        // A map's entry, named by its key as Rust indexes it.
        let entry = Var {
            name: "[\"widget\"]".into(),
            ..Default::default()
        };
        let kids = [entry];
        for seg in ["widget", "\"widget\"", "[\"widget\"]"] {
            assert!(find_child(&kids, seg).is_some(), "{seg}");
        }
    }
}
