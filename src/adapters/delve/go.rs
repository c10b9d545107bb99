//! What Go means to the engine: a function's parameters read from its
//! `func` line (receiver first, grouped names sharing a type), paths as Go
//! selectors, assignment through DAP, and delve's values that say too little.

use crate::adapters::language::{Language, SetVariable, c_like_path, split_path};
use crate::adapters::native_trace::{self, Dialect};
use crate::adapters::value::{Layout, Raw, Value, text_value};

pub struct Go;

/// delve's log messages: the text is a `%` format, and a value that failed
/// reads `{eval err: …}` with the error printed through a mismatched verb
/// (`&{%!e(string=could not find symbol value for x)}`).
const LOG_MESSAGE: Dialect = Dialect {
    escape: |text| text.replace('%', "%%"),
    error: |value| {
        let inner = value.strip_prefix("{eval err: ")?;
        Some(delve_error_text(inner.strip_suffix('}').unwrap_or(inner)))
    },
};

/// The words of an error delve printed with `%e`: after the last
/// `%!e(Type=`, without the wrapping brackets, braces and a scanner's
/// position (`{ 0 1 1} `).
fn delve_error_text(printed: &str) -> String {
    let Some(at) = printed.rfind("%!e(") else {
        return printed.trim().to_string();
    };
    let after = &printed[at..];
    let words = after.split_once('=').map_or(after, |(_, w)| w);
    let words = words.trim_end_matches([')', ']', '}']);
    let words = words.trim_start_matches(['&', '{']);
    let words = match words.split_once("} ") {
        Some((pos, rest)) if pos.chars().all(|c| c.is_ascii_digit() || c == ' ') => rest,
        _ => words,
    };
    words.trim().to_string()
}

impl Language for Go {
    fn plain_words(&self) -> &'static [&'static str] {
        &["nil", "true", "false", "\"\"", "0x0"]
    }

    /// A panic is raised inside the runtime (`runtime.gopanic`,
    /// `runtime.panicIndex`); its cause is in the program's frame below.
    fn is_runtime_frame(&self, name: &str, _file: Option<&str>) -> bool {
        name.starts_with("runtime.")
    }

    fn parameters(&self, lines: &[String], function: &str, line: u64) -> Option<Vec<String>> {
        parameters(lines, function, line)
    }

    /// delve's text names the type and holds the fields and first items;
    /// children, where read, are a map's entries, a slice's elements or a
    /// struct's fields by the type.
    fn value(&self, raw: &dyn Raw) -> Value {
        let t = raw.type_name();
        if let Some(children) = raw.children() {
            let bare = t.trim_start_matches('*');
            let layout = if bare.starts_with("map[") {
                Layout::Map
            } else if bare.starts_with('[') {
                Layout::Seq('[', ']')
            } else {
                Layout::Object
            };
            return crate::adapters::value::from_children(raw, &children, Some(layout), &|c| {
                crate::adapters::value::child_value(c, self)
            });
        }
        let text = raw.text().trim();
        if let Some(v) = super::typed::value(text, t) {
            return v;
        }
        if let Some(n) = byte_number(text) {
            return Value::atom(n);
        }
        text_value(text, raw.truncated(), raw.length()).unwrap_or_else(|| Value::atom(text))
    }

    /// delve names a frame as Go does, without parameters: a method's
    /// parentheses hold its receiver (`main.(*Circle).Area`) and stay.
    fn frame_name(&self, raw: &str) -> String {
        raw.trim().to_string()
    }

    fn frame_name_typed(
        &self,
        name: &str,
        lines: &[String],
        line: u64,
        locals: &[(&str, &str)],
    ) -> Option<String> {
        super::generics::frame_name(name, lines, line, locals)
    }

    fn thread_name_at_stop(&self, thread: &str, top_frame: &str) -> Option<String> {
        super::generics::thread_name(thread, top_frame)
    }

    fn side_effect(&self, expression: &str) -> Option<String> {
        crate::adapters::side_effects::scan(expression, &super::pure_calls::GO)
    }

    /// delve evaluates a function call only in its `call` form; the
    /// built-ins and conversions need none.
    fn call_form(&self, expression: &str) -> Option<String> {
        let calls = self
            .side_effect(expression)
            .is_some_and(|what| what.starts_with("calls "));
        let written = expression.trim_start().starts_with("call ");
        (calls && !written).then(|| format!("call {expression}"))
    }

    fn path_expression(&self, path: &str) -> Option<String> {
        c_like_path(&split_path(path))
    }

    /// delve's setVariable reports a bad value (`can not convert "x"
    /// constant to int`) as an error, so DAP is safe to use.
    fn set_variable(&self) -> SetVariable {
        SetVariable::Dap
    }

    /// delve's value text renders on its own: a struct's fields, a slice's
    /// length and leading items, a pointer's target, with what it left at
    /// a depth (`(*main.Item)(0xc0000ac000)`) shown as `<Item>` anyway. Only
    /// a value cut to our storage cap, or one delve did not load at the top
    /// level, is read through its children.
    fn needs_children(&self, value: &str, truncated: bool) -> bool {
        value.is_empty() || truncated || value.starts_with("(*") && value.contains(")(0x")
    }

    /// Nested, an unloaded pointer shows as `<Item>` from its own text.
    fn needs_children_when_nested(&self, value: &str, truncated: bool) -> bool {
        value.is_empty() || truncated
    }

    fn log_message(&self, template: &str) -> String {
        native_trace::log_message(template, &LOG_MESSAGE)
    }

    fn trace_record(&self, message: &str) -> String {
        native_trace::record(message, &LOG_MESSAGE)
    }

    fn log_message_note(&self) -> Option<&'static str> {
        Some(native_trace::NOTE)
    }

    /// `Unable to evaluate expression: could not find symbol value for x`:
    /// the part after delve's prefix is the reason.
    fn evaluation_error(&self, message: &str) -> String {
        let m = message.trim();
        match m.split_once(": ") {
            Some((head, rest)) if head.starts_with("Unable to") => rest.trim().to_string(),
            _ => m.to_string(),
        }
    }
}

