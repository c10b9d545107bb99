//! What native programs' source and symbols mean, whichever adapter debugs
//! them: a function's parameters read from a `fn` or C declaration, Rust's
//! hashed and escaped symbol names, and the message a Rust panic printed.

use crate::adapters::language::is_ident;
use std::path::{Path, PathBuf};

/// Values that say nothing in C, C++ and Rust: null pointers, the booleans,
/// an empty string, Rust's `None`.
pub const PLAIN_WORDS: &[&str] = &[
    "NULL",
    "nullptr",
    "0x0",
    "0x0000000000000000",
    "true",
    "false",
    "\"\"",
    "None",
];

/// Whether a (trimmed) line declares a Rust function: a method inside an
/// `impl` is indented, and its own line opens it all the same.
pub fn opens_rust_function(line: &str) -> bool {
    const QUALIFIERS: &[&str] = &[
        "pub ",
        "pub(crate) ",
        "pub(super) ",
        "pub(self) ",
        "default ",
        "const ",
        "async ",
        "unsafe ",
        "extern \"C\" ",
    ];
    let mut rest = line;
    while let Some(q) = QUALIFIERS.iter().find(|q| rest.starts_with(**q)) {
        rest = &rest[q.len()..];
    }
    rest.starts_with("fn ")
}

use crate::adapters::signature::{inside_parens, split_top_level};
use crate::adapters::{LaunchSpec, Target};

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
pub fn panic_message(tail: &str) -> Option<String> {
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
pub fn parameters(lines: &[String], function: &str, line: u64) -> Option<Vec<String>> {
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

/// The C library's and the Rust standard library's own frames: a crash or
/// panic is shown from the first frame of the program's own code.
pub fn is_runtime_frame(name: &str, file: Option<&str>) -> bool {
    let runtime_name = ["std::", "core::", "alloc::", "__rustc::", "rust_", "__GI_"]
        .iter()
        .any(|p| name.starts_with(p));
    match file {
        None => true,
        Some(f) => !f.starts_with('/') || f.starts_with("/rustc/") || runtime_name,
    }
}

/// Whether the program (or the attached process's executable) is Rust.
pub fn is_rust(spec: &LaunchSpec) -> bool {
    let exe = match &spec.target {
        Target::Program(p) | Target::Core { program: p, .. } => p.clone(),
        Target::Attach(pid) => match std::fs::read_link(format!("/proc/{pid}/exe")) {
            Ok(p) => p,
            Err(_) => return false,
        },
        Target::Remote(r) => match &r.program {
            Some(p) => p.clone(),
            None => return false,
        },
        Target::Module(_) => return false,
    };
    super::infer_language(&exe) == Some("rust")
}

/// The folder of the Rust toolchain's debugger scripts
/// (`<sysroot>/lib/rustlib/etc`), asked of `rustc` once; None when no
/// toolchain answers.
pub fn rust_debugger_scripts() -> Option<PathBuf> {
    static ETC: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    ETC.get_or_init(|| {
        let out = std::process::Command::new("rustc")
            .args(["--print", "sysroot"])
            .output()
            .ok()
            .filter(|o| o.status.success())?;
        let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let etc = Path::new(&sysroot).join("lib/rustlib/etc");
        etc.is_dir().then_some(etc)
    })
    .clone()
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
}
