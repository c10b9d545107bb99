//! Colours for the panes, from TOML themes (themes/): a palette, scoped
//! style keys, `inherits`, and `syntax` naming the syntect theme.

use std::collections::HashMap;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

#[derive(Debug, Clone)]
pub struct Theme {
    pub text: Style,
    pub dim: Style,
    pub title: Style,
    pub title_focused: Style,
    pub border: Style,
    pub border_focused: Style,
    pub line_number: Style,
    pub current_line: Style,
    pub cursor_line: Style,
    pub exception_line: Style,
    pub breakpoint: Style,
    pub breakpoint_agent: Style,
    pub breakpoint_unverified: Style,
    pub selected: Style,
    pub changed: Style,
    pub error: Style,
    pub stderr: Style,
    pub status: Style,
    pub status_key: Style,
    /// The syntect theme used for source highlighting.
    pub syntax: String,
}

impl Default for Theme {
    fn default() -> Self {
        Theme::load("dark").unwrap_or_else(|_| Theme::fallback())
    }
}

/// The bundled themes; a file of the same name in the user's
/// `~/.config/pairdbg/themes/` takes precedence.
const BUNDLED: &[(&str, &str)] = &[
    ("dark", include_str!("../../themes/dark.toml")),
    ("light", include_str!("../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
    ("gruvbox", include_str!("../../themes/gruvbox.toml")),
];

#[derive(Debug, Default, Deserialize)]
struct ThemeFile {
    inherits: Option<String>,
    syntax: Option<String>,
    #[serde(default)]
    palette: HashMap<String, String>,
    #[serde(default)]
    styles: HashMap<String, StyleSpec>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct StyleSpec {
    fg: Option<String>,
    bg: Option<String>,
    #[serde(default)]
    modifiers: Vec<String>,
}

pub fn names() -> Vec<String> {
    let mut n: Vec<String> = BUNDLED.iter().map(|(n, _)| n.to_string()).collect();
    if let Some(dir) = user_dir()
        && let Ok(rd) = std::fs::read_dir(dir)
    {
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "toml")
                && let Some(stem) = p.file_stem()
            {
                n.push(stem.to_string_lossy().to_string());
            }
        }
    }
    n.sort();
    n.dedup();
    n
}

fn user_dir() -> Option<std::path::PathBuf> {
    crate::paths::config_dir().map(|d| d.join("themes"))
}

fn source(name: &str) -> Result<String, String> {
    if let Some(dir) = user_dir()
        && let Ok(text) = std::fs::read_to_string(dir.join(format!("{name}.toml")))
    {
        return Ok(text);
    }
    BUNDLED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| t.to_string())
        .ok_or_else(|| format!("no theme {name:?}; the themes are {}", names().join(", ")))
}

/// A theme file with what it inherits folded in, parents first.
fn resolve(name: &str, depth: usize) -> Result<ThemeFile, String> {
    if depth > 8 {
        return Err(format!("theme {name:?}: `inherits` goes round in a circle"));
    }
    parse_and_inherit(name, &source(name)?, depth)
}

fn parse_and_inherit(name: &str, text: &str, depth: usize) -> Result<ThemeFile, String> {
    let file: ThemeFile = toml::from_str(text).map_err(|e| format!("theme {name:?}: {e}"))?;
    let Some(parent) = file.inherits.clone() else {
        return Ok(file);
    };
    let mut base = resolve(&parent, depth + 1)?;
    base.palette.extend(file.palette);
    base.styles.extend(file.styles);
    if file.syntax.is_some() {
        base.syntax = file.syntax;
    }
    Ok(base)
}

fn colour(spec: &str, palette: &HashMap<String, String>) -> Result<Color, String> {
    let spec = palette.get(spec).map(String::as_str).unwrap_or(spec);
    if let Some(hex) = spec.strip_prefix('#')
        && hex.len() == 6
        && let Ok(v) = u32::from_str_radix(hex, 16)
    {
        return Ok(Color::Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8));
    }
    spec.parse::<Color>()
        .map_err(|_| format!("{spec:?} is not a colour"))
}

