//! What Java means to the engine: a method's parameters read from its
//! declaration, paths as Java field and array accesses, and the server's
//! value texts (a collection's `ArrayList size=3`, an array's `int[3]`, a
//! user class's own `toString()`) turned into value trees.

use crate::adapters::language::{Language, SetVariable, c_like_path, split_path};
use crate::adapters::value::{self, Count, Layout, Raw, Value, text_value};

pub struct Java;

impl Language for Java {
    fn plain_words(&self) -> &'static [&'static str] {
        &["null", "true", "false", "\"\""]
    }

    fn parameters(&self, lines: &[String], function: &str, line: u64) -> Option<Vec<String>> {
        parameters(lines, function, line)
    }

    /// A main class runs as a module does (`module: shop.Main`).
    fn runs_modules(&self) -> bool {
        true
    }

    fn side_effect(&self, expression: &str) -> Option<String> {
        crate::adapters::side_effects::scan(expression, &super::pure_calls::JAVA)
    }

    fn path_expression(&self, path: &str) -> Option<String> {
        c_like_path(&split_path(path))
    }

    /// The server converts and checks the value and answers its error.
    fn set_variable(&self) -> SetVariable {
        SetVariable::Dap
    }

    /// A collection or array says only its size, an object with no
    /// `toString()` of its own only its type: their children say the rest.
    fn needs_children(&self, value: &str, truncated: bool) -> bool {
        truncated || sized(value).is_some()
    }

    fn needs_children_when_nested(&self, _value: &str, truncated: bool) -> bool {
        truncated
    }

    fn exact_count(&self, value: &str, _type_name: &str) -> Option<usize> {
        sized(value)
    }

    fn value(&self, raw: &dyn Raw) -> Value {
        let t = raw.type_name();
        let text = raw.text().trim();
        if let Some(children) = raw.children() {
            let short = value::short_type(t);
            let layout = if short.ends_with("Map") {
                Layout::Map
            } else if t.ends_with("[]") || sized(text).is_some() {
                Layout::Seq('[', ']')
            } else {
                Layout::Object
            };
            return value::from_children(raw, &children, Some(layout), &|c| {
                value::child_value(c, self)
            });
        }
        if text == "null" {
            return Value::nil("null");
        }
        if let Some(n) = sized(text) {
            return Value::Seq {
                type_name: t.to_string(),
                open: '[',
                close: ']',
                items: vec![],
                count: Count::Exact(n),
            };
        }
        if (text.starts_with('"') || (text.starts_with('\'') && t == "char"))
            && let Some(v) = text_value(text, raw.truncated(), raw.length())
        {
            return v;
        }
        if is_primitive(t) || value::short_type(t) == text {
            return match is_primitive(t) || is_boxed(t) {
                true => Value::atom(text),
                false => Value::unread_object(text),
            };
        }
        if is_boxed(t) {
            return Value::atom(text);
        }
        // The program's own toString(): shown as it wrote it.
        Value::described(text)
    }

    /// The server reads `{expr}`, `{{` and `}}` as documented; a failure
    /// shows its evaluator's message.
    fn log_message_note(&self) -> Option<&'static str> {
        Some(crate::adapters::native_trace::NOTE)
    }

    fn exception_type_shown(&self, type_name: &str) -> String {
        type_name.to_string()
    }

    fn same_exception_type(&self, a: &str, b: &str) -> bool {
        a == b || value::short_type(a) == value::short_type(b)
    }

    fn is_runtime_frame(&self, name: &str, file: Option<&str>) -> bool {
        file.is_none() && (name.contains('$') || name.starts_with("Thread."))
    }
}

/// The size the server wrote: `ArrayList size=3`, `int[3]`.
fn sized(text: &str) -> Option<usize> {
    if let Some((_, n)) = text.rsplit_once(" size=") {
        return n.parse().ok();
    }
    let open = text.find('[')?;
    let inner = text[open + 1..].strip_suffix(']')?;
    let head = &text[..open];
    (!head.is_empty()
        && head
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$'))
    .then(|| inner.parse().ok())
    .flatten()
}

fn is_primitive(t: &str) -> bool {
    matches!(
        t,
        "int" | "long" | "double" | "float" | "short" | "byte" | "char" | "boolean"
    )
}

fn is_boxed(t: &str) -> bool {
    matches!(
        t,
        "java.lang.Integer"
            | "java.lang.Long"
            | "java.lang.Double"
            | "java.lang.Float"
            | "java.lang.Short"
            | "java.lang.Byte"
            | "java.lang.Character"
            | "java.lang.Boolean"
    )
}

/// The parameter names of the method (`Order.withTax` → `withTax`) whose
/// body holds `line`: from the nearest declaration of it above the line.
fn parameters(lines: &[String], function: &str, line: u64) -> Option<Vec<String>> {
    let name = function.rsplit('.').next()?;
    if name.contains('$') || name.is_empty() {
        return None;
    }
    let last = usize::try_from(line).ok()?.min(lines.len());
    let open = format!("{name}(");
    let start = (0..last).rev().find(|&i| {
        let l = lines[i].trim_start();
        l.contains(&open) && !l.starts_with("return") && !l.ends_with(';') && !l.contains(" = ")
    })?;
    // A declaration may wrap: read on to its closing parenthesis.
    let text: String = lines[start..last.max(start + 1)].join(" ");
    let after = &text[text.find(&open)? + open.len()..];
    let mut depth = 0;
    let mut list = String::new();
    for c in after.chars() {
        match c {
            '(' | '<' => depth += 1,
            '>' => depth -= 1,
            ')' if depth == 0 => break,
            ')' => depth -= 1,
            _ => {}
        }
        list.push(if c == ',' && depth > 0 { ';' } else { c });
    }
    Some(
        list.split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .filter_map(|p| p.split_whitespace().last())
            .map(|n| n.trim_start_matches("...").to_string())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn reads_a_methods_parameters() {
        let src = lines(
            "class A {\n    static void audit(List<Order> orders, Map<String, Integer> stock, int... n) {\n        int seen = 1;\n    }\n    double withTax(double rate) {\n        return rate;\n    }\n}",
        );
        assert_eq!(
            parameters(&src, "A.audit", 3),
            Some(vec!["orders".into(), "stock".into(), "n".into()])
        );
        assert_eq!(parameters(&src, "A.withTax", 6), Some(vec!["rate".into()]));
        assert_eq!(parameters(&src, "A.lambda$main$0", 3), None);
    }

    #[test]
    fn reads_sizes() {
        assert_eq!(sized("ArrayList size=3"), Some(3));
        assert_eq!(sized("int[4]"), Some(4));
        assert_eq!(sized("Order{id=1, total=9.5}"), None);
        assert_eq!(sized("\"a[1]\""), None);
    }
}
