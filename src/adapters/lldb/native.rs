//! What C, C++ and Rust mean to the engine under lldb: parameters read from
//! a `fn` or C declaration, C-like paths, lldb's summaries that say too
//! little, Rust's hashed symbol names, and a panic's message.

use crate::adapters::language::{Language, SetVariable, c_like_path, is_ident, split_path};
use crate::adapters::native_trace::{self, Dialect};
use crate::adapters::signature::{inside_parens, split_top_level};

pub struct Native;

/// lldb-dap's log messages: a backslash in the text starts an escape, and
/// a value that failed reads `<error: clang's message>`.
const LOG_MESSAGE: Dialect = Dialect {
    escape: |text| text.replace('\\', "\\\\"),
    error: |value| {
        let inner = value.strip_prefix("<error: ")?;
        let inner = inner.strip_suffix('>').unwrap_or(inner);
        Some(Native.evaluation_error(inner))
    },
};

impl Language for Native {
    fn parameters(&self, lines: &[String], function: &str, line: u64) -> Option<Vec<String>> {
        parameters(lines, function, line)
    }

    fn value(&self, raw: &dyn crate::adapters::value::Raw) -> crate::adapters::value::Value {
        super::value::value(raw, &|c| self.value(c))
    }

    fn static_locals(&self, lines: &[String], line: u64) -> Vec<String> {
        super::statics::static_locals(lines, line)
    }

    fn path_expression(&self, path: &str) -> Option<String> {
        c_like_path(&split_path(path))
    }

    /// lldb-dap's setVariable takes only literals; an assignment run in the
    /// frame takes any expression the language does (`total = total + 1`)
    /// and reports a bad one with the compiler's message.
    fn set_variable(&self) -> SetVariable {
        SetVariable::Assignment(|target, value| format!("{target} = ({value})"))
    }

    /// lldb summarises a struct by its type name (`point`,
    /// `shop::Item`), a Rust collection by its size (`size=3`), an array by
    /// its type (`int[3]`) and a pointer by its address: the children say
    /// more. Strings, numbers and `Some("yes")` say enough.
    fn needs_children(&self, value: &str, truncated: bool) -> bool {
        let v = value.trim();
        truncated
            || v.is_empty()
            || v.starts_with("size=")
            || (v.starts_with("0x")
                && !v.contains(['"', '\''])
                && !v[2..].chars().all(|c| c == '0'))
            || (is_type_name(v) && !is_std_internal(v))
    }

    /// Nested, a collection shows by its `size=N`; a struct or a pair
    /// whose summary is only its type is read, in the same batch as its
    /// siblings, so a list shows its first elements' fields.
    fn needs_children_when_nested(&self, value: &str, truncated: bool) -> bool {
        let v = value.trim();
        truncated || (is_type_name(v) && (!is_std_internal(v) || v.starts_with("std::pair<")))
    }

    /// lldb's clang errors carry a prefix (`<user expression 0>:1:1: `)
    /// and, for Rust, a line about falling back to C++; the `error:` line
    /// is the one worth reading.
    fn evaluation_error(&self, message: &str) -> String {
        let line = message
            .lines()
            .map(str::trim)
            .find(|l| l.contains("error: "))
            .map(|l| &l[l.find("error: ").unwrap_or(0) + "error: ".len()..])
            .or_else(|| message.lines().map(str::trim).find(|l| !l.is_empty()))
            .unwrap_or(message);
        strip_expression_prefix(line).trim().to_string()
    }

    fn frame_name(&self, raw: &str) -> String {
        frame_name(raw)
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

    fn exception_message(&self, output_tail: &str) -> Option<String> {
        panic_message(output_tail)
    }

    /// The C library's and the Rust standard library's own frames: a crash
    /// or panic is shown from the first frame of the program's own code.
    fn is_runtime_frame(&self, name: &str, file: Option<&str>) -> bool {
        let runtime_name = ["std::", "core::", "alloc::", "__rustc::", "rust_", "__GI_"]
            .iter()
            .any(|p| name.starts_with(p));
        match file {
            None => true,
            Some(f) => !f.starts_with('/') || f.starts_with("/rustc/") || runtime_name,
        }
    }
}

/// Whether a summary is only a type's name: `point`, `shop::Item`,
/// `int[3]`, `core::ops::range::Range<unsigned long>`.
/// A Rust standard-library type with no formatter of its own (a slice's
/// `Iter`, a `PhantomData`): its fields are the library's internals, worth
/// a read only when asked for, not in every stop's preview.
fn is_std_internal(v: &str) -> bool {
    ["core::", "alloc::", "std::"]
        .iter()
        .any(|p| v.starts_with(p))
}

fn is_type_name(v: &str) -> bool {
    let first = v.chars().next().unwrap_or('0');
    (first.is_alphabetic() || first == '_')
        && !matches!(v, "true" | "false" | "None")
        && v.chars()
            .all(|c| c.is_alphanumeric() || "_:<>[], *&".contains(c))
}

fn strip_expression_prefix(line: &str) -> &str {
    // `<user expression 3>:1:1: use of undeclared identifier 'x'`
    match line.strip_prefix("<user expression") {
        Some(rest) => rest
            .find(">:")
            .map(|i| &rest[i + 2..])
            .map(|r| r.trim_start_matches(|c: char| c.is_ascii_digit() || c == ':'))
            .unwrap_or(line),
        None => line,
    }
}

/// `shop::checkout::h2109f87a6b62cec5` → `shop::checkout`; a C++
/// `ns::f(int)` loses its parameter types.
pub fn frame_name(raw: &str) -> String {
    let decoded = decode_legacy(raw.trim());
    let mut name = decoded.as_str();
    if let Some(i) = name.rfind("::h") {
        let hash = &name[i + 3..];
        if hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()) {
            name = &name[..i];
        }
    }
    if !name.starts_with('<')
        && let Some(open) = name.find('(')
        && !name[..open].contains('<')
    {
        name = name[..open].trim_end();
    }
    name.to_string()
}

