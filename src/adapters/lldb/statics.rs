//! A function's `static` locals, read from its source: lldb-dap lists them
//! with the file's globals rather than with the locals, so the engine finds
//! them there by the names the function declares.

use crate::adapters::language::is_ident;

/// How far up a function's first line is looked for.
const FUNCTION_LINES: usize = 2_000;

/// The names declared `static` in the function around `line` (1-based),
/// above that line: C's `static int calls = 0;`, Rust's `static mut N: u8`.
pub fn static_locals(lines: &[String], line: u64) -> Vec<String> {
    let end = (line as usize).min(lines.len());
    let top = end.saturating_sub(FUNCTION_LINES);
    let Some(def) = (top..end).rev().find(|&i| is_definition(&lines[i])) else {
        return vec![];
    };
    lines[def + 1..end]
        .iter()
        .filter_map(|l| declared_static(l.trim_start()))
        .collect()
}

/// A function's first line: Rust's `fn`, or C text starting in the first
/// column that is no brace, directive or comment.
fn is_definition(l: &str) -> bool {
    let t = l.trim_start();
    let rust = t.starts_with("fn ") || t.contains(" fn ");
    let c = !l.is_empty()
        && !l.starts_with([' ', '\t', '{', '}', '#', '/', '*'])
        && !l.trim_end().ends_with(';');
    rust || c
}

/// The name a `static` declaration line declares.
fn declared_static(t: &str) -> Option<String> {
    let rest = t.strip_prefix("static ")?.trim_start();
    let rest = rest.strip_prefix("mut ").unwrap_or(rest);
    // Rust: `NAME: T = ..`; C: the last word before `=`, `;`, `[` or `:`.
    let head = rest.split(['=', ';', '[', ':', ',']).next()?.trim_end();
    let name = head
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()?;
    is_ident(name).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn statics_of_the_enclosing_function_only() {
        let src = lines(
            "static int file_static = 4;\n\
             static int counter(void) {\n\
             \x20   static int calls = 0;\n\
             \x20   static const char *names[3];\n\
             \x20   int local = 5;\n\
             \x20   return calls + local;\n\
             }\n",
        );
        assert_eq!(static_locals(&src, 6), vec!["calls", "names"]);
        assert!(static_locals(&src, 1).is_empty());
    }

    #[test]
    fn rust_statics_inside_a_fn() {
        let src = lines(
            "impl Shop {\n    fn tick(&self) -> u32 {\n        static mut TICKS: u32 = 0;\n        static NAME: &str = \"x\";\n        1\n    }\n}\n",
        );
        assert_eq!(static_locals(&src, 5), vec!["TICKS", "NAME"]);
    }
}
