//! The value viewer: one value read whole, wrapped to the screen's width,
//! scrolled and searched. A string shows its text; a structured value its
//! tree, one field per line.

use crate::adapters::value::{Count, Value};
use crate::session::types::Var;

#[derive(Debug, Clone, Default)]
pub struct Viewer {
    /// What is shown: the variable's name or expression.
    pub title: String,
    pub lines: Vec<String>,
    /// The first wrapped row shown.
    pub scroll: usize,
    /// The text searched for, and the match last found.
    pub query: String,
    pub current: Option<Match>,
    /// Why the text is not the whole value, while it is not.
    pub note: Option<String>,
}

/// Where the query was found: a line and its character range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub line: usize,
    pub start: usize,
    pub end: usize,
}

/// One screen row of a wrapped line: which line, and from which character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub line: usize,
    pub start: usize,
    pub text: String,
}

impl Viewer {
    /// The viewer over `var` as read so far; `note` says why it may not be
    /// whole yet.
    pub fn new(title: &str, var: &Var, note: Option<String>) -> Viewer {
        Viewer {
            title: title.to_string(),
            lines: lines_of(var),
            note,
            ..Default::default()
        }
    }

    /// The whole value has come: it replaces what was shown.
    pub fn read_whole(&mut self, var: &Var) {
        self.lines = lines_of(var);
        self.note = None;
        self.current = None;
    }

    /// The lines cut to `width` characters a row.
    pub fn rows(&self, width: usize) -> Vec<Row> {
        let width = width.max(1);
        let mut out = vec![];
        for (n, line) in self.lines.iter().enumerate() {
            // Control characters would move the terminal's cursor: each
            // shows as one mark, so columns stay where the text has them.
            let chars: Vec<char> = line
                .chars()
                .map(|c| if c.is_control() { '·' } else { c })
                .collect();
            if chars.is_empty() {
                out.push(Row {
                    line: n,
                    start: 0,
                    text: String::new(),
                });
            }
            for (i, piece) in chars.chunks(width).enumerate() {
                out.push(Row {
                    line: n,
                    start: i * width,
                    text: piece.iter().collect(),
                });
            }
        }
        out
    }

    /// Every place the query is found, in order.
    pub fn matches(&self) -> Vec<Match> {
        let q: Vec<char> = self.query.chars().collect();
        if q.is_empty() {
            return vec![];
        }
        let mut out = vec![];
        for (n, line) in self.lines.iter().enumerate() {
            let chars: Vec<char> = line.chars().collect();
            let mut i = 0;
            while i + q.len() <= chars.len() {
                if chars[i..i + q.len()] == q[..] {
                    out.push(Match {
                        line: n,
                        start: i,
                        end: i + q.len(),
                    });
                    i += q.len();
                } else {
                    i += 1;
                }
            }
        }
        out
    }

    /// Moves to the next match after the current one (or after the top of
    /// the screen), wrapping; false when there is none.
    pub fn find_next(&mut self, width: usize, height: usize) -> bool {
        let all = self.matches();
        if all.is_empty() {
            self.current = None;
            return false;
        }
        let rows = self.rows(width);
        let after = match self.current {
            Some(c) => all
                .iter()
                .position(|m| (m.line, m.start) > (c.line, c.start)),
            None => {
                let top = rows.get(self.scroll).map_or((0, 0), |r| (r.line, r.start));
                all.iter().position(|m| (m.line, m.start) >= top)
            }
        };
        let found = all[after.unwrap_or(0)];
        self.current = Some(found);
        let row = rows
            .iter()
            .rposition(|r| r.line == found.line && r.start <= found.start)
            .unwrap_or(0);
        if row < self.scroll || row >= self.scroll + height.max(1) {
            self.scroll = row.saturating_sub(height / 3);
        }
        self.clamp(width, height);
        true
    }

    pub fn scroll_by(&mut self, delta: i64, width: usize, height: usize) {
        self.scroll = (self.scroll as i64).saturating_add(delta).max(0) as usize;
        self.clamp(width, height);
    }

    fn clamp(&mut self, width: usize, height: usize) {
        let last = self.rows(width).len().saturating_sub(height.max(1));
        self.scroll = self.scroll.min(last);
    }
}

/// A value's lines: a string's own text, split where it breaks; any other
/// value as its tree.
fn lines_of(var: &Var) -> Vec<String> {
    if let Some(why) = &var.not_read {
        return vec![format!("not read: {why}")];
    }
    match var.tree() {
        Value::Text { text, .. } => text.split('\n').map(str::to_string).collect(),
        tree => pretty(&tree),
    }
}

