//! A value tree as JSON, for the JSON viewport and the REST API: what kind
//! of value it is, its type, how many items it holds and the first of them,
//! and whether anything was left out, so a client reads the structure
//! instead of parsing a preview.

use serde_json::{Map, Value as Json, json};

use crate::adapters::value::{Count, Value};

/// How much of a tree is written: `items` of each container, `levels` of
/// containers opened.
#[derive(Debug, Clone, Copy)]
pub struct Reach {
    pub items: usize,
    pub levels: usize,
}

/// `v` as JSON, down to `reach`.
pub fn tree_json(v: &Value, reach: Reach) -> Json {
    match v {
        Value::Atom { text } => json!({"kind": "atom", "text": text}),
        Value::Text {
            text,
            prefix,
            cut,
            length,
        } => {
            let mut o = object("string");
            o.insert("text".into(), text.as_str().into());
            if !prefix.is_empty() {
                o.insert("prefix".into(), prefix.as_str().into());
            }
            o.insert("cut".into(), (*cut).into());
            if let Some(n) = length {
                o.insert("length".into(), (*n).into());
            }
            Json::Object(o)
        }
        Value::Seq {
            type_name,
            items,
            count,
            ..
        } => {
            let mut o = typed("sequence", type_name);
            counted(&mut o, *count);
            let shown = children(items.iter(), reach);
            let n = shown.as_ref().map_or(0, Vec::len);
            o.insert("items".into(), shown.map_or(Json::Null, Json::Array));
            o.insert("cut".into(), cut(n, *count).into());
            Json::Object(o)
        }
        Value::Map {
            type_name,
            entries,
            count,
        } => {
            let mut o = typed("map", type_name);
            counted(&mut o, *count);
            let shown: Option<Vec<Json>> = opened(reach).map(|inner| {
                entries
                    .iter()
                    .take(reach.items)
                    .map(|(k, v)| json!({"key": tree_json(k, inner), "value": tree_json(v, inner)}))
                    .collect()
            });
            let n = shown.as_ref().map_or(0, Vec::len);
            o.insert("entries".into(), shown.map_or(Json::Null, Json::Array));
            o.insert("cut".into(), cut(n, *count).into());
            Json::Object(o)
        }
        Value::Object {
            type_name,
            fields,
            more,
        } => {
            let mut o = typed("object", type_name);
            let shown: Option<Vec<Json>> = opened(reach).map(|inner| {
                fields
                    .iter()
                    .take(reach.items)
                    .map(|(k, v)| json!({"name": k, "value": tree_json(v, inner)}))
                    .collect()
            });
            let n = shown.as_ref().map_or(0, Vec::len);
            o.insert("fields".into(), shown.map_or(Json::Null, Json::Array));
            o.insert("cut".into(), (*more || n < fields.len()).into());
            Json::Object(o)
        }
        Value::Variant { name, items } => {
            let mut o = object("variant");
            o.insert("name".into(), name.as_str().into());
            // A variant's payload is part of the variant: `Some(x)` is
            // opened at the level `Some` is.
            let inner = Reach {
                levels: reach.levels.max(1),
                ..reach
            };
            let shown = children(items.iter(), inner).unwrap_or_default();
            let n = shown.len();
            o.insert("items".into(), Json::Array(shown));
            o.insert("cut".into(), (n < items.len()).into());
            Json::Object(o)
        }
        Value::Pointer { target } => json!({"kind": "pointer", "target": tree_json(target, reach)}),
        Value::Nil { word } => json!({"kind": "nil", "text": word}),
        Value::Unreadable { what, why } => json!({"kind": "unreadable", "what": what, "why": why}),
        Value::Described { text } => json!({"kind": "described", "text": text}),
    }
}

fn object(kind: &str) -> Map<String, Json> {
    let mut o = Map::new();
    o.insert("kind".into(), kind.into());
    o
}

fn typed(kind: &str, type_name: &str) -> Map<String, Json> {
    let mut o = object(kind);
    if !type_name.is_empty() {
        o.insert("type".into(), type_name.into());
    }
    o
}

/// `count`, and `count_at_least` when the adapter listed only some.
fn counted(o: &mut Map<String, Json>, count: Count) {
    o.insert("count".into(), count.n().into());
    if let Count::AtLeast(_) = count {
        o.insert("count_at_least".into(), true.into());
    }
}

fn cut(shown: usize, count: Count) -> bool {
    matches!(count, Count::AtLeast(_)) || shown < count.n()
}

/// The reach inside a container opened at `reach`; None when it is not opened.
fn opened(reach: Reach) -> Option<Reach> {
    (reach.levels > 0).then(|| Reach {
        levels: reach.levels - 1,
        ..reach
    })
}

fn children<'a>(items: impl Iterator<Item = &'a Value>, reach: Reach) -> Option<Vec<Json>> {
    opened(reach).map(|inner| {
        items
            .take(reach.items)
            .map(|i| tree_json(i, inner))
            .collect()
    })
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

    const WIDE: Reach = Reach {
        items: 5,
        levels: 2,
    };

    #[test]
    fn a_sequence_says_its_count_and_what_was_left_out() {
        let seq = Value::Seq {
            type_name: "[]main.Item".into(),
            open: '[',
            close: ']',
            items: (0..7).map(|i| Value::atom(i.to_string())).collect(),
            count: Count::Exact(7),
        };
        let j = tree_json(&seq, WIDE);
        assert_eq!(j["kind"], "sequence");
        assert_eq!(j["type"], "[]main.Item");
        assert_eq!(j["count"], 7);
        assert_eq!(j["items"].as_array().map(Vec::len), Some(5));
        assert_eq!(j["items"][0], json!({"kind": "atom", "text": "0"}));
        assert_eq!(j["cut"], true);
        let closed = tree_json(
            &seq,
            Reach {
                items: 5,
                levels: 0,
            },
        );
        assert_eq!(closed["items"], Json::Null);
        assert_eq!(closed["cut"], true);
    }

    #[test]
    fn a_variant_carries_its_payload() {
        let some = Value::Variant {
            name: "Some".into(),
            items: vec![Value::Object {
                type_name: "shop::Item".into(),
                fields: vec![
                    ("id".into(), Value::atom("1")),
                    ("name".into(), text("hammer")),
                ],
                more: false,
            }],
        };
        let j = tree_json(
            &some,
            Reach {
                items: 5,
                levels: 0,
            },
        );
        assert_eq!(j["kind"], "variant");
        assert_eq!(j["name"], "Some");
        assert_eq!(j["items"][0]["kind"], "object");
        assert_eq!(j["items"][0]["fields"], Json::Null, "opened one level only");
        let j = tree_json(&some, WIDE);
        assert_eq!(j["items"][0]["fields"][1]["name"], "name");
        assert_eq!(j["items"][0]["fields"][1]["value"]["text"], "hammer");
        assert_eq!(j["items"][0]["cut"], false);
    }

    #[test]
    fn a_lower_bound_is_said() {
        let m = Value::Map {
            type_name: String::new(),
            entries: vec![(text("k"), Value::nil("nil"))],
            count: Count::AtLeast(1),
        };
        let j = tree_json(&m, WIDE);
        assert_eq!(j["count_at_least"], true);
        assert_eq!(j["cut"], true);
        assert_eq!(
            j["entries"][0]["value"],
            json!({"kind": "nil", "text": "nil"})
        );
        assert!(j.get("type").is_none());
    }
}
