//! Python functions found in the workspace's source, for breakpoints by
//! function: debugpy has no function breakpoints, so `name` or
//! `Class.method` becomes a line breakpoint on the body's first line.

use std::path::Path;

use crate::adapters::FoundFunction;
use crate::adapters::source_functions::{self, SourceSearch};

const SEARCH: SourceSearch = SourceSearch {
    language: "Python",
    keyword: "def",
    files: "Python",
    is_ident: crate::adapters::is_ident,
    is_source: |p| p.extension().is_some_and(|e| e == "py"),
};

pub fn find_function(root: &Path, function: &str) -> Result<FoundFunction, String> {
    source_functions::find_function(root, function, &SEARCH, &|p, lines, name, class| {
        // `module.function` names the file as well as the class may.
        let stem_matches = class.is_some_and(|c| p.file_stem().is_some_and(|s| s == c));
        find_defs(lines, name, class, stem_matches)
            .into_iter()
            .filter_map(|def| Some((def, body_line(lines, def)?)))
            .collect()
    })
}

fn indent(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

fn def_name(l: &str) -> Option<&str> {
    let t = l.trim_start();
    let t = t.strip_prefix("async ").unwrap_or(t);
    let rest = t.strip_prefix("def ")?.trim_start();
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some(&rest[..end])
}

fn class_name(l: &str) -> Option<&str> {
    let rest = l.trim_start().strip_prefix("class ")?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

/// 0-based lines of `def name` inside `class` (when given) or at any level.
fn find_defs(lines: &[&str], name: &str, class: Option<&str>, top_level_ok: bool) -> Vec<usize> {
    let mut out = vec![];
    // The classes enclosing the current line: (indent, name).
    let mut classes: Vec<(usize, &str)> = vec![];
    for (i, l) in lines.iter().enumerate() {
        if l.trim().is_empty() || l.trim_start().starts_with('#') {
            continue;
        }
        let ind = indent(l);
        classes.retain(|(ci, _)| *ci < ind);
        if let Some(c) = class_name(l) {
            classes.push((ind, c));
            continue;
        }
        if def_name(l) != Some(name) {
            continue;
        }
        let owner = classes.last().map(|(_, c)| *c);
        let ok = match class {
            None => true,
            Some(c) => owner == Some(c) || (top_level_ok && ind == 0),
        };
        if ok {
            out.push(i);
        }
    }
    out
}

/// The first line of the body of the def at `def`: past the signature
/// (which may span lines) and a docstring, which runs no code.
fn body_line(lines: &[&str], def: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut i = def;
    loop {
        let l = lines.get(i)?;
        depth += l.matches(['(', '[']).count() as i32 - l.matches([')', ']']).count() as i32;
        if depth <= 0 && l.trim_end().ends_with(':') {
            break;
        }
        // A one-line body after the colon: `def f(): return 1`.
        if depth <= 0 && l.contains("):") {
            return Some(i);
        }
        i += 1;
    }
    let mut j = i + 1;
    let mut skipped_doc = false;
    while let Some(l) = lines.get(j) {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            j += 1;
            continue;
        }
        let quote = ["\"\"\"", "'''"].into_iter().find(|q| {
            t.strip_prefix(['r', 'R', 'u', 'U'])
                .unwrap_or(t)
                .starts_with(q)
        });
        if let (Some(q), false) = (quote, skipped_doc) {
            skipped_doc = true;
            let after = &t[t.find(q)? + 3..];
            if !after.contains(q) {
                j += 1;
                while !lines.get(j)?.contains(q) {
                    j += 1;
                }
            }
            j += 1;
            continue;
        }
        return Some(j);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "class Cart:\n    def total(self,\n              tax):\n        \"\"\"Sum.\n\n        More.\"\"\"\n        s = 0\n        return s\n\ndef total():\n    # comment\n    return 1\n";

    #[test]
    fn methods_and_functions_resolve_to_their_bodies() {
        let ws = tempfile::tempdir().unwrap();
        std::fs::write(ws.path().join("cart.py"), SRC).unwrap();
        let m = find_function(ws.path(), "Cart.total").unwrap();
        assert_eq!((m.def_line, m.body_line), (2, 7));
        let f = find_function(ws.path(), "cart.total").unwrap();
        assert_eq!((f.def_line, f.body_line), (10, 12), "module.function");
        let both = find_function(ws.path(), "total").unwrap_err();
        assert!(both.contains("2 times"), "{both}");
        assert!(
            find_function(ws.path(), "nope")
                .unwrap_err()
                .contains("no def nope")
        );
        assert!(find_function(ws.path(), "a b").is_err());
    }
}