/// A value tree one field or item a line, nested ones indented.
pub fn pretty(v: &Value) -> Vec<String> {
    match v {
        Value::Atom { text } => vec![text.clone()],
        Value::Text { text, prefix, .. } => vec![format!("{prefix}{text:?}")],
        Value::Nil { word } => vec![word.clone()],
        Value::Described { text } => vec![text.clone()],
        Value::Unreadable { what, why } => vec![format!("{what}: not read ({why})")],
        Value::Pointer { target } => prefixed("*", pretty(target)),
        Value::Variant { name, items } => {
            let mut out = vec![format!("{name}(")];
            for item in items {
                out.extend(indented(suffixed(pretty(item), ",")));
            }
            out.push(")".into());
            out
        }
        Value::Seq {
            type_name,
            open,
            close,
            items,
            count,
        } => {
            let mut out = vec![format!("{type_name}{open}").trim_start().to_string()];
            for item in items {
                out.extend(indented(suffixed(pretty(item), ",")));
            }
            out.extend(more(items.len(), *count));
            out.push(close.to_string());
            out
        }
        Value::Map {
            type_name,
            entries,
            count,
        } => {
            let mut out = vec![format!("{type_name} {{").trim_start().to_string()];
            for (k, val) in entries {
                let key = pretty(k).join(" ");
                out.extend(indented(suffixed(
                    prefixed(&format!("{key}: "), pretty(val)),
                    ",",
                )));
            }
            out.extend(more(entries.len(), *count));
            out.push("}".into());
            out
        }
        Value::Object {
            type_name,
            fields,
            more,
        } => {
            let mut out = vec![format!("{type_name} {{").trim_start().to_string()];
            for (name, val) in fields {
                out.extend(indented(prefixed(&format!("{name}: "), pretty(val))));
            }
            if *more {
                out.push("  … (fields not read: expand it in the variables pane)".into());
            }
            out.push("}".into());
            out
        }
    }
}

/// The line telling how many items were not read.
fn more(shown: usize, count: Count) -> Option<String> {
    match count {
        Count::Exact(n) if n > shown => Some(format!("  … {} more", n - shown)),
        Count::AtLeast(n) if n > shown => Some(format!("  … at least {} more", n - shown)),
        _ => None,
    }
}

fn prefixed(prefix: &str, mut lines: Vec<String>) -> Vec<String> {
    if let Some(first) = lines.first_mut() {
        first.insert_str(0, prefix);
    }
    lines
}

fn suffixed(mut lines: Vec<String>, suffix: &str) -> Vec<String> {
    if let Some(last) = lines.last_mut() {
        last.push_str(suffix);
    }
    lines
}

fn indented(lines: Vec<String>) -> Vec<String> {
    lines.into_iter().map(|l| format!("  {l}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn viewer(lines: &[&str]) -> Viewer {
        Viewer {
            lines: lines.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn long_lines_wrap_and_matches_are_found_past_the_wrap() {
        let mut v = viewer(&["abcdefghij", "", "xyz needle"]);
        let rows = v.rows(4);
        assert_eq!(rows.len(), 3 + 1 + 3);
        assert_eq!(rows[2].text, "ij");
        v.query = "needle".into();
        assert!(v.find_next(4, 2));
        assert_eq!(
            v.current,
            Some(Match {
                line: 2,
                start: 4,
                end: 10
            })
        );
        // The match's row is on screen.
        assert!(v.scroll <= 5 && 5 < v.scroll + 2, "scroll {}", v.scroll);
        v.query = "absent".into();
        assert!(!v.find_next(4, 2));
    }

    #[test]
    fn an_object_shows_a_field_a_line() {
        let tree = Value::Object {
            type_name: "Point".into(),
            fields: vec![
                ("x".into(), Value::atom("1")),
                (
                    "tags".into(),
                    Value::Seq {
                        type_name: String::new(),
                        open: '[',
                        close: ']',
                        items: vec![Value::atom("2")],
                        count: Count::Exact(3),
                    },
                ),
            ],
            more: false,
        };
        assert_eq!(
            pretty(&tree),
            [
                "Point {",
                "  x: 1",
                "  tags: [",
                "    2,",
                "    … 2 more",
                "  ]",
                "}"
            ]
        );
    }
}
