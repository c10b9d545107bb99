//! The calls of C, C++ and Rust that cannot change the program, which run
//! without `allow_side_effects`. lldb-dap and gdb serve all three through one
//! language, and an expression does not say which it is written in: one
//! is free to run when either language's rules find nothing in it.

use crate::adapters::side_effects::{Rules, scan};

pub const C_AND_CPP: Rules = Rules {
    pure_calls: &[
        "sizeof", "alignof", "_Alignof", "offsetof", "strlen", "strnlen", "strcmp", "strncmp",
        "memcmp", "strchr", "strrchr", "strstr", "abs", "labs",
    ],
    // The standard containers' and strings' reading members.
    pure_methods: &[
        "size", "empty", "length", "c_str", "data", "capacity", "max_size", "count", "find",
        "contains",
    ],
    not_calls: &["sizeof", "alignof", "_Alignof", "if", "while", "return"],
    statements: &[],
    increments: true,
    channels: false,
    quotes: &['"', '\''],
    format_strings: false,
    macros_and_casts: true,
};

pub const RUST: Rules = Rules {
    pure_calls: &["size_of", "size_of_val", "align_of"],
    // The standard collections', strings' and options' methods that take
    // `&self` and return a plain value.
    pure_methods: &[
        "len",
        "is_empty",
        "get",
        "contains",
        "contains_key",
        "first",
        "last",
        "is_some",
        "is_none",
        "is_ok",
        "is_err",
        "unwrap_or",
        "starts_with",
        "ends_with",
        "capacity",
        "as_str",
        "as_ref",
        "abs",
        "min",
        "max",
    ],
    not_calls: &["if", "while", "match", "return"],
    statements: &[],
    increments: false,
    channels: false,
    quotes: &['"'],
    format_strings: false,
    macros_and_casts: true,
};

/// What in `expression` may change the program, by the rules of C and
/// C++; a call they flag that Rust's rules find pure is pardoned.
pub fn side_effect(expression: &str) -> Option<String> {
    let c = scan(expression, &C_AND_CPP)?;
    match c.starts_with("calls ") && scan(expression, &RUST).is_none() {
        true => None,
        false => Some(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_reading_methods_are_pure() {
        for e in [
            "items.len()",
            "items.is_empty() || name.starts_with(\"x\")",
            "self.items.get(1).is_some()",
            "opt.unwrap_or(0) > 3",
            "map.contains_key(&k)",
        ] {
            assert_eq!(scan(e, &RUST), None, "{e}");
            assert_eq!(side_effect(e), None, "{e}");
        }
        for (e, says) in [
            ("items.push(3)", "calls `push`"),
            ("items.clear()", "calls `clear`"),
            ("x = 1", "assigns with `=`"),
            ("println!(\"{}\", x)", "calls the macro `println!`"),
            ("len(items)", "calls `len`"),
        ] {
            assert_eq!(scan(e, &RUST).as_deref(), Some(says), "{e}");
        }
    }

    #[test]
    fn c_and_cpp_reading_calls_are_pure() {
        for e in [
            "strlen(s) > 3",
            "v.size() == 0 || v.empty()",
            "name.length()",
            "sizeof(int)",
        ] {
            assert_eq!(side_effect(e), None, "{e}");
        }
        for (e, says) in [
            ("puts(\"hi\")", "calls `puts`"),
            ("v.push_back(1)", "calls `push_back`"),
            ("count++", "uses `++`"),
            ("free(p)", "calls `free`"),
        ] {
            assert_eq!(side_effect(e).as_deref(), Some(says), "{e}");
        }
    }
}
