//! JavaScript and TypeScript as js-debug shows them, rewritten to the
//! viewport's rules: strings in double quotes, arrays with their count
//! after them, `global.` off frame names, the engine's internals hidden.

use crate::adapters::value::{Count, Layout, Raw, Value};
use crate::adapters::{Language, c_like_path, split_path};

pub struct JavaScript;

/// Children js-debug lists that are the engine's, not the program's.
const INTERNAL_GROUPS: &[&str] = &["[[Prototype]]", "[[Scopes]]", "[[FunctionLocation]]"];

/// A `this` that is no object the function was called on.
fn is_no_receiver(value: &str) -> bool {
    value == "undefined" || value == "global" || value == "globalThis" || value == "Window"
}

/// js-debug gives a method's `this` as its class name alone, no preview
/// of its fields: `Circle`.
fn is_bare_class_name(value: &str) -> bool {
    value.starts_with(|c: char| c.is_ascii_uppercase())
        && value
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        && !matches!(value, "NaN" | "Infinity")
}

/// A Map's or Set's preview, as `preview` writes it.
fn is_keyed(value: &str) -> bool {
    KEYED.iter().any(|k| value.trim_start().starts_with(k))
}

const KEYED: [&str; 4] = ["Map(", "Set(", "WeakMap", "WeakSet"];

/// A preview that leaves a level out: an object as `{...}`, an array as
/// `Array(2)`, a long one cut with `…`. Its children say what it holds,
/// so the width the viewport has is filled with it.
fn elides_a_level(value: &str) -> bool {
    let v = value.trim();
    !v.starts_with(['"', '\'', '`', '<'])
        && (v.contains("{...}") || v.contains('…') || array_length_at(v).is_some())
}

/// The length in the first `Array(2)` of a preview: an array it does not
/// list.
fn array_length_at(v: &str) -> Option<usize> {
    v.match_indices("Array(").find_map(|(at, m)| {
        let rest = &v[at + m.len()..];
        let (digits, _) = rest.split_once(')')?;
        digits.parse().ok()
    })
}

impl Language for JavaScript {
    /// js-debug answers a call whose program died under it with success
    /// and no value.
    fn every_expression_has_value(&self) -> bool {
        true
    }

