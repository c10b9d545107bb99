//! JavaScript and TypeScript functions found in the workspace's source,
//! for breakpoints by function: js-debug has no function breakpoints, so
//! `name` or `Class.method` becomes a line breakpoint on the body's first
//! line.

use std::path::Path;

use regex::Regex;

use crate::adapters::FoundFunction;
use crate::adapters::source_functions::{self, SourceSearch};

const EXTENSIONS: &[&str] = &["js", "mjs", "cjs", "ts", "mts", "cts", "jsx", "tsx"];

const SEARCH: SourceSearch = SourceSearch {
    language: "JavaScript",
    keyword: "function",
    files: "JavaScript or TypeScript",
    is_ident: is_js_ident,
    is_source: |p| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| EXTENSIONS.contains(&e))
    },
};

pub fn find_function(root: &Path, function: &str) -> Result<FoundFunction, String> {
    let name = function.rsplit('.').next().unwrap_or(function);
    // The name is escaped: only a regex crate's own limit can refuse it.
    let patterns = Patterns::new(name).ok_or_else(|| format!("{name:?} cannot be searched"))?;
    source_functions::find_function(root, function, &SEARCH, &|_, lines, _, class| {
        patterns
            .definitions(lines, class)
            .into_iter()
            .map(|def| (def, body_line(lines, def)))
            .collect()
    })
}

/// Whether the function a frame is in (`main`, `Item.label`), defined at
/// or above `line`, is written with no parameters: its call then reads
/// `main()`. A list that names any, or a definition not found, says
/// nothing (its arguments are not read, to spare js-debug the requests).
pub fn takes_no_parameters(lines: &[String], function: &str, line: u64) -> bool {
    let name = function.rsplit('.').next().unwrap_or(function);
    if !is_js_ident(name) {
        return false;
    }
    let Some(patterns) = Patterns::new(name) else {
        return false;
    };
    let end = (line as usize).min(lines.len());
    let Some(def) = lines[..end]
        .iter()
        .rev()
        .find(|l| patterns.function.is_match(l) || patterns.method.is_match(l))
    else {
        return false;
    };
    let Some(rest) = after_name(def, name) else {
        return false;
    };
    // `= (` or `<T>(`, not the body of `= x => (x)`.
    match rest.split_once('(') {
        Some((before, params)) if !before.contains("=>") && !before.contains('{') => {
            params.trim_start().starts_with(')')
        }
        _ => false,
    }
}

/// The text after `name` written as a whole word in `line`.
fn after_name<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    line.match_indices(name).find_map(|(at, _)| {
        let before = line[..at].chars().next_back();
        let rest = &line[at + name.len()..];
        let whole = !before.is_some_and(is_word) && !rest.starts_with(is_word);
        whole.then_some(rest)
    })
}

fn is_js_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

struct Patterns {
    /// `function name(`, `const name = (…) =>`, `name = function`.
    function: Regex,
    /// A method in a class body: `name(…) {`, `async name(`, `static name(`.
    method: Regex,
    class: Regex,
}

impl Patterns {
    fn new(name: &str) -> Option<Patterns> {
        let n = regex::escape(name);
        Some(Patterns {
            function: Regex::new(&format!(
                r"^\s*(export\s+)?(default\s+)?(async\s+)?function\s*\*?\s*{n}\s*[<(]|^\s*(export\s+)?(const|let|var)\s+{n}\s*(:[^=]+)?=\s*(async\s+)?(function\b|\(|[\w$]+\s*=>)"
            ))
            .ok()?,
            method: Regex::new(&format!(
                r"^\s+((public|private|protected|static|async|override|get|set)\s+)*\*?{n}\s*(<[^>]*>)?\([^;()]*\)\s*(:\s*[^{{=;]+)?\{{"
            ))
            .ok()?,
            class: Regex::new(r"^\s*(export\s+)?(default\s+)?(abstract\s+)?class\s+([\w$]+)").ok()?,
        })
    }

