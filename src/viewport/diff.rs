//! What changed in a value between two stops, compared on the value trees
//! (not on their previews): a change deep in a container is a change, and
//! is named by its path (`parts[6]`).

use crate::adapters::value::{Count, Value};

/// A change inside a variable: where, and the value before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct Change<'a> {
    pub path: String,
    pub before: &'a Value,
    pub now: &'a Value,
}

/// The changes between `before` and `now` of the variable `name`, the
/// deepest places that differ first found, at most `max` of them. Empty
/// when the values are the same.
pub fn changes<'a>(name: &str, before: &'a Value, now: &'a Value, max: usize) -> Vec<Change<'a>> {
    let mut out = vec![];
    walk(name.to_string(), before, now, max, &mut out);
    out
}

fn walk<'a>(
    path: String,
    before: &'a Value,
    now: &'a Value,
    max: usize,
    out: &mut Vec<Change<'a>>,
) {
    if out.len() >= max || before == now {
        return;
    }
    let start = out.len();
    match (before, now) {
        (
            Value::Seq {
                items: a,
                count: ca,
                ..
            },
            Value::Seq {
                items: b,
                count: cb,
                ..
            },
        ) if same_size(*ca, *cb) && a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                walk(format!("{path}[{i}]"), x, y, max, out);
            }
        }
        (
            Value::Map {
                entries: a,
                count: ca,
                ..
            },
            Value::Map {
                entries: b,
                count: cb,
                ..
            },
        ) if same_size(*ca, *cb)
            && a.len() == b.len()
            && a.iter().zip(b).all(|((k1, _), (k2, _))| k1 == k2) =>
        {
            for ((k, x), (_, y)) in a.iter().zip(b) {
                walk(format!("{path}[{}]", key_text(k)), x, y, max, out);
            }
        }
        (
            Value::Object {
                type_name: ta,
                fields: a,
                ..
            },
            Value::Object {
                type_name: tb,
                fields: b,
                ..
            },
        ) if ta == tb
            && a.len() == b.len()
            && a.iter().zip(b).all(|((n1, _), (n2, _))| n1 == n2) =>
        {
            for ((n, x), (_, y)) in a.iter().zip(b) {
                walk(format!("{path}.{n}"), x, y, max, out);
            }
        }
        (Value::Variant { name: na, items: a }, Value::Variant { name: nb, items: b })
            if na == nb && a.len() == b.len() =>
        {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                walk(format!("{path}.{i}"), x, y, max, out);
            }
        }
        (Value::Pointer { target: a }, Value::Pointer { target: b }) => {
            walk(path.clone(), a, b, max, out);
        }
        _ => {}
    }
    // Not containers alike, or alike but for what was not read (a type,
    // fields left out): the change is the whole value here.
    if out.len() == start {
        out.push(Change { path, before, now });
    }
}

fn same_size(a: Count, b: Count) -> bool {
    a == b
}

/// A map key as a path writes it: strings quoted, others as they are.
fn key_text(k: &Value) -> String {
    match k {
        Value::Text { text, prefix, .. } => format!("{prefix}\"{text}\""),
        Value::Atom { text } => text.clone(),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Value {
        Value::Text {
            text: s.into(),
            prefix: String::new(),
            cut: false,
            length: None,
        }
    }

    fn list(items: Vec<Value>) -> Value {
        Value::Seq {
            type_name: "list".into(),
            open: '[',
            close: ']',
            count: Count::Exact(items.len()),
            items,
        }
    }

    #[test]
    fn a_change_inside_a_list_is_named_by_its_index() {
        let before = list(
            (0..8)
                .map(|i| text(if i == 6 { "" } else { "x" }))
                .collect(),
        );
        let now = list(
            (0..8)
                .map(|i| text(if i == 6 { "167" } else { "x" }))
                .collect(),
        );
        let found = changes("parts", &before, &now, 3);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, "parts[6]");
        assert_eq!(found[0].before, &text(""));
        assert_eq!(found[0].now, &text("167"));
        assert!(changes("parts", &before, &before, 3).is_empty());
    }

    #[test]
    fn a_change_of_size_is_a_change_of_the_whole() {
        let before = list(vec![text("a")]);
        let now = list(vec![text("a"), text("b")]);
        let found = changes("xs", &before, &now, 3);
        assert_eq!(found[0].path, "xs");
    }

    #[test]
    fn fields_and_keys_name_their_place() {
        let obj = |n: &str| Value::Object {
            type_name: "Item".into(),
            fields: vec![("name".into(), text(n)), ("qty".into(), Value::atom("1"))],
            more: false,
        };
        let map = |n: &str| Value::Map {
            type_name: "dict".into(),
            entries: vec![(text("k"), obj(n))],
            count: Count::Exact(1),
        };
        let (a, b) = (map("a"), map("b"));
        let found = changes("m", &a, &b, 3);
        assert_eq!(found[0].path, "m[\"k\"].name");
    }
}
