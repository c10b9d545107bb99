//! The safe repr of a stop's locals, as the REST API answers them: two levels of nesting, 50 items per
//! container, 256 characters per repr, and `isTruncated` wherever a limit
//! cut something (a value, or anything inside it).

use serde::Serialize;
use serde_json::{Map, Value};

use crate::session::types::Var;

use super::tree_json::{Reach, tree_json};

pub const MAX_DEPTH: usize = 2;
pub const MAX_ITEMS: usize = 50;
pub const MAX_REPR_CHARS: usize = 256;

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct VariableValue {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(rename = "type")]
    pub type_name: String,
    pub repr: String,
    pub is_truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub children: Option<Vec<VariableValue>>,
    /// A local's value tree (kind, type, count, the items shown, what was
    /// cut), built by its language: the structure `repr` only writes out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<serde_json::Value>,
}

/// A value as read, with the children read for it and how many it has.
#[derive(Debug, Clone, Default)]
pub struct Read {
    pub var: Var,
    /// None when not read (not a container, or past the depth limit).
    pub children: Option<Vec<Read>>,
    /// How many children the value has in all.
    pub total: usize,
}

/// A repr cut to the limit, and whether it was cut.
fn cut(text: &str, already_cut: bool) -> (String, bool) {
    if text.chars().count() <= MAX_REPR_CHARS {
        return (text.to_string(), already_cut);
    }
    let kept: String = text.chars().take(MAX_REPR_CHARS - 3).collect();
    (format!("{kept}..."), true)
}

/// The safe repr of a read value at `depth` (a local is at depth 0).
pub fn value(read: &Read, depth: usize, named: bool) -> VariableValue {
    let (repr, mut truncated) = match &read.var.not_read {
        Some(reason) => (format!("<not read: {reason}>"), false),
        None => cut(&read.var.value, read.var.truncated),
    };
    let container = read.var.reference > 0;
    let children = match &read.children {
        Some(kids) if depth < MAX_DEPTH => {
            let shown: Vec<VariableValue> = kids
                .iter()
                .take(MAX_ITEMS)
                .map(|k| value(k, depth + 1, true))
                .collect();
            truncated |= read.total > shown.len() || shown.iter().any(|c| c.is_truncated);
            Some(shown)
        }
        // A container whose items lie past the depth limit, or were not read.
        _ => {
            truncated |= container;
            None
        }
    };
    VariableValue {
        name: named.then(|| index_name(&read.var.name)),
        type_name: read.var.type_name.clone(),
        repr,
        is_truncated: truncated,
        children,
        tree: (depth == 0).then(|| {
            let reach = Reach {
                items: MAX_ITEMS,
                levels: MAX_DEPTH,
            };
            tree_json(&read.var.tree(), reach)
        }),
    }
}

/// An item's name; an index some adapters zero-pad (`007`) reads as `7`.
fn index_name(name: &str) -> String {
    if name.len() > 1 && name.bytes().all(|b| b.is_ascii_digit()) {
        let trimmed = name.trim_start_matches('0');
        return if trimmed.is_empty() { "0" } else { trimmed }.to_string();
    }
    name.to_string()
}

/// The locals as the document's map of name to value.
pub fn locals(reads: &[Read]) -> Map<String, Value> {
    reads
        .iter()
        .map(|r| {
            let v = value(r, 0, false);
            (
                r.var.name.clone(),
                serde_json::to_value(v).unwrap_or(Value::Null),
            )
        })
        .collect()
}

/// Masks secrets as every agent view does, through the whole tree read.
pub fn redact(r: &mut Read, inherited: bool, taint: &super::redact::Taint) {
    let secret = inherited || super::redact::is_secret_name(&r.var.name);
    super::redact::var(&mut r.var, inherited, taint);
    if secret {
        r.children = None;
    }
    for c in r.children.iter_mut().flatten() {
        redact(c, secret, taint);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(name: &str, value: &str, reference: i64) -> Var {
        Var {
            name: name.into(),
            value: value.into(),
            type_name: "t".into(),
            reference,
            ..Default::default()
        }
    }

    fn leaf(name: &str, value: &str) -> Read {
        Read {
            var: var(name, value, 0),
            children: None,
            total: 0,
        }
    }

    #[test]
    fn a_long_repr_is_cut_to_the_limit() {
        let v = value(&leaf("s", &"x".repeat(1000)), 0, false);
        assert_eq!(v.repr.chars().count(), MAX_REPR_CHARS);
        assert!(v.is_truncated);
        let short = value(&leaf("s", "'abc'"), 0, false);
        assert_eq!(short.repr, "'abc'");
        assert!(!short.is_truncated);
    }

    #[test]
    fn a_container_shows_fifty_items_and_says_it_was_cut() {
        let kids: Vec<Read> = (0..MAX_ITEMS).map(|i| leaf(&i.to_string(), "1")).collect();
        let read = Read {
            var: var("xs", "[1, 1, ...]", 7),
            children: Some(kids),
            total: 120,
        };
        let v = value(&read, 0, false);
        assert_eq!(v.children.as_ref().unwrap().len(), MAX_ITEMS);
        assert!(v.is_truncated);
    }

    #[test]
    fn nesting_stops_at_two_levels() {
        let deep = Read {
            var: var("inner", "[[1]]", 9),
            children: None,
            total: 1,
        };
        let mid = Read {
            var: var("0", "[[[1]]]", 8),
            children: Some(vec![deep]),
            total: 1,
        };
        let top = Read {
            var: var("x", "[[[[1]]]]", 7),
            children: Some(vec![mid]),
            total: 1,
        };
        let v = value(&top, 0, false);
        let level2 = &v.children.as_ref().unwrap()[0].children.as_ref().unwrap()[0];
        assert!(level2.children.is_none());
        assert!(level2.is_truncated);
        assert!(v.is_truncated, "a cut inside shows at the top");
    }
}