    fn plain_words(&self) -> &'static [&'static str] {
        &["null", "undefined", "true", "false", "\"\"", "''"]
    }

    /// Only a function written with none is read from the source, so its
    /// call reads `main()`: naming parameters would have each caller's
    /// locals read, which costs js-debug tens of milliseconds a frame.
    fn parameters(&self, lines: &[String], function: &str, line: u64) -> Option<Vec<String>> {
        super::functions::takes_no_parameters(lines, function, line).then(Vec::new)
    }

    /// `this` is shown where it is a receiver (a method's object); a plain
    /// function's is `undefined` or the global object, which no one looks for.
    fn is_shown(&self, name: &str, value: &str) -> bool {
        let no_receiver = name == "this" && is_no_receiver(value);
        !(no_receiver || self.is_hidden_group(name))
    }

    fn is_hidden_group(&self, name: &str) -> bool {
        INTERNAL_GROUPS.contains(&name)
    }

    /// js-debug has no function breakpoints: the function is found in the
    /// source.
    fn find_function(
        &self,
        root: &std::path::Path,
        function: &str,
    ) -> Option<Result<crate::adapters::FoundFunction, String>> {
        Some(super::functions::find_function(root, function))
    }

    fn path_expression(&self, path: &str) -> Option<String> {
        c_like_path(&split_path(path))
    }

    fn side_effect(&self, expression: &str) -> Option<String> {
        crate::adapters::side_effects::scan(expression, &super::pure_calls::JAVASCRIPT)
    }

    fn purity_probe(&self, expression: &str) -> Option<String> {
        Some(super::pure_calls::probe(expression))
    }

    /// js-debug's previews say what the children would, but for the
    /// objects inside an array (`[{...}, {...}]`), and a method's `this`,
    /// which comes as its class name alone: those are read, in the stop's
    /// one batch, so they show their fields.
    fn needs_children(&self, value: &str, truncated: bool) -> bool {
        truncated || is_bare_class_name(value) || elides_a_level(value) && !is_keyed(value)
    }

    /// Nested, a value shows as its preview says.
    fn needs_children_when_nested(&self, _value: &str, truncated: bool) -> bool {
        truncated
    }

    fn value(&self, raw: &dyn Raw) -> Value {
        // `Map(2) {"a" => 1, "b" => 2}` as Chrome writes it: its entries
        // read as children are `{k => v}` objects named 0, 1, ...
        if is_keyed(raw.text()) && !raw.truncated() {
            return Value::described(raw.text().trim());
        }
        if let Some((list, n)) = counted_list(raw.text().trim()) {
            let items = match raw.children() {
                Some(children) => crate::adapters::value::from_children(
                    raw,
                    &children,
                    Some(Layout::Seq('[', ']')),
                    &|c| crate::adapters::value::child_value(c, self),
                ),
                None => objects(
                    crate::adapters::value::from_literal(list, raw.type_name(), false, None),
                    "",
                ),
            };
            return with_count(items, n);
        }
        match raw.text().trim() {
            word @ ("null" | "undefined") if raw.children().is_none() => Value::nil(word),
            _ => objects(
                crate::adapters::literal_value(raw, None, &|c| {
                    crate::adapters::value::child_value(c, self)
                }),
                raw.type_name(),
            ),
        }
    }

    fn length_expression(&self, expression: &str) -> Option<String> {
        Some(format!("({expression}).length"))
    }

    fn value_text(&self, value: String, type_name: &str) -> String {
        preview(&value, type_name)
    }

    /// `undefined`'s type is its value: said once.
    fn type_text(&self, type_name: String) -> String {
        match type_name.as_str() {
            "undefined" => String::new(),
            _ => type_name,
        }
    }

    /// `Uncaught TypeError TypeError: msg` (and the stack under it) reads
    /// `TypeError: msg`.
    fn evaluation_error(&self, message: &str) -> String {
        let first = message.trim().lines().next().unwrap_or_default();
        let rest = first.strip_prefix("Uncaught ").unwrap_or(first);
        match rest.split_once(' ') {
            Some((kind, tail)) if tail.starts_with(&format!("{kind}:")) => tail.to_string(),
            _ => rest.to_string(),
        }
    }

    /// js-debug names an uncaught error by its whole first line,
    /// `RangeError: bad size`, with no description.
    fn exception_parts(&self, id: &str, description: &str) -> (String, String) {
        if description.is_empty()
            && let Some((kind, message)) = id.split_once(": ")
            && !kind.is_empty()
            && kind
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '.'))
        {
            return (kind.to_string(), message.to_string());
        }
        (id.to_string(), description.to_string())
    }

    /// js-debug names a method by its receiver's description, which for a
    /// function is its source's first line: `function Module(id) {.load`
    /// reads `Module.load`.
    fn frame_name(&self, raw: &str) -> String {
        if let Some((this, method)) = raw.split_once(" {.")
            && let Some(head) = this
                .strip_prefix("function ")
                .or_else(|| this.strip_prefix("class "))
        {
            let name = head.split(['(', ' ']).next().unwrap_or_default().trim();
            if !name.is_empty() {
                return format!("{name}.{method}");
            }
        }
        raw.strip_prefix("global.").unwrap_or(raw).to_string()
    }

    fn is_library_file(&self, path: &str) -> bool {
        path.contains("/node_modules/")
    }

    fn is_runtime_frame(&self, _name: &str, file: Option<&str>) -> bool {
        file.is_some_and(|f| f.starts_with("<node_internals>") || f.starts_with("node:"))
    }
}