fn style(file: &ThemeFile, key: &str) -> Result<Style, String> {
    let Some(spec) = file.styles.get(key) else {
        return Ok(Style::default());
    };
    let mut st = Style::default();
    if let Some(fg) = &spec.fg {
        st = st.fg(colour(fg, &file.palette).map_err(|e| format!("{key}.fg: {e}"))?);
    }
    if let Some(bg) = &spec.bg {
        st = st.bg(colour(bg, &file.palette).map_err(|e| format!("{key}.bg: {e}"))?);
    }
    for m in &spec.modifiers {
        st = st.add_modifier(match m.as_str() {
            "bold" => Modifier::BOLD,
            "dim" => Modifier::DIM,
            "italic" => Modifier::ITALIC,
            "underlined" => Modifier::UNDERLINED,
            "reversed" => Modifier::REVERSED,
            "crossed_out" => Modifier::CROSSED_OUT,
            other => return Err(format!("{key}.modifiers: {other:?} is not a modifier")),
        });
    }
    Ok(st)
}

impl Theme {
    pub fn load(name: &str) -> Result<Theme, String> {
        Theme::of(resolve(name, 0)?)
    }

    /// A theme from a theme file's text; its `inherits` names a bundled
    /// or user theme.
    pub fn from_toml(text: &str) -> Result<Theme, String> {
        Theme::of(parse_and_inherit("(given)", text, 0)?)
    }

    fn of(f: ThemeFile) -> Result<Theme, String> {
        Ok(Theme {
            text: style(&f, "text")?,
            dim: style(&f, "dim")?,
            title: style(&f, "title")?,
            title_focused: style(&f, "title.focused")?,
            border: style(&f, "border")?,
            border_focused: style(&f, "border.focused")?,
            line_number: style(&f, "line-number")?,
            current_line: style(&f, "line.current")?,
            cursor_line: style(&f, "line.cursor")?,
            exception_line: style(&f, "line.exception")?,
            breakpoint: style(&f, "breakpoint")?,
            breakpoint_agent: style(&f, "breakpoint.agent")?,
            breakpoint_unverified: style(&f, "breakpoint.unverified")?,
            selected: style(&f, "selected")?,
            changed: style(&f, "changed")?,
            error: style(&f, "error")?,
            stderr: style(&f, "stderr")?,
            status: style(&f, "status")?,
            status_key: style(&f, "status.key")?,
            syntax: f.syntax.unwrap_or_else(|| "base16-ocean.dark".into()),
        })
    }

    /// Used only if the bundled default itself failed to load.
    fn fallback() -> Theme {
        let plain = Style::default();
        Theme {
            text: plain,
            dim: plain,
            title: plain,
            title_focused: plain.add_modifier(Modifier::BOLD),
            border: plain,
            border_focused: plain.add_modifier(Modifier::BOLD),
            line_number: plain,
            current_line: plain.add_modifier(Modifier::BOLD),
            cursor_line: plain.add_modifier(Modifier::REVERSED),
            exception_line: plain.add_modifier(Modifier::UNDERLINED),
            breakpoint: plain,
            breakpoint_agent: plain,
            breakpoint_unverified: plain,
            selected: plain.add_modifier(Modifier::REVERSED),
            changed: plain.add_modifier(Modifier::BOLD),
            error: plain,
            stderr: plain,
            status: plain.add_modifier(Modifier::REVERSED),
            status_key: plain.add_modifier(Modifier::REVERSED | Modifier::BOLD),
            syntax: "base16-ocean.dark".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_theme_loads_and_inherits() {
        for (name, _) in BUNDLED {
            let t = Theme::load(name).unwrap_or_else(|e| panic!("{e}"));
            assert!(t.text.fg.is_some(), "{name} has a text colour");
        }
        let light = Theme::load("light").unwrap();
        // Inherited from dark, with light's palette.
        assert_eq!(light.breakpoint.fg, Some(Color::Rgb(0xd7, 0, 0)));
        assert_eq!(light.syntax, "InspiredGitHub");
    }

    #[test]
    fn bad_themes_say_what_is_wrong() {
        assert!(Theme::load("nope").unwrap_err().contains("the themes are"));
        let f: ThemeFile = toml::from_str("[styles]\ntext = { fg = \"notacolour\" }").unwrap();
        assert!(style(&f, "text").unwrap_err().contains("text.fg"));
    }
}
