//! A tool's arguments made from its input schema (as tools/list gives it)
//! and a stream of bytes: mostly what the schema asks for, and at every
//! level now and then something hostile instead (the wrong type, a huge
//! or control-laden string, a number at the edge of its type, deep
//! nesting, an unknown field) or a required field left out.

use serde_json::{Map, Value, json};

/// The input's bytes, read one choice at a time; zeros once they run out.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, at: 0 }
    }

    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    /// A choice among `n`.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            usize::from(self.byte()) % n
        }
    }
}

/// Words the fixture knows (its file, names and lines) beside some that
/// no field should take whole.
const WORDS: &[&str] = &[
    "prog.py",
    "x",
    "y",
    "work",
    "total",
    "x + 1",
    "len(y)",
    "s1",
    "over",
    "into",
    "raised",
    "uncaught",
    "list",
    "",
    ".",
    "../../../../etc/hostname",
    "/nonexistent/dir/file.py",
    "prog.py:2",
    "${workspaceFolder}",
    "\u{0}",
    "\u{1b}[2J\u{1b}[H\u{7}",
    "line\nbreak\r\n\r\nContent-Length: 9\r\n\r\n",
    "\u{202e}é✓\u{fffd}",
    "x ==",
    "{x",
    ">=2",
];

pub fn args(schema: &Map<String, Value>, u: &mut Bytes) -> Map<String, Value> {
    let root = Value::Object(schema.clone());
    let mut out = match object(&root, &root, u, 0) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    match u.below(8) {
        0 => {
            out.insert("zz_unknown_field".into(), hostile(u, 0));
        }
        1 if !out.is_empty() => {
            let key = out.keys().nth(u.below(out.len())).cloned();
            if let Some(k) = key {
                out.remove(&k);
            }
        }
        _ => {}
    }
    out
}

fn resolve<'s>(s: &'s Value, root: &'s Value) -> &'s Value {
    s.get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| root.pointer(r.trim_start_matches('#')))
        .unwrap_or(s)
}

fn value(s: &Value, root: &Value, u: &mut Bytes, depth: usize) -> Value {
    let s = resolve(s, root);
    if depth > 6 {
        return Value::Null;
    }
    if u.below(6) == 0 {
        return hostile(u, depth);
    }
    if let Some(e) = s
        .get("enum")
        .and_then(Value::as_array)
        .filter(|e| !e.is_empty())
    {
        return e[u.below(e.len())].clone();
    }
    if let Some(c) = s.get("const") {
        return c.clone();
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(a) = s
            .get(key)
            .and_then(Value::as_array)
            .filter(|a| !a.is_empty())
        {
            return value(&a[u.below(a.len())], root, u, depth + 1);
        }
    }
    let ty = match s.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) => {
            let ts: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
            ts.get(u.below(ts.len())).copied().unwrap_or("null")
        }
        _ if s.get("properties").is_some() => "object",
        _ => "string",
    };
    match ty {
        "object" => object(s, root, u, depth),
        "array" => {
            let items = s.get("items").cloned().unwrap_or(json!({}));
            (0..u.below(4))
                .map(|_| value(&items, root, u, depth + 1))
                .collect()
        }
        "string" => string(u),
        "integer" => integer(u),
        "number" => match u.below(3) {
            0 => json!(0.5),
            1 => json!(-1e300),
            _ => integer(u),
        },
        "boolean" => Value::Bool(u.below(2) == 0),
        _ => Value::Null,
    }
}

fn object(s: &Value, root: &Value, u: &mut Bytes, depth: usize) -> Value {
    let s = resolve(s, root);
    let required: Vec<&str> = s
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = Map::new();
    if let Some(props) = s.get("properties").and_then(Value::as_object) {
        for (name, p) in props {
            if required.contains(&name.as_str()) || u.below(3) == 0 {
                out.insert(name.clone(), value(p, root, u, depth + 1));
            }
        }
    } else if let Some(extra) = s.get("additionalProperties").filter(|a| a.is_object()) {
        for _ in 0..u.below(3) {
            out.insert(string_key(u), value(extra, root, u, depth + 1));
        }
    }
    Value::Object(out)
}

fn string_key(u: &mut Bytes) -> String {
    match string(u) {
        Value::String(s) => s,
        _ => String::new(),
    }
}

fn string(u: &mut Bytes) -> Value {
    let s = match u.below(8) {
        0 => "y".repeat([5_000, 70_000, 300_000][u.below(3)]),
        1 => (0..u.below(40))
            .map(|_| char::from(u.byte() % 0x80))
            .collect(),
        _ => WORDS[u.below(WORDS.len())].to_string(),
    };
    Value::String(s)
}

fn integer(u: &mut Bytes) -> Value {
    match u.below(10) {
        0 => json!(-1),
        1 => json!(i64::MIN),
        2 => json!(u64::MAX),
        3 => json!(0),
        4 => json!(1u64 << 53),
        5 => json!(u32::MAX),
        _ => json!(u.below(40)),
    }
}

/// Something no field of any tool expects.
fn hostile(u: &mut Bytes, depth: usize) -> Value {
    match u.below(9) {
        0 => string(u),
        1 => integer(u),
        2 => json!(1e308),
        3 => Value::Bool(true),
        4 => Value::Null,
        5 => {
            // Past serde_json's nesting limit at 128, or just under it.
            let levels = [50, 127, 300][u.below(3)];
            (0..levels).fold(json!(1), |inner, _| json!([inner]))
        }
        6 => Value::Array(vec![Value::Null; [1_000, 100_000][u.below(2)]]),
        7 if depth < 3 => {
            json!({"zz_unknown": hostile(u, depth + 1), "": "\u{0}"})
        }
        _ => json!({}),
    }
}