/// A preview's `{name: 'spike', n: 3}` is an object with those fields
/// (named `type_name` where the adapter gave one), at any depth.
fn objects(v: Value, type_name: &str) -> Value {
    match v {
        Value::Seq {
            open: '{',
            ref items,
            count,
            ..
        } if !items.is_empty() && items.iter().all(|i| field(i).is_some()) => Value::Object {
            type_name: type_name.to_string(),
            fields: items
                .iter()
                .filter_map(field)
                .map(|(k, v)| (k, objects(v, "")))
                .collect(),
            more: matches!(count, crate::adapters::value::Count::AtLeast(_)),
        },
        Value::Seq {
            type_name: t,
            open,
            close,
            items,
            count,
        } => Value::Seq {
            type_name: t,
            open,
            close,
            items: items.into_iter().map(|i| objects(i, "")).collect(),
            count,
        },
        // `Array(2)`: an array of two the preview does not list, not a
        // call holding 2.
        Value::Variant { name, items } if name.ends_with("Array") => {
            let length = match items.as_slice() {
                [Value::Atom { text }] => text.parse::<usize>().ok(),
                _ => None,
            };
            match length {
                Some(n) => Value::Seq {
                    type_name: name,
                    open: '[',
                    close: ']',
                    items: vec![],
                    count: Count::Exact(n),
                },
                None => Value::Variant { name, items },
            }
        }
        // A level the preview left out, as js-debug writes it.
        Value::Unreadable { what, .. } if what == "dict or set" => Value::described("{...}"),
        Value::Unreadable { what, .. } if what == "list" => Value::described("[...]"),
        other => other,
    }
}

/// `[1, 2, 3] (3 items)`, as `preview` writes an array: the list and
/// its length.
fn counted_list(text: &str) -> Option<(&str, usize)> {
    let (list, count) = text.rsplit_once(" (")?;
    let n = count
        .strip_suffix(" items)")
        .or_else(|| count.strip_suffix(" item)"))?
        .parse()
        .ok()?;
    (list.starts_with('[') && list.ends_with(']')).then_some((list, n))
}

/// A sequence holding `n` items, however many of them were read.
fn with_count(v: Value, n: usize) -> Value {
    match v {
        Value::Seq {
            type_name,
            open,
            close,
            items,
            ..
        } if n >= items.len() => Value::Seq {
            type_name,
            open,
            close,
            items,
            count: Count::Exact(n),
        },
        other => other,
    }
}

/// `name: 'spike'` inside an object preview.
fn field(item: &Value) -> Option<(String, Value)> {
    let Value::Atom { text } = item else {
        return None;
    };
    let (k, v) = text.split_once(": ")?;
    let k = k.trim_matches(['\'', '"']);
    crate::adapters::is_ident(k).then(|| {
        (
            k.to_string(),
            crate::adapters::value::from_literal(v, "", false, None),
        )
    })
}

/// A js-debug value preview as the viewport writes values.
pub fn preview(value: &str, type_name: &str) -> String {
    if type_name == "Function" {
        let head = value.lines().next().unwrap_or_default();
        if let Some(class) = class_head(head) {
            return class;
        }
        let name = head
            .trim_start_matches(['ƒ', ' '])
            .trim_start_matches("async ")
            .split('(')
            .next()
            .unwrap_or_default()
            .trim();
        return match name {
            "" => "<function>".into(),
            n => format!("<function {n}>"),
        };
    }
    if let Some(entries) = keyed_entries(value) {
        return double_quoted(&entries);
    }
    // `(3) [1, 2, 3]`: the count leads; the viewport says it after.
    if let Some((count, rest)) = array_count(value) {
        let items = if count == 1 { "item" } else { "items" };
        return format!("{} ({count} {items})", double_quoted(rest));
    }
    double_quoted(value)
}

/// A class's source's first line, `class Item extends Base {`, as Chrome
/// names it: `class Item extends Base`.
fn class_head(head: &str) -> Option<String> {
    let rest = head.trim_start().strip_prefix("class")?;
    if !rest.starts_with([' ', '{']) {
        return None;
    }
    let name = rest.split('{').next().unwrap_or_default().trim();
    Some(match name {
        "" => "class".into(),
        n => format!("class {n}"),
    })
}

/// `Map(1) {size: 1, apples => 3}` as `Map(1) {'apples' => 3}`: the size
/// is said once, and the keys (and a Set's items) that the preview leaves
/// bare are strings, written as strings.
fn keyed_entries(value: &str) -> Option<String> {
    let kind = KEYED.into_iter().find(|k| value.starts_with(k))?;
    let open = value.find(" {")?;
    let body = value[open + 2..].strip_suffix('}')?;
    let is_map = kind.contains("Map");
    let entries: Vec<String> = top_level(body)
        .into_iter()
        .filter(|e| !e.starts_with("size: "))
        .map(|e| match e.split_once(" => ") {
            Some((k, v)) if is_map => format!("{} => {v}", bare_as_string(k)),
            _ if !is_map => bare_as_string(e),
            _ => e.to_string(),
        })
        .collect();
    Some(format!("{} {{{}}}", &value[..open], entries.join(", ")))
}