/// delve writes a byte with its hex beside it (`2 = 0x2`): the number.
fn byte_number(text: &str) -> Option<&str> {
    let (n, hex) = text.split_once(" = 0x")?;
    (n.parse::<i64>().is_ok() && hex.chars().all(|c| c.is_ascii_hexdigit())).then_some(n)
}

/// The bare name a frame's function has in its source: `Total` for
/// `main.(*Cart).Total`, `add` for `example.com/m/pkg.add`; None for
/// closures (`main.main.func1`), which have no `func` line of that name.
fn source_name(function: &str) -> Option<String> {
    // A generic's type arguments (`Sum[go.shape.int]`) are not its name.
    let mut bare = String::new();
    let mut depth = 0;
    for c in function.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ if depth == 0 => bare.push(c),
            _ => {}
        }
    }
    let last = bare.rsplit('/').next().unwrap_or(&bare);
    let name = last.rsplit('.').next()?;
    let is_closure = name.starts_with("func") && name[4..].chars().all(|c| c.is_ascii_digit());
    (!name.is_empty() && !is_closure).then(|| name.to_string())
}

/// The parameter names (receiver first) of the function whose body holds `line`.
fn parameters(lines: &[String], function: &str, line: u64) -> Option<Vec<String>> {
    let name = source_name(function)?;
    let text = signature(lines, function, line)?;
    let rest = text.trim_start().strip_prefix("func")?.trim_start();
    let mut out = vec![];
    let rest = if rest.starts_with('(') {
        let (receiver, after) = group(rest)?;
        out.extend(names(receiver));
        after.trim_start()
    } else {
        rest
    };
    let rest = rest.strip_prefix(name.as_str())?.trim_start();
    // Type parameters `[T any]` come before the parameters.
    let rest = if rest.starts_with('[') {
        group(rest)?.1
    } else {
        rest
    };
    let (params, _) = group(rest.trim_start())?;
    out.extend(names(params));
    Some(out)
}

