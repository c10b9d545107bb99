//! The safe repr of a stop's locals: two levels of nesting, 50 items per
//! container, 256 characters per repr, and `isTruncated` wherever a limit
//! cut something (a value, or anything inside it).

use futures::future::join_all;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::session::types::Var;
use crate::session::{Origin, SessionHandle, VariablesQuery};

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
    let (repr, mut truncated) = cut(&read.var.value, read.var.truncated);
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

/// Reads the top frame's locals and their containers' items, two levels
/// down, at most MAX_ITEMS of each, all the reads of a level at once.
pub async fn read_locals(s: &SessionHandle, locals: &[Var]) -> Vec<Read> {
    let mut tops: Vec<Read> = locals
        .iter()
        .filter(|v| !v.hidden)
        .map(|v| Read {
            var: v.clone(),
            children: None,
            total: 0,
        })
        .collect();
    let paths: Vec<String> = tops.iter().map(|r| r.var.name.clone()).collect();
    fill(s, &mut tops, &paths, 1).await;
    tops
}

fn fill<'a>(
    s: &'a SessionHandle,
    reads: &'a mut [Read],
    paths: &'a [String],
    depth: usize,
) -> futures::future::BoxFuture<'a, ()> {
    Box::pin(async move {
        if depth > MAX_DEPTH {
            return;
        }
        let wanted: Vec<usize> = (0..reads.len())
            .filter(|&i| reads[i].var.reference > 0 && !paths[i].is_empty())
            .collect();
        let pages = join_all(wanted.iter().map(|&i| children(s, &paths[i]))).await;
        for (&i, page) in wanted.iter().zip(pages) {
            let Some((kids, total)) = page else { continue };
            let kid_paths: Vec<String> = kids
                .iter()
                .map(|k| child_path(&paths[i], &k.name))
                .collect();
            let mut kids: Vec<Read> = kids
                .into_iter()
                .map(|var| Read {
                    var,
                    children: None,
                    total: 0,
                })
                .collect();
            fill(s, &mut kids, &kid_paths, depth + 1).await;
            reads[i].children = Some(kids);
            reads[i].total = total;
        }
    })
}

/// The path of a child, or none when its name cannot be a path segment
/// (an adapter's `[0]`): that child's items are then not read.
fn child_path(parent: &str, name: &str) -> String {
    if name.is_empty() || name.contains(['[', ']']) {
        return String::new();
    }
    format!("{parent}[{name}]")
}

/// The first MAX_ITEMS children of the value at `path`, and how many it has.
async fn children(s: &SessionHandle, path: &str) -> Option<(Vec<Var>, usize)> {
    let (vars, total) = s
        .variables(
            Origin::Rest,
            VariablesQuery {
                frame_index: 0,
                scope: None,
                path: Some(path.to_string()),
                filter: None,
                start: 0,
                count: MAX_ITEMS,
            },
        )
        .await
        .ok()?;
    let shown: Vec<Var> = vars.into_iter().filter(|v| !v.hidden).collect();
    Some((shown, total))
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