/// Rust's legacy symbol escapes: `RawVec$LT$T$C$A$GT$` → `RawVec<T,A>`.
fn decode_legacy(name: &str) -> String {
    if !name.contains('$') {
        return name.to_string();
    }
    let mut out = String::new();
    let mut rest = name;
    while let Some(start) = rest.find('$') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let Some(end) = after.find('$') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let code = &after[..end];
        let ch = match code {
            "LT" => Some('<'),
            "GT" => Some('>'),
            "C" => Some(','),
            "RF" => Some('&'),
            "BP" => Some('*'),
            "SP" => Some('@'),
            "LP" => Some('('),
            "RP" => Some(')'),
            _ => code
                .strip_prefix('u')
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .and_then(char::from_u32),
        };
        match ch {
            Some(c) => {
                out.push(c);
                rest = &after[end + 1..];
            }
            None => {
                out.push('$');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    // `_<alloc..vec..Vec<T> as core..ops..Deref>` → `<alloc::vec::Vec<T> as ..>`
    let out = out.replace("..", "::");
    match out.strip_prefix("_<") {
        Some(r) => format!("<{r}"),
        None => out,
    }
}

/// The message a Rust panic printed before it reached `rust_panic`:
/// `thread 'main' (12) panicked at src/main.rs:7:5:` then the message.
fn panic_message(tail: &str) -> Option<String> {
    let lines: Vec<&str> = tail.lines().collect();
    let at = lines.iter().rposition(|l| l.contains("panicked at"))?;
    let head = lines[at];
    let location = head.split("panicked at").nth(1).unwrap_or("").trim();
    let message: Vec<&str> = lines[at + 1..]
        .iter()
        .map(|l| l.trim_end())
        .take_while(|l| !l.starts_with("note: ") && !l.starts_with("stack backtrace:"))
        .collect();
    let message = message.join("\n").trim().to_string();
    let location = location.trim_end_matches(':');
    Some(if message.is_empty() {
        location.to_string()
    } else {
        format!("{message} (at {location})")
    })
}

/// The parameter names of `function` (its last path segment) from the
/// nearest definition at or above `line`: Rust `fn name(..)` or a C
/// declaration starting in the first column.
fn parameters(lines: &[String], function: &str, line: u64) -> Option<Vec<String>> {
    let name = function.rsplit("::").next().unwrap_or(function);
    if !is_ident(name) {
        return None;
    }
    let end = (line as usize).min(lines.len());
    let (at, rust) = (0..end).rev().find_map(|i| {
        let l = &lines[i];
        let t = l.trim_start();
        let rust_def = t
            .find("fn ")
            .map(|k| t[k + 3..].trim_start())
            .and_then(|r| r.strip_prefix(name))
            .is_some_and(|r| r.starts_with('(') || r.starts_with('<'))
            && (t.starts_with("fn ") || t.contains(" fn "));
        if rust_def {
            return Some((i, true));
        }
        let c_def = !l.starts_with([' ', '\t', '#', '/', '*', '}'])
            && l.find(&format!("{name}("))
                .is_some_and(|k| k == 0 || !is_ident(&l[k - 1..k]))
            && !l.trim_end().ends_with(';');
        c_def.then_some((i, false))
    })?;
    let mut text = String::new();
    for l in lines.iter().skip(at).take(20) {
        text.push_str(l);
        text.push(' ');
        if text.matches('(').count() > 0 && text.matches('(').count() <= text.matches(')').count() {
            break;
        }
    }
    let start = text.find(name)? + name.len();
    let open = start + text[start..].find('(')?;
    let inner = inside_parens(&text[open..], true)?;
    let names = split_top_level(inner, true)
        .into_iter()
        .filter_map(|p| if rust { rust_param(p) } else { c_param(p) })
        .collect();
    Some(names)
}

fn rust_param(p: &str) -> Option<String> {
    let p = p.trim();
    if p.is_empty() {
        return None;
    }
    let pat = split_top_at(p, ':').unwrap_or(p).trim();
    let pat = pat.trim_start_matches('&').trim_start();
    let pat = pat.strip_prefix("mut ").unwrap_or(pat).trim();
    let pat = pat.strip_prefix("'").map(|_| "self").unwrap_or(pat);
    (!pat.is_empty()).then(|| pat.to_string())
}

fn c_param(p: &str) -> Option<String> {
    let p = p.trim();
    if p.is_empty() || p == "void" || p == "..." {
        return None;
    }
    // `int (*cb)(int)`: the name sits after `(*`.
    if let Some(k) = p.find("(*") {
        let rest = &p[k + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        return Some(rest[..end].trim().to_string());
    }
    let p = p.split('[').next().unwrap_or(p);
    let p = p.split('=').next().unwrap_or(p).trim_end();
    let start = p
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map(|i| i + 1)
        .unwrap_or(0);
    let name = &p[start..];
    is_ident(name).then(|| name.to_string())
}

/// The part of `s` before its first top-level `sep`.
fn split_top_at(s: &str, sep: char) -> Option<&str> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            c if c == sep && depth == 0 => return Some(&s[..i]),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn c_parameters_are_the_last_identifiers() {
        let s = lines(
            "static int add(int a, int b) {\n    return add(a, b);\n}\nvoid show(const char *label,\n          struct point *p, int xs[], void (*cb)(int)) {\n    x();\n}\nint main(void) {\n  return 0;\n}\n",
        );
        assert_eq!(parameters(&s, "add", 2).unwrap(), vec!["a", "b"]);
        assert_eq!(
            parameters(&s, "show", 6).unwrap(),
            vec!["label", "p", "xs", "cb"]
        );
        assert_eq!(parameters(&s, "main", 9).unwrap(), Vec::<String>::new());
        assert!(parameters(&s, "nope", 9).is_none());
    }

    #[test]
    fn rust_parameters_are_the_patterns() {
        let s = lines(
            "impl Cart {\n    pub fn total(&self, mut tax: f64, items: &[Item<'_>]) -> f64 {\n        0.0\n    }\n}\nfn add<T: Copy>(a: T, b: HashMap<u8, u8>) -> T {\n    a\n}\n",
        );
        assert_eq!(
            parameters(&s, "shop::Cart::total", 3).unwrap(),
            vec!["self", "tax", "items"]
        );
        assert_eq!(parameters(&s, "shop::add", 7).unwrap(), vec!["a", "b"]);
    }

    #[test]
    fn names_values_and_errors() {
        assert_eq!(
            frame_name("shop::checkout::h2109f87a6b62cec5"),
            "shop::checkout"
        );
        assert_eq!(frame_name("ns::f(int, char const*)"), "ns::f");
        assert_eq!(
            frame_name("alloc::raw_vec::RawVec$LT$T$C$A$GT$::ptr::h0123456789abcdef"),
            "alloc::raw_vec::RawVec<T,A>::ptr"
        );
        assert_eq!(
            frame_name("std::rt::lang_start::_$u7b$$u7b$closure$u7d$$u7d$::h49cc7682e8a232cd"),
            "std::rt::lang_start::_{{closure}}"
        );
        assert_eq!(
            frame_name(
                "_$LT$alloc..vec..Vec$LT$T$C$A$GT$$u20$as$u20$core..ops..deref..Deref$GT$::deref::h0123456789abcdef"
            ),
            "<alloc::vec::Vec<T,A> as core::ops::deref::Deref>::deref"
        );
        assert_eq!(
            frame_name("<&dyn core::ops::function::Fn<(), Output = i32>>::call_once"),
            "<&dyn core::ops::function::Fn<(), Output = i32>>::call_once"
        );
        let n = Native;
        for v in ["point", "shop::Item", "int[3]", "size=3", "0x00007ffc", ""] {
            assert!(n.needs_children(v, false), "{v}");
        }
        for v in [
            "\"spike\"",
            "3",
            "Some(\"yes\")",
            "0x0000555555556004 \"origin\"",
            "'a'",
            "true",
            "core::slice::iter::Iter<shop::Item>",
            "core::marker::PhantomData<u8>",
        ] {
            assert!(!n.needs_children(v, false), "{v}");
        }
        assert_eq!(
            n.evaluation_error("Expression evaluation in Rust not supported.\nerror: <user expression 3>:1:1: use of undeclared identifier 'nosuch'\n    1 | nosuch\n"),
            "use of undeclared identifier 'nosuch'"
        );
        assert_eq!(
            panic_message(
                "x\nthread 'main' (5) panicked at src/main.rs:7:39:\nbad total 5\nnote: run with\n"
            )
            .unwrap(),
            "bad total 5 (at src/main.rs:7:39)"
        );
    }
}
