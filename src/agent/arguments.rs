//! Refuses arguments a tool does not know. A misspelt `conditon` that was
//! silently dropped would leave the agent believing its breakpoint is
//! conditional; naming the known fields lets it correct itself at once.

use serde_json::{Map, Value};

/// Arguments every tool takes, left out of each tool's schema (one line of
/// the server's instructions says so once instead of thirty schemas).
pub const EVERY_TOOL: &[&str] = &["session_id"];

/// The first argument in `args` (nested objects included) that `schema`
/// does not declare, worded with the names it does declare.
pub fn unknown(
    tool: &str,
    schema: &Map<String, Value>,
    args: &Map<String, Value>,
) -> Option<String> {
    let defs = schema.get("$defs").and_then(Value::as_object);
    let mut schema = schema.clone();
    if let Some(Value::Object(props)) = schema.get_mut("properties") {
        for name in EVERY_TOOL {
            props
                .entry(*name)
                .or_insert_with(|| Value::Object(Map::new()));
        }
    }
    check(tool, &schema, &Value::Object(args.clone()), defs)
}

fn check(
    path: &str,
    schema: &Map<String, Value>,
    value: &Value,
    defs: Option<&Map<String, Value>>,
) -> Option<String> {
    let schema = resolve(schema, defs);
    match value {
        Value::Object(fields) => {
            let props = schema.get("properties").and_then(Value::as_object)?;
            for (name, v) in fields {
                match props.get(name).and_then(Value::as_object) {
                    Some(sub) => {
                        if let Some(e) = check(&format!("{path}.{name}"), sub, v, defs) {
                            return Some(e);
                        }
                    }
                    None if props.contains_key(name) => {}
                    None => {
                        let mut known: Vec<&str> = props.keys().map(String::as_str).collect();
                        known.sort_unstable();
                        return Some(format!(
                            "unknown argument `{name}` in {path}; known: {}",
                            known.join(", ")
                        ));
                    }
                }
            }
            None
        }
        Value::Array(items) => {
            let item_schema = schema.get("items").and_then(Value::as_object)?;
            items
                .iter()
                .enumerate()
                .find_map(|(i, v)| check(&format!("{path}[{i}]"), item_schema, v, defs))
        }
        _ => None,
    }
}

/// Follows a `$ref` into `$defs`, the only form schemars emits.
fn resolve<'a>(
    schema: &'a Map<String, Value>,
    defs: Option<&'a Map<String, Value>>,
) -> &'a Map<String, Value> {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
        .and_then(|name| defs?.get(name)?.as_object())
        .unwrap_or(schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn names_the_unknown_field_and_the_known_ones() {
        let schema = obj(json!({
            "type": "object",
            "properties": {
                "session_id": {"type": "string"},
                "breakpoints": {"type": "array", "items": {"$ref": "#/$defs/Bp"}}
            },
            "$defs": {"Bp": {"type": "object", "properties": {"file": {}, "line": {}, "condition": {}}}}
        }));
        assert_eq!(
            unknown("debug_launch", &schema, &obj(json!({"sesion_id": "a"}))).as_deref(),
            Some("unknown argument `sesion_id` in debug_launch; known: breakpoints, session_id")
        );
        let nested = obj(json!({"breakpoints": [{"file": "a.py", "line": 3, "conditon": "x"}]}));
        assert_eq!(
            unknown("debug_launch", &schema, &nested).as_deref(),
            Some(
                "unknown argument `conditon` in debug_launch.breakpoints[0]; known: condition, file, line"
            )
        );
        let fine = obj(json!({"breakpoints": [{"file": "a.py", "line": 3}], "session_id": "s"}));
        let bare = obj(json!({"type": "object", "properties": {"pid": {}}}));
        assert_eq!(
            unknown("debug_attach", &bare, &obj(json!({"session_id": "s2"}))),
            None
        );
        assert_eq!(
            unknown("debug_attach", &bare, &obj(json!({"sessionid": "s2"}))).as_deref(),
            Some("unknown argument `sessionid` in debug_attach; known: pid, session_id")
        );
        assert_eq!(unknown("debug_launch", &schema, &fine), None);
    }

    #[test]
    fn free_form_maps_take_any_key() {
        let schema = obj(json!({
            "type": "object",
            "properties": {"env": {"type": "object", "additionalProperties": {"type": "string"}}}
        }));
        assert_eq!(
            unknown("t", &schema, &obj(json!({"env": {"ANY": "1"}}))),
            None
        );
    }
}
