//! What Ruby means to the engine: a method's parameters read from its
//! `def`, what may change the program, and rdbg's value texts (Ruby's own
//! `inspect`: `nil`, `"x"`, `:x`, `[1, 2]`, `{"a"=>1}`,
//! `#<Order:0x… @id=1, @total=9.5>`) turned into value trees.

use crate::adapters::language::{Language, SetVariable, c_like_path, split_path};
use crate::adapters::value::{self, Count, Raw, Value, text_value};

use super::pure_calls::{PURE_METHODS, RUBY};

pub struct Ruby;

impl Language for Ruby {
    fn plain_words(&self) -> &'static [&'static str] {
        &["nil", "true", "false", "\"\""]
    }

    fn parameters(&self, lines: &[String], function: &str, line: u64) -> Option<Vec<String>> {
        parameters(lines, function, line)
    }

    fn opens_function(&self, line: &str) -> bool {
        line.starts_with("def ")
    }

    fn path_expression(&self, path: &str) -> Option<String> {
        c_like_path(&split_path(path))
    }

    fn side_effect(&self, expression: &str) -> Option<String> {
        side_effect(expression)
    }

    /// rdbg has no `setVariable`: the assignment runs in the frame.
    fn set_variable(&self) -> SetVariable {
        SetVariable::Assignment(|target, value| format!("{target} = ({value})"))
    }

    /// `inspect` writes the whole value; only a cut text needs its parts.
    fn needs_children(&self, _value: &str, truncated: bool) -> bool {
        truncated
    }

    fn value(&self, raw: &dyn Raw) -> Value {
        let text = raw.text().trim();
        if raw.truncated() {
            if let Some(v) = text_value(text, true, raw.length()) {
                return v;
            }
            if let Some(children) = raw.children() {
                return value::from_children(raw, &children, None, &|c| {
                    value::child_value(c, self)
                });
            }
        }
        let mut v = parse(text, raw.type_name());
        // rdbg counts an array's items even where the text was cut.
        if let (Value::Seq { count, .. }, Some(n)) = (&mut v, raw.indexed()) {
            *count = Count::Exact(n);
        }
        v
    }

    fn exception_parts(&self, id: &str, description: &str) -> (String, String) {
        match exception(description) {
            Some((t, m)) => (t, m),
            None => (id.to_string(), description.to_string()),
        }
    }

    fn same_exception_type(&self, a: &str, b: &str) -> bool {
        a == b || a.rsplit("::").next() == b.rsplit("::").next()
    }
}

/// `("RuntimeError", "out of stock")` from rdbg's exception stop,
/// `#<RuntimeError: out of stock> is raised.`
pub fn exception(description: &str) -> Option<(String, String)> {
    let inner = description
        .trim()
        .strip_suffix(" is raised.")?
        .strip_prefix("#<")?
        .strip_suffix('>')?;
    Some(match inner.split_once(": ") {
        Some((t, m)) => (t.to_string(), m.to_string()),
        None => (inner.to_string(), String::new()),
    })
}

/// What in `expr` may change the program: a method after a dot that is
/// not known to only read, then what the common scan finds (assignments,
/// calls with parentheses, statements).
pub fn side_effect(expr: &str) -> Option<String> {
    let chars: Vec<char> = expr.chars().collect();
    let mut plain = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' || c == '\'' {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i] != c {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(chars.len());
            plain.extend(&chars[start..i]);
            continue;
        }
        if c == '.'
            && chars
                .get(i + 1)
                .is_some_and(|n| n.is_alphabetic() || *n == '_')
        {
            let start = i + 1;
            let mut end = start;
            while end < chars.len() && (chars[end].is_alphanumeric() || chars[end] == '_') {
                end += 1;
            }
            // `empty?` and `sort!` are names; `a.b != c` is not.
            if end < chars.len()
                && matches!(chars[end], '?' | '!')
                && chars.get(end + 1) != Some(&'=')
            {
                end += 1;
            }
            let name: String = chars[start..end].iter().collect();
            if !PURE_METHODS.contains(&name.as_str()) {
                return Some(format!("calls `{name}`"));
            }
            plain.push('.');
            plain.push_str(name.trim_end_matches(['?', '!']));
            i = end;
            continue;
        }
        if c == '<' && chars.get(i + 1) == Some(&'<') {
            return Some("appends with `<<`".into());
        }
        plain.push(c);
        i += 1;
    }
    crate::adapters::side_effects::scan(&plain, &RUBY)
}

