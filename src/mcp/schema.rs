//! Tool schemas trimmed for an agent's context: every tools/list costs
//! tokens on every conversation. The meaning is kept; only noise goes
//! (`$schema`, integer formats, `null` alternatives of optional fields).

use serde_json::{Map, Value};

/// Trims a tool's input schema: the noise below, then every `$ref`
/// inlined (a definition used by one field costs more as a reference),
/// and descriptions kept only on the tool's own fields: nested fields
/// (a launch's breakpoints, the viewport's settings) read by their names,
/// and the tool that sets them alone explains them.
pub fn compact_tool(schema: &mut Value) {
    compact(schema);
    let defs = match schema.as_object_mut().and_then(|m| m.remove("$defs")) {
        Some(Value::Object(d)) => d,
        _ => Map::new(),
    };
    inline_refs(schema, &defs);
    if let Some(Value::Object(props)) = schema.get_mut("properties") {
        for field in props.values_mut() {
            drop_descriptions_below(field);
        }
    }
}

fn inline_refs(v: &mut Value, defs: &Map<String, Value>) {
    match v {
        Value::Object(map) => {
            let target = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"))
                .and_then(|name| defs.get(name))
                .cloned();
            if let Some(Value::Object(def)) = target {
                map.remove("$ref");
                for (k, val) in def {
                    map.entry(k).or_insert(val);
                }
            }
            map.values_mut().for_each(|x| inline_refs(x, defs));
        }
        Value::Array(items) => items.iter_mut().for_each(|x| inline_refs(x, defs)),
        _ => {}
    }
}

/// Removes the descriptions and defaults inside a field (of its items, of
/// its fields), keeping the field's own: the README gives the defaults.
fn drop_descriptions_below(field: &mut Value) {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.remove("description");
                map.remove("default");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    if let Value::Object(map) = field {
        for (k, v) in map.iter_mut() {
            if k != "description" {
                strip(v);
            }
        }
    }
}

pub fn compact(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.remove("$schema");
            // The keyword (`"format": "uint32"`), not a field named format.
            if map.get("format").is_some_and(Value::is_string) {
                map.remove("format");
            }
            if map.get("minimum") == Some(&Value::from(0)) {
                map.remove("minimum");
            }
            if map.get("additionalProperties") == Some(&Value::Bool(false)) {
                map.remove("additionalProperties");
            }
            drop_null_type(map);
            unwrap_nullable_any_of(map);
            map.values_mut().for_each(compact);
            // After the alternatives themselves lost their noise.
            any_of_types(map);
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

/// `"anyOf": [{"type": "integer"}, {"type": "string"}]` → `"type":
/// ["integer", "string"]`: the same choice in a third of the bytes.
fn any_of_types(map: &mut Map<String, Value>) {
    let Some(Value::Array(any)) = map.get("anyOf") else {
        return;
    };
    let types: Option<Vec<Value>> = any
        .iter()
        .map(|a| match a.as_object() {
            Some(o) if o.len() == 1 => o.get("type").filter(|t| t.is_string()).cloned(),
            _ => None,
        })
        .collect();
    if let Some(types) = types.filter(|t| t.len() > 1) {
        map.remove("anyOf");
        map.insert("type".into(), Value::Array(types));
    }
}

/// The refusal of a call whose arguments its tool does not know, checked
/// against the schema the router lists.
pub fn refusal<S>(
    router: &rmcp::handler::server::router::tool::ToolRouter<S>,
    tool: &str,
    args: &Map<String, Value>,
) -> Option<String>
where
    S: Send + Sync + 'static,
{
    router
        .get(tool)
        .and_then(|t| crate::agent::arguments::unknown(tool, &t.input_schema, args))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn inlines_definitions_and_keeps_only_the_tools_own_descriptions() {
        let mut s = json!({
            "type": "object",
            "properties": {
                "kind": {"$ref": "#/$defs/K", "description": "k"},
                "breakpoints": {"type": "array", "description": "b", "items": {"$ref": "#/$defs/B"}}
            },
            "$defs": {
                "K": {"type": "string", "enum": ["a", "b"]},
                "B": {"type": "object", "description": "x", "properties": {"line": {"type": "integer", "description": "1-based"}}}
            }
        });
        compact_tool(&mut s);
        assert_eq!(
            s,
            json!({
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "enum": ["a", "b"], "description": "k"},
                    "breakpoints": {"type": "array", "description": "b", "items": {"type": "object", "properties": {"line": {"type": "integer"}}}}
                }
            })
        );
    }

    #[test]
    fn a_field_named_format_is_kept() {
        let mut s = json!({"type": "object", "properties": {"format": {"type": "string", "enum": ["text", "json"]}}});
        let before = s.clone();
        compact(&mut s);
        assert_eq!(s, before);
    }

    #[test]
    fn a_choice_of_plain_types_is_a_type_list() {
        let mut s = json!({"anyOf": [{"type": "integer"}, {"type": "string"}], "description": "n"});
        compact(&mut s);
        assert_eq!(
            s,
            json!({"type": ["integer", "string"], "description": "n"})
        );
    }

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
