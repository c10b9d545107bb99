//! Colours for the panes. The built-in dark theme for now; TOML themes
//! (themes/) load into the same struct.

use ratatui::style::{Color, Modifier, Style};

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
        let base = Style::default().fg(Color::Rgb(0xd0, 0xd0, 0xd0));
        Theme {
            text: base,
            dim: Style::default().fg(Color::DarkGray),
            title: Style::default().fg(Color::Gray),
            title_focused: Style::default()
                .fg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            border: Style::default().fg(Color::DarkGray),
            border_focused: Style::default().fg(Color::Cyan),
            line_number: Style::default().fg(Color::DarkGray),
            current_line: Style::default().bg(Color::Rgb(0x2a, 0x3a, 0x1e)),
            cursor_line: Style::default().add_modifier(Modifier::REVERSED),
            exception_line: Style::default().bg(Color::Rgb(0x4a, 0x1e, 0x1e)),
            breakpoint: Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
            breakpoint_agent: Style::default()
                .fg(Color::Magenta)
                .add_modifier(Modifier::BOLD),
            breakpoint_unverified: Style::default().fg(Color::DarkGray),
            selected: Style::default().bg(Color::Rgb(0x26, 0x3a, 0x52)),
            changed: Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            error: Style::default().fg(Color::Red),
            stderr: Style::default().fg(Color::LightRed),
            status: Style::default().fg(Color::Black).bg(Color::Gray),
            status_key: Style::default()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            syntax: "base16-ocean.dark".into(),
        }
    }
}
