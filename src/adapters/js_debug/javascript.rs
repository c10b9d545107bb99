//! JavaScript and TypeScript as js-debug shows them, rewritten to the
//! viewport's rules: strings in double quotes, arrays with their count
//! after them, `global.` off frame names, the engine's internals hidden.

use crate::adapters::{Language, c_like_path, split_path};

pub struct JavaScript;

/// Children js-debug lists that are the engine's, not the program's.
const INTERNAL_GROUPS: &[&str] = &["[[Prototype]]", "[[Scopes]]", "[[FunctionLocation]]"];

impl Language for JavaScript {
    /// Not read from the source: each read of a caller's locals costs
    /// js-debug tens of milliseconds.
    fn parameters(&self, _lines: &[String], _function: &str, _line: u64) -> Option<Vec<String>> {
        None
    }

    /// `this` is the receiver every frame has, seldom what a person looks for.
    fn is_shown(&self, name: &str) -> bool {
        name != "this" && !self.is_hidden_group(name)
    }

    fn is_hidden_group(&self, name: &str) -> bool {
        INTERNAL_GROUPS.contains(&name)
    }

    fn path_expression(&self, path: &str) -> Option<String> {
        c_like_path(&split_path(path))
    }

    /// js-debug's previews already say what the children would.
    fn needs_children(&self, _value: &str, truncated: bool) -> bool {
        truncated
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

    fn frame_name(&self, raw: &str) -> String {
        raw.strip_prefix("global.").unwrap_or(raw).to_string()
    }

    fn is_runtime_frame(&self, _name: &str, file: Option<&str>) -> bool {
        file.is_some_and(|f| f.starts_with("<node_internals>") || f.starts_with("node:"))
    }
}

/// A js-debug value preview as the viewport writes values.
pub fn preview(value: &str, type_name: &str) -> String {
    if type_name == "Function" {
        let head = value.lines().next().unwrap_or_default();
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
    // `(3) [1, 2, 3]`: the count leads; the viewport says it after.
    if let Some((count, rest)) = array_count(value) {
        let items = if count == 1 { "item" } else { "items" };
        return format!("{} ({count} {items})", double_quoted(rest));
    }
    double_quoted(value)
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
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
            js.evaluation_error(
                "Uncaught TypeError TypeError: Cannot read properties of undefined (reading 'field')\n    at eval (repl:1:14)\n"
            ),
            "TypeError: Cannot read properties of undefined (reading 'field')"
        );
        assert_eq!(js.evaluation_error("x is not defined"), "x is not defined");
        assert!(!js.is_shown("this") && !js.is_shown("[[Prototype]]"));
        assert!(js.is_hidden_group("[[Prototype]]") && !js.is_hidden_group("this"));
        assert!(js.is_shown("items"));
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
