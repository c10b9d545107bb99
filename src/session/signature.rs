//! A Python function's parameter names, read from its `def` line: the
//! call stack shows them with their values, and callers without any need
//! no request to the adapter.

use super::types::SourceFile;

/// The parameter names of the function `name` whose body holds `line`.
pub fn parameters(src: &SourceFile, name: &str, line: u64) -> Option<Vec<String>> {
    let end = (line as usize).min(src.lines.len());
    let def_at = (0..end).rev().find(|&i| {
        let t = src.lines[i].trim_start();
        let t = t.strip_prefix("async ").unwrap_or(t);
        t.strip_prefix("def ").is_some_and(|rest| {
            rest.trim_start()
                .strip_prefix(name)
                .is_some_and(|r| r.trim_start().starts_with('('))
        })
    })?;
    // Signatures may span lines; read until the parentheses balance.
    let mut text = String::new();
    for l in src.lines.iter().skip(def_at).take(20) {
        text.push_str(l);
        text.push(' ');
        if balanced(&text) {
            break;
        }
    }
    let open = text.find('(')?;
    let inner = inside_parens(&text[open..])?;
    Some(
        split_params(inner)
            .into_iter()
            .map(|p| {
                let p = p.split(['=', ':']).next().unwrap_or("").trim();
                p.to_string()
            })
            .filter(|p| !p.is_empty() && p != "/" && p != "*")
            .collect(),
    )
}

fn balanced(s: &str) -> bool {
    let open = s.matches('(').count();
    open > 0 && open == s.matches(')').count()
}

fn inside_parens(s: &str) -> Option<&str> {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&s[1..i]);
                }
            }
            _ => {}
        }
    }
    None
}

fn split_params(s: &str) -> Vec<&str> {
    let mut out = vec![];
    let (mut depth, mut start) = (0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(text: &str) -> SourceFile {
        SourceFile {
            path: "x.py".into(),
            lines: text.lines().map(str::to_string).collect(),
        }
    }

    #[test]
    fn finds_parameters_of_the_enclosing_def() {
        let s = src(
            "def f(a, b=2, *args, c: int = 3, **kw):\n    return a\n\nasync def g(\n    x,\n    y,\n):\n    pass\n",
        );
        assert_eq!(
            parameters(&s, "f", 2).unwrap(),
            vec!["a", "b", "*args", "c", "**kw"]
        );
        assert_eq!(parameters(&s, "g", 8).unwrap(), vec!["x", "y"]);
        assert!(parameters(&s, "h", 2).is_none());
    }
}