/// A value from Ruby's `inspect` text.
pub fn parse(text: &str, type_name: &str) -> Value {
    let t = text.trim();
    if t == "nil" {
        return Value::nil("nil");
    }
    if t.starts_with('"')
        && let Some(v) = text_value(t, false, None)
    {
        return v;
    }
    if let Some(inner) = t.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        let items: Vec<Value> = split_top(inner).iter().map(|i| parse(i, "")).collect();
        let n = items.len();
        return Value::Seq {
            type_name: or(type_name, "Array"),
            open: '[',
            close: ']',
            items,
            count: Count::Exact(n),
        };
    }
    if let Some(inner) = t.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
        let entries: Option<Vec<(Value, Value)>> = split_top(inner)
            .iter()
            .map(|e| pair(e).map(|(k, v)| (parse(&k, ""), parse(v, ""))))
            .collect();
        if let Some(entries) = entries {
            let n = entries.len();
            return Value::Map {
                type_name: or(type_name, "Hash"),
                entries,
                count: Count::Exact(n),
            };
        }
    }
    if let Some(inner) = t.strip_prefix("#<").and_then(|s| s.strip_suffix('>')) {
        return object(inner).unwrap_or_else(|| Value::described(t));
    }
    Value::atom(t)
}

fn or(type_name: &str, default: &str) -> String {
    match type_name {
        "" => default.to_string(),
        t => t.to_string(),
    }
}

/// `Order:0x000… @id=1, @total=9.5` or `struct Point x=1, y=2` as an
/// object; None for what is no such listing (`#<Proc:0x… t.rb:3>`).
fn object(inner: &str) -> Option<Value> {
    let (type_name, rest) = match inner.strip_prefix("struct ") {
        Some(s) => s.split_once(' ').unwrap_or((s, "")),
        None => {
            let (name, rest) = inner.split_once(':').unwrap_or((inner, ""));
            let rest = rest.trim_start_matches(|c: char| c.is_ascii_hexdigit() || c == 'x');
            (name, rest)
        }
    };
    if type_name.is_empty()
        || !type_name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
    {
        return None;
    }
    let rest = rest.trim();
    let mut fields = vec![];
    if !rest.is_empty() {
        for f in split_top(rest) {
            let (name, v) = f.split_once('=')?;
            let name = name.trim().trim_start_matches('@');
            if name.is_empty() || name.contains(' ') {
                return None;
            }
            fields.push((name.to_string(), parse(v, "")));
        }
    }
    Some(Value::Object {
        type_name: type_name.to_string(),
        fields,
        more: false,
    })
}

/// `"a"=>1` or `a: 1` as key and value texts.
fn pair(entry: &str) -> Option<(String, &str)> {
    let at = top_index(entry, "=>");
    if let Some(at) = at {
        return Some((entry[..at].trim().to_string(), entry[at + 2..].trim()));
    }
    let (k, v) = entry.split_once(": ")?;
    (!k.is_empty() && k.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .then(|| (format!(":{k}"), v.trim()))
}

/// Where `needle` first occurs outside strings and brackets.
fn top_index(s: &str, needle: &str) -> Option<usize> {
    scan_top(s)
        .into_iter()
        .find(|&i| s[i..].starts_with(needle))
}

/// Splits at commas outside strings and brackets (`[`, `{`, `(`, `#<`).
fn split_top(s: &str) -> Vec<&str> {
    let s = s.trim();
    if s.is_empty() {
        return vec![];
    }
    let mut out = vec![];
    let mut start = 0;
    for i in scan_top(s) {
        if s.as_bytes()[i] == b',' {
            out.push(s[start..i].trim());
            start = i + 1;
        }
    }
    out.push(s[start..].trim());
    out
}

/// The byte offsets of `s` at its top level: outside string literals and
/// any bracket.
fn scan_top(s: &str) -> Vec<usize> {
    let bytes = s.as_bytes();
    let mut open: Vec<u8> = vec![];
    let mut out = vec![];
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'[' | b'{' | b'(' => open.push(c),
            b'<' if i > 0 && bytes[i - 1] == b'#' => open.push(c),
            b']' | b'}' | b')' => {
                open.pop();
            }
            b'>' if open.last() == Some(&b'<') && !(i > 0 && bytes[i - 1] == b'=') => {
                open.pop();
            }
            _ if open.is_empty() => out.push(i),
            _ => {}
        }
        i += 1;
    }
    out
}