    /// 0-based lines that define the function: a method of `class` when
    /// given, else a function at any level or a method of any class.
    fn definitions(&self, lines: &[&str], class: Option<&str>) -> Vec<usize> {
        let mut out = vec![];
        if class.is_none() {
            out.extend((0..lines.len()).filter(|&i| self.function.is_match(lines[i])));
        }
        let mut i = 0;
        while i < lines.len() {
            let named = self
                .class
                .captures(lines[i])
                .and_then(|c| c.get(4))
                .is_some_and(|m| class.is_none_or(|c| m.as_str() == c));
            if !named {
                i += 1;
                continue;
            }
            let end = block_end(lines, i);
            out.extend((i + 1..end).filter(|&j| self.method.is_match(lines[j])));
            i = end.max(i + 1);
        }
        out.sort_unstable();
        out
    }
}

/// The line where the block opened on line `start` closes, by counting
/// braces outside strings and comments no further than a line's text.
fn block_end(lines: &[&str], start: usize) -> usize {
    let mut depth = 0i64;
    let mut opened = false;
    for (i, line) in lines.iter().enumerate().skip(start) {
        let code = line.split("//").next().unwrap_or(line);
        for c in code.chars() {
            match c {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        if opened && depth <= 0 {
            return i;
        }
    }
    lines.len()
}

/// The first line of the body: the definition's own line when the body
/// starts on it (`get area() { return … }`), else the next line with code.
fn body_line(lines: &[&str], def: usize) -> usize {
    let line = lines[def];
    let after_brace = line.rfind('{').map(|at| line[at + 1..].trim());
    if after_brace.is_some_and(|rest| !rest.is_empty() && rest != "}") {
        return def;
    }
    (def + 1..lines.len())
        .find(|&i| {
            let t = lines[i].trim();
            !t.is_empty() && !t.starts_with("//") && t != "{"
        })
        .unwrap_or(def)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "class Circle {
  constructor(r) { this.r = r; }
  get area() { return 3 * this.r * this.r; }
  grow(by) {
    const next = this.r + by;
    return next;
  }
}
function plain(n) {
  if (n > 0) {
    return n;
  }
}
const arrow = (x) => {
  return x * 2;
};
";

    fn defs(name: &str, class: Option<&str>) -> Vec<(usize, usize)> {
        let lines: Vec<&str> = SRC.lines().collect();
        Patterns::new(name)
            .unwrap()
            .definitions(&lines, class)
            .into_iter()
            .map(|d| (d + 1, body_line(&lines, d) + 1))
            .collect()
    }

    #[test]
    fn functions_methods_and_arrows_are_found_with_their_bodies() {
        assert_eq!(defs("plain", None), [(9, 10)]);
        assert_eq!(defs("arrow", None), [(14, 15)]);
        assert_eq!(defs("grow", Some("Circle")), [(4, 5)]);
        assert_eq!(defs("area", Some("Circle")), [(3, 3)]);
        // A bare name finds a method too; a method is found only in its
        // class, and a call is no definition.
        assert_eq!(defs("grow", None), [(4, 5)]);
        assert!(defs("grow", Some("Square")).is_empty());
        assert!(defs("next", None).is_empty());
    }

    #[test]
    fn a_function_written_without_parameters_is_known_to_take_none() {
        let src: Vec<String> = "function main() {
  run();
}
class Item {
  label() {
    return 1;
  }
  grow(by) {
    return by;
  }
}
const go = async () => {
  main();
};
const one = x => (x);
function typed(): void {
  return;
}
"
        .lines()
        .map(str::to_string)
        .collect();
        let none = |f: &str, line: u64| takes_no_parameters(&src, f, line);
        assert!(none("main", 2));
        assert!(none("Item.label", 6));
        assert!(none("go", 13));
        assert!(none("typed", 16));
        assert!(!none("Item.grow", 9));
        assert!(!none("one", 14));
        assert!(!none("<anonymous>", 2));
        assert!(!none("Module._compile", 2));
    }
}
