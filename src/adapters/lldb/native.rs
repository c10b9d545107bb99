//! What C, C++ and Rust mean to the engine under lldb: parameters read from
//! a `fn` or C declaration, C-like paths, lldb's summaries that say too
//! little, Rust's hashed symbol names, and a panic's message.

use crate::adapters::language::{Language, SetVariable, c_like_path, split_path};
use crate::adapters::native_code::{frame_name, panic_message, parameters};
use crate::adapters::native_trace::{self, Dialect};

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
    /// C's null pointer as lldb and gdb print it, Rust's `None`.
    fn plain_words(&self) -> &'static [&'static str] {
        crate::adapters::native_code::PLAIN_WORDS
    }

    fn opens_function(&self, line: &str) -> bool {
        crate::adapters::native_code::opens_rust_function(line)
    }

    fn parameters(&self, lines: &[String], function: &str, line: u64) -> Option<Vec<String>> {
        parameters(lines, function, line)
    }

    fn value(&self, raw: &dyn crate::adapters::value::Raw) -> crate::adapters::value::Value {
        super::value::value(raw, &|c| crate::adapters::value::child_value(c, self))
    }

    fn entry_members(&self, container_type: &str) -> Option<(&'static str, &'static str)> {
        super::maps::entry_members(container_type)
    }

    fn static_locals(&self, lines: &[String], line: u64) -> Vec<String> {
        super::statics::static_locals(lines, line)
    }

    fn path_expression(&self, path: &str) -> Option<String> {
        c_like_path(&split_path(path))
    }

    fn side_effect(&self, expression: &str) -> Option<String> {
        crate::adapters::native_pure_calls::side_effect(expression)
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
    /// and, for a language it cannot evaluate (Rust), a line saying it
    /// fell back to C++: the `error:` line is the one worth reading, and
    /// the fallback is said in front of it, since it is why the error came.
    fn evaluation_error(&self, message: &str) -> String {
        let line = message
            .lines()
            .map(str::trim)
            .find(|l| l.contains("error: "))
            .map(|l| &l[l.find("error: ").unwrap_or(0) + "error: ".len()..])
            .or_else(|| message.lines().map(str::trim).find(|l| !l.is_empty()))
            .unwrap_or(message);
        let line = strip_expression_prefix(line).trim();
        match unsupported_language(message) {
            // C read as C++ reads the same.
            Some(language) if language != "pure C" && !line.contains(" not supported") => {
                format!("lldb cannot evaluate {language} and read this as C++: {line}")
            }
            _ => line.to_string(),
        }
    }

    /// A clang error that is not about a name: a name may be unknown only
    /// in the frame it was checked in.
    fn expression_error(&self, message: &str) -> Option<String> {
        const NAMES: &[&str] = &[
            "undeclared identifier",
            "no member named",
            "unknown type name",
        ];
        message
            .lines()
            .filter_map(|l| l.split_once("error: ").map(|(_, e)| e))
            .map(|e| strip_expression_prefix(e.trim()).trim())
            .find(|e| !NAMES.iter().any(|n| e.contains(n)))
            .map(str::to_string)
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

    fn is_runtime_frame(&self, name: &str, file: Option<&str>) -> bool {
        crate::adapters::native_code::is_runtime_frame(name, file)
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

/// `Rust` from lldb's `Expression evaluation in Rust not supported.`
fn unsupported_language(message: &str) -> Option<&str> {
    message.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("Expression evaluation in ")?;
        rest.split_once(" not supported")
            .map(|(language, _)| language)
    })
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

#[cfg(test)]
mod tests {
    use super::*;

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
            "lldb cannot evaluate Rust and read this as C++: use of undeclared identifier 'nosuch'"
        );
        assert_eq!(
            n.evaluation_error("Expression evaluation in pure C not supported. Ran expression as 'ISO C++'.\nerror: <user expression 0>:1:5: expected expression\n    1 | i >== 3\n"),
            "expected expression"
        );
        assert_eq!(
            n.expression_error("error: <user expression 0>:1:1: use of undeclared identifier 'i'\nerror: <user expression 0>:1:5: expected expression\n").as_deref(),
            Some("expected expression")
        );
        assert_eq!(
            n.expression_error(
                "error: <user expression 1>:1:1: use of undeclared identifier 'nosuch'\n"
            ),
            None
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
