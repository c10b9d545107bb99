//! Tool schemas trimmed for an agent's context: every tools/list costs
//! tokens on every conversation. The meaning is kept; only noise goes
//! (`$schema`, integer formats, `null` alternatives of optional fields).

use serde_json::{Map, Value};

pub fn compact(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.remove("$schema");
            map.remove("format");
            if map.get("minimum") == Some(&Value::from(0)) {
                map.remove("minimum");
            }
            if map.get("additionalProperties") == Some(&Value::Bool(false)) {
                map.remove("additionalProperties");
            }
            drop_null_type(map);
            unwrap_nullable_any_of(map);
            map.values_mut().for_each(compact);
        }
        Value::Array(items) => items.iter_mut().for_each(compact),
        _ => {}
    }
}

/// `"type": ["string", "null"]` → `"type": "string"`: optional fields are
/// already known by their absence from `required`.
fn drop_null_type(map: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = map.get("type") {
        let rest: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if rest.len() == 1 {
            map.insert("type".into(), rest[0].clone());
        }
    }
}

/// `"anyOf": [X, {"type": "null"}]` → X's keys.
fn unwrap_nullable_any_of(map: &mut Map<String, Value>) {
    let Some(Value::Array(any)) = map.get("anyOf") else {
        return;
    };
    let rest: Vec<Value> = any
        .iter()
        .filter(|a| a.get("type") != Some(&Value::from("null")))
        .cloned()
        .collect();
    if rest.len() == 1
        && let Value::Object(inner) = &rest[0]
    {
        let inner = inner.clone();
        map.remove("anyOf");
        for (k, val) in inner {
            map.entry(k).or_insert(val);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn trims_noise_and_keeps_meaning() {
        let mut s = json!({
            "$schema": "x", "type": "object", "required": ["file"],
            "properties": {
                "file": {"type": "string"},
                "count": {"type": ["integer", "null"], "format": "uint32", "minimum": 0, "description": "n"},
                "kind": {"anyOf": [{"$ref": "#/$defs/K"}, {"type": "null"}], "description": "k"}
            }
        });
        compact(&mut s);
        assert_eq!(
            s,
            json!({
                "type": "object", "required": ["file"],
                "properties": {
                    "file": {"type": "string"},
                    "count": {"type": "integer", "description": "n"},
                    "kind": {"$ref": "#/$defs/K", "description": "k"}
                }
            })
        );
    }
}