/// A preview's word that is no number, literal or nested value: a string
/// shown without its quotes.
fn bare_as_string(item: &str) -> String {
    let literal = ["true", "false", "null", "undefined", "NaN", "Infinity", "…"];
    let quoted_or_nested =
        item.starts_with(['\'', '"', '{', '[', '(', '-']) || item.contains(['(', '{', '[']);
    if item.is_empty()
        || quoted_or_nested
        || literal.contains(&item)
        || item.parse::<f64>().is_ok()
        || item.ends_with('n') && item[..item.len() - 1].parse::<i64>().is_ok()
    {
        return item.to_string();
    }
    format!("'{}'", item.replace('\'', "\\'"))
}

/// `a, {b, c}, 'd, e'` split at its top-level commas.
fn top_level(body: &str) -> Vec<&str> {
    let mut out = vec![];
    let (mut depth, mut quote, mut start) = (0i32, None, 0);
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '{' | '[' | '(') => depth += 1,
            (None, '}' | ']' | ')') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(body[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = body[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// `(n) [...]` split into n and the list.
fn array_count(value: &str) -> Option<(usize, &str)> {
    let rest = value.strip_prefix('(')?;
    let (n, list) = rest.split_once(") ")?;
    list.starts_with('[').then_some(())?;
    Some((n.parse().ok()?, list))
}

/// Every single-quoted string literal in `text` as a double-quoted one;
/// text already in double quotes is left as it is.
fn double_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                out.push('"');
                while let Some(d) = chars.next() {
                    match d {
                        '\\' => match chars.next() {
                            Some('\'') => out.push('\''),
                            Some(e) => {
                                out.push('\\');
                                out.push(e);
                            }
                            None => out.push('\\'),
                        },
                        '\'' => break,
                        '"' => out.push_str("\\\""),
                        _ => out.push(d),
                    }
                }
                out.push('"');
            }
            '"' => {
                out.push('"');
                while let Some(d) = chars.next() {
                    out.push(d);
                    match d {
                        '\\' => {
                            if let Some(e) = chars.next() {
                                out.push(e);
                            }
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            // The preview's elision, as the viewport writes its own.
            '…' => out.push_str("..."),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nested_array_is_its_length_not_a_call() {
        use crate::adapters::value::testing::var;
        let order = JavaScript.value(&var("order", "Object", "{id: 7, tags: Array(2)}"));
        let Value::Object { fields, .. } = order else {
            panic!("an object")
        };
        assert_eq!(
            fields[1].1,
            Value::Seq {
                type_name: "Array".into(),
                open: '[',
                close: ']',
                items: vec![],
                count: Count::Exact(2)
            }
        );
        // Such a preview has its children read, to show them where they fit.
        for elided in ["{id: 7, tags: Array(2)}", "{a: {...}}", "[1, 2, …]"] {
            assert!(JavaScript.needs_children(elided, false), "{elided}");
        }
        for whole in ["{id: 7}", "'Array(2)'", "[1, 2] (2 items)"] {
            assert!(!JavaScript.needs_children(whole, false), "{whole}");
        }
    }

    #[test]
    fn previews_become_values() {
        use crate::adapters::value::testing::{text, var};
        let v = |t: &str, s: &str| JavaScript.value(&var("x", t, &preview(s, t)));
        assert_eq!(v("undefined", "undefined"), Value::nil("undefined"));
        assert_eq!(v("string", "'spike'"), text("spike"));
        assert_eq!(
            v("Object", "{name: 'spike', n: 3}"),
            Value::Object {
                type_name: "Object".into(),
                fields: vec![
                    ("name".into(), text("spike")),
                    ("n".into(), Value::atom("3"))
                ],
                more: false
            }
        );
    }

    /// Values as js-debug v1.112 sent them (the recorded sessions).
    #[test]
    fn previews_read_as_the_viewport_writes_values() {
        assert_eq!(preview("'spike'", "string"), "\"spike\"");
        assert_eq!(preview("(3) [1, 2, 3]", "Array"), "[1, 2, 3] (3 items)");
        assert_eq!(preview("(1) ['a']", "Array"), "[\"a\"] (1 item)");
        assert_eq!(
            preview("{name: 'spike', n: 3}", "Object"),
            "{name: \"spike\", n: 3}"
        );
        assert_eq!(
            preview("Map(1) {'apples' => 3}", "Map"),
            "Map(1) {\"apples\" => 3}"
        );
        // As a live stop's variables list them.
        assert_eq!(
            preview("Map(1) {size: 1, apples => 3}", "Map"),
            "Map(1) {\"apples\" => 3}"
        );
        assert_eq!(
            preview("Map(2) {size: 2, 1 => {…}, 'a b' => [1]}", "Map"),
            "Map(2) {1 => {...}, \"a b\" => [1]}"
        );
        assert_eq!(
            preview("Set(3) {size: 3, x, 2, true}", "Set"),
            "Set(3) {\"x\", 2, true}"
        );
        assert_eq!(preview("Map(0) {size: 0}", "Map"), "Map(0) {}");
        assert_eq!(
            preview("(3) [{…}, {…}, {…}]", "Array"),
            "[{...}, {...}, {...}] (3 items)"
        );
        assert_eq!(preview("'wait…'", "string"), "\"wait…\"");
        assert_eq!(preview("undefined", "undefined"), "undefined");
        assert_eq!(preview("null", "object"), "null");
        assert_eq!(preview("0", "number"), "0");
        assert_eq!(
            preview(
                "ƒ add(a, b) {\n  const c = a + b;              // line 2\n  return c;\n}",
                "Function"
            ),
            "<function add>"
        );
        assert_eq!(preview("class Item {", "Function"), "class Item");
        assert_eq!(
            preview("class Sub extends Item {}", "Function"),
            "class Sub extends Item"
        );
        assert_eq!(preview("class {}", "Function"), "class");
        assert_eq!(preview("classify(x) {", "Function"), "<function classify>");
        // Quotes inside strings survive the change of quote.
        assert_eq!(preview(r"'it\'s'", "string"), "\"it's\"");
        assert_eq!(preview("'say \"hi\"'", "string"), r#""say \"hi\"""#);
        assert_eq!(preview(r#"{a: "it's"}"#, "Object"), r#"{a: "it's"}"#);
    }

    #[test]
    fn frames_errors_and_hidden_names() {
        let js = JavaScript;
        assert_eq!(js.frame_name("global.main"), "main");
        assert_eq!(js.frame_name("<anonymous>"), "<anonymous>");
        assert_eq!(js.frame_name("Module._compile"), "Module._compile");
        assert_eq!(
            js.frame_name("function Module(id = '', parent) {.executeUserEntryPoint"),
            "Module.executeUserEntryPoint"
        );
        assert_eq!(
            js.evaluation_error(
                "Uncaught TypeError TypeError: Cannot read properties of undefined (reading 'field')\n    at eval (repl:1:14)\n"
            ),
            "TypeError: Cannot read properties of undefined (reading 'field')"
        );
        assert_eq!(js.evaluation_error("x is not defined"), "x is not defined");
        let parts = |id: &str, d: &str| js.exception_parts(id, d);
        assert_eq!(
            parts("RangeError: bad size", ""),
            ("RangeError".into(), "bad size".into())
        );
        assert_eq!(parts("oops", ""), ("oops".into(), String::new()));
        assert_eq!(
            parts("not a type: x", ""),
            ("not a type: x".into(), String::new())
        );
        assert!(js.is_shown("this", "Circle"));
        assert!(!js.is_shown("this", "global") && !js.is_shown("this", "undefined"));
        assert!(!js.is_shown("[[Prototype]]", "Object"));
        assert!(js.needs_children("Circle", false));
        assert!(!js.needs_children("{id: 482}", false));
        assert!(!js.needs_children("NaN", false) && !js.needs_children("\"Circle\"", false));
        assert!(js.is_hidden_group("[[Prototype]]") && !js.is_hidden_group("this"));
        assert!(js.is_shown("items", "(3) [1, 2, 3]"));
        assert_eq!(
            js.path_expression("info.items[0]").as_deref(),
            Some("info.items[0]")
        );
        assert!(js.is_runtime_frame(
            "Module._load",
            Some("<node_internals>/internal/modules/cjs/loader")
        ));
    }
}