/// The parameter names of the method (`Order#total` → `total`) whose body
/// holds `line`: from the nearest `def` of it above the line.
fn parameters(lines: &[String], function: &str, line: u64) -> Option<Vec<String>> {
    let name = function.rsplit(['#', '.']).next()?.trim();
    if name.is_empty() || name.contains(' ') || name.starts_with('<') {
        return None;
    }
    let last = usize::try_from(line).ok()?.min(lines.len());
    let def = (0..last).rev().find_map(|i| {
        let l = lines[i].trim_start().strip_prefix("def ")?;
        let l = l.strip_prefix("self.").unwrap_or(l);
        l.strip_prefix(name)
            .filter(|r| r.is_empty() || r.starts_with(['(', ' ']))
    })?;
    let list = def.trim();
    let list = match list.strip_prefix('(') {
        Some(l) => l.split(')').next().unwrap_or(l),
        None => list,
    };
    Some(
        list.split(',')
            .map(|p| p.split(['=', ':']).next().unwrap_or(p).trim())
            .map(|p| p.trim_start_matches(['*', '&']))
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ruby_values() {
        assert_eq!(parse("nil", "NilClass"), Value::nil("nil"));
        assert_eq!(parse(":pending", "Symbol"), Value::atom(":pending"));
        match parse("[1, \"a, b\", nil]", "Array") {
            Value::Seq { items, count, .. } => {
                assert_eq!(count, Count::Exact(3));
                assert_eq!(items[2], Value::nil("nil"));
            }
            other => panic!("{other:?}"),
        }
        match parse("{\"widget\"=>3, :b=>[1, 2]}", "Hash") {
            Value::Map { entries, .. } => {
                assert_eq!(entries.len(), 2);
                assert_eq!(entries[1].0, Value::atom(":b"));
            }
            other => panic!("{other:?}"),
        }
        match parse("#<Order:0x00007f1c @id=1, @total=9.5, @tags=[:a]>", "Order") {
            Value::Object {
                type_name, fields, ..
            } => {
                assert_eq!(type_name, "Order");
                assert_eq!(fields[0], ("id".to_string(), Value::atom("1")));
                assert_eq!(fields[1], ("total".to_string(), Value::atom("9.5")));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse("#<Proc:0x0000 t.rb:3 (lambda)>", "Proc"),
            Value::Described { .. }
        ));
    }

    #[test]
    fn reading_methods_run_freely() {
        assert_eq!(side_effect("items.length > 2 && stock.empty?"), None);
        assert_eq!(side_effect("stock.include?(\"widget\")"), None);
        assert_eq!(side_effect("total.round(1)"), None);
        assert_eq!(side_effect("x != 1"), None);
        assert_eq!(side_effect("items.clear").as_deref(), Some("calls `clear`"));
        assert_eq!(side_effect("items.sort!").as_deref(), Some("calls `sort!`"));
        assert_eq!(
            side_effect("items << 1").as_deref(),
            Some("appends with `<<`")
        );
        assert!(side_effect("x = 5").is_some());
        assert!(side_effect("charge(order)").is_some());
    }

    #[test]
    fn reads_exceptions_and_parameters() {
        assert_eq!(
            exception("#<RuntimeError: out of stock: widget> is raised."),
            Some(("RuntimeError".into(), "out of stock: widget".into()))
        );
        let lines: Vec<String> = [
            "class Shop",
            "  def add(item, qty = 1)",
            "    x = 1",
            "  end",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            parameters(&lines, "Shop#add", 3),
            Some(vec!["item".to_string(), "qty".to_string()])
        );
        assert_eq!(parameters(&lines, "<main>", 3), None);
    }
}
