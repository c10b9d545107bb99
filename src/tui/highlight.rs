//! Source highlighting with syntect, computed off the UI thread and cached
//! per file: the UI draws plain text until a file's colours are ready.

use crate::sync::Locked;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::session::types::SourceFile;
use ratatui::style::{Color, Modifier, Style};
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, ThemeSet};
use syntect::parsing::SyntaxSet;

/// One line as (style, text) pieces.
pub type Line = Vec<(Style, String)>;

struct Sets {
    syntaxes: SyntaxSet,
    themes: ThemeSet,
}

fn sets() -> &'static Sets {
    static SETS: OnceLock<Sets> = OnceLock::new();
    SETS.get_or_init(|| Sets {
        syntaxes: SyntaxSet::load_defaults_newlines(),
        themes: ThemeSet::load_defaults(),
    })
}

/// A file's text and the colours made from it.
type Coloured = (Arc<SourceFile>, Arc<Vec<Line>>);

#[derive(Clone, Default)]
pub struct Highlighter {
    /// Each file's colours, with the text they were made from: a file read
    /// again after an edit is a new `SourceFile`, and gets new colours.
    cache: Arc<Mutex<HashMap<PathBuf, Coloured>>>,
    pending: Arc<Mutex<Vec<PathBuf>>>,
}

impl Highlighter {
    /// The highlighted lines, if ready; otherwise starts the work and
    /// calls `ready` when it is done.
    pub fn get(
        &self,
        file: &Arc<SourceFile>,
        theme: &str,
        ready: impl FnOnce() + Send + 'static,
    ) -> Option<Arc<Vec<Line>>> {
        let path = file.path.as_path();
        if let Some((made_from, h)) = self.cache.locked().get(path)
            && Arc::ptr_eq(made_from, file)
        {
            return Some(h.clone());
        }
        let mut pending = self.pending.locked();
        if pending.iter().any(|p| p == path) {
            return None;
        }
        pending.push(path.to_path_buf());
        let (cache, pend) = (self.cache.clone(), self.pending.clone());
        let (path, file, theme) = (path.to_path_buf(), file.clone(), theme.to_string());
        tokio::task::spawn_blocking(move || {
            let h = Arc::new(highlight(&path, &file.lines, &theme));
            cache.locked().insert(path.clone(), (file, h));
            pend.locked().retain(|p| p != &path);
            ready();
        });
        None
    }
}

pub fn highlight(path: &Path, lines: &[String], theme: &str) -> Vec<Line> {
    let s = sets();
    let syntax = path
        .extension()
        .and_then(|e| s.syntaxes.find_syntax_by_extension(&e.to_string_lossy()))
        .unwrap_or_else(|| s.syntaxes.find_syntax_plain_text());
    let Some(th) = s
        .themes
        .themes
        .get(theme)
        .or_else(|| s.themes.themes.values().next())
    else {
        return lines
            .iter()
            .map(|l| vec![(Style::default(), l.clone())])
            .collect();
    };
    let mut h = HighlightLines::new(syntax, th);
    lines
        .iter()
        .map(|l| {
            let with_nl = format!("{l}\n");
            match h.highlight_line(&with_nl, &s.syntaxes) {
                Ok(regions) => regions
                    .into_iter()
                    .map(|(st, text)| (to_style(st), text.trim_end_matches('\n').to_string()))
                    .filter(|(_, t)| !t.is_empty())
                    .collect(),
                Err(_) => vec![(Style::default(), l.clone())],
            }
        })
        .collect()
}

fn to_style(s: syntect::highlighting::Style) -> Style {
    let mut st = Style::default().fg(Color::Rgb(s.foreground.r, s.foreground.g, s.foreground.b));
    if s.font_style.contains(FontStyle::BOLD) {
        st = st.add_modifier(Modifier::BOLD);
    }
    if s.font_style.contains(FontStyle::ITALIC) {
        st = st.add_modifier(Modifier::ITALIC);
    }
    st
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_is_coloured_and_text_is_kept() {
        let lines: Vec<String> = vec!["def f(x):".into(), "    return \"s\"  # note".into()];
        let h = highlight(Path::new("a.py"), &lines, "base16-ocean.dark");
        let text: Vec<String> = h
            .iter()
            .map(|l| l.iter().map(|(_, t)| t.as_str()).collect())
            .collect();
        assert_eq!(text, lines, "highlighting never changes the text");
        let colours: std::collections::HashSet<_> = h.iter().flatten().map(|(s, _)| s.fg).collect();
        assert!(
            colours.len() >= 3,
            "keywords, strings and comments differ: {colours:?}"
        );
        let plain = highlight(Path::new("a.unknown-ext"), &lines, "no-such-theme");
        assert_eq!(plain.len(), 2);
    }

    #[test]
    fn c_cpp_rust_and_go_are_coloured() {
        for (file, src) in [
            ("a.c", "int main(void) { return 0; /* c */ }"),
            ("a.h", "struct point { int x; }; // h"),
            ("a.cpp", "std::string s = \"x\"; // c++"),
            ("a.rs", "fn main() { let s = \"x\"; } // rust"),
            ("a.go", "func main() { s := \"x\" } // go"),
        ] {
            let h = highlight(Path::new(file), &[src.to_string()], "base16-ocean.dark");
            let colours: std::collections::HashSet<_> =
                h.iter().flatten().map(|(s, _)| s.fg).collect();
            assert!(colours.len() >= 3, "{file} is coloured: {colours:?}");
        }
    }
}