/// The text of the `func` line (and the lines its parameters run on) of
/// the function whose body holds `line`.
pub(super) fn signature(lines: &[String], function: &str, line: u64) -> Option<String> {
    let name = source_name(function)?;
    let name = name.as_str();
    let end = (line as usize).min(lines.len());
    let at = (0..end).rev().find(|&i| {
        let Some(rest) = lines[i].trim_start().strip_prefix("func") else {
            return false;
        };
        let rest = rest.trim_start();
        // Skip a receiver `(c *Cart)`.
        let rest = if rest.starts_with('(') {
            match group(rest) {
                Some((_, after)) => after.trim_start(),
                None => return false,
            }
        } else {
            rest
        };
        rest.strip_prefix(name)
            .is_some_and(|r| r.trim_start().starts_with(['(', '[']))
    })?;
    // A signature may span lines; read until its parameter list closes.
    let mut text = String::new();
    for l in lines.iter().skip(at).take(20) {
        text.push_str(l);
        text.push(' ');
        if text.matches('(').count() >= 2 && text.matches('(').count() == text.matches(')').count()
        {
            break;
        }
    }
    Some(text)
}

/// The inside of the bracket group `s` opens with, and what follows it.
pub(super) fn group(s: &str) -> Option<(&str, &str)> {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((&s[1..i], &s[i + 1..]));
                }
            }
            _ => {}
        }
    }
    None
}

/// `a, b int, c ...string` → a, b, c. A list of types alone (`int, string`)
/// names nothing.
fn names(list: &str) -> Vec<String> {
    let mut parts = crate::adapters::signature::split_top_level(list, false);
    parts.retain(|p| !p.is_empty());
    if !parts.iter().any(|p| p.contains(char::is_whitespace)) {
        return vec![];
    }
    parts
        .iter()
        .filter_map(|p| p.split_whitespace().next())
        .filter(|n| *n != "_")
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delve_errors_in_their_own_words() {
        let missing = "&{%!e(string=could not find symbol value for nope)}";
        assert_eq!(
            delve_error_text(missing),
            "could not find symbol value for nope"
        );
        let syntax = "[%!e(*scanner.Error=&{{ 0 1 1} expected operand, found '{'})]";
        assert_eq!(delve_error_text(syntax), "expected operand, found '{'");
    }

    #[test]
    fn method_frames_keep_their_receiver() {
        assert_eq!(Go.frame_name("main.(*Circle).Area"), "main.(*Circle).Area");
        assert_eq!(Go.frame_name("main.Rect.Area"), "main.Rect.Area");
        assert_eq!(Go.frame_name("main.main.func1"), "main.main.func1");
    }

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn parameters_of_functions_and_methods() {
        let s = lines(
            "package main\n\nfunc add(a, b int, c string) int {\n\treturn a\n}\n\nfunc (c *Cart) Total(rate int,\n\tlabels ...string) int {\n\treturn 0\n}\n\nfunc anon(int, string) {\n}\n",
        );
        assert_eq!(parameters(&s, "main.add", 4).unwrap(), vec!["a", "b", "c"]);
        assert_eq!(
            parameters(&s, "main.(*Cart).Total", 9).unwrap(),
            vec!["c", "rate", "labels"]
        );
        assert_eq!(
            parameters(&s, "main.anon", 13).unwrap(),
            Vec::<String>::new()
        );
        assert!(parameters(&s, "main.main.func1", 4).is_none());
        assert!(parameters(&s, "example.com/x/pkg.missing", 4).is_none());
    }

    #[test]
    fn paths_values_and_errors() {
        let g = Go;
        assert_eq!(
            g.path_expression("cart.Items.0.Price").unwrap(),
            "cart.Items[0].Price"
        );
        assert_eq!(g.path_expression("os.Exit(1)"), None);
        assert!(g.needs_children("(*main.Item)(0xc0000ac000)", false));
        assert!(!g.needs_children("*main.User {ID: 482, Tier: \"gold\"}", false));
        assert!(!g.needs_children("*main.User nil", false));
        assert!(!g.needs_children("main.Item {Name: \"a\", Price: 1}", false));
        assert!(!g.needs_children("[]int len: 3, cap: 3, [1,2,3]", false));
        assert_eq!(
            g.evaluation_error(
                "Unable to evaluate expression: could not find symbol value for nosuch"
            ),
            "could not find symbol value for nosuch"
        );
    }
}
