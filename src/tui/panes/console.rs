//! The console: evaluate in the selected frame, with history.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::block;
use crate::tui::state::{Focus, Prompt, UiState};
use crate::tui::theme::Theme;

pub fn render(f: &mut Frame, area: Rect, ui: &UiState, theme: &Theme) {
    let blk = block("console", Focus::Console, ui, theme);
    let inner = blk.inner(area);
    f.render_widget(blk, area);
    let rows = inner.height as usize;
    let mut lines: Vec<Line> = vec![];
    for e in &ui.console {
        lines.push(Line::from(vec![
            Span::styled("› ", theme.dim),
            Span::styled(e.input.clone(), theme.text),
        ]));
        match &e.output {
            Ok(v) => lines.push(Line::from(Span::styled(v.clone(), theme.text))),
            Err(m) => lines.push(Line::from(Span::styled(m.clone(), theme.error))),
        }
    }
    let prompt = match ui.typing {
        Some(Prompt::Evaluate) => Line::from(vec![
            Span::styled("› ", theme.title_focused),
            Span::styled(format!("{}▏", ui.input), theme.text),
        ]),
        Some(Prompt::AddWatch) => Line::from(vec![
            Span::styled("watch › ", theme.title_focused),
            Span::styled(format!("{}▏", ui.input), theme.text),
        ]),
        Some(Prompt::Note) => Line::from(vec![
            Span::styled("note for the agent › ", theme.title_focused),
            Span::styled(format!("{}▏", ui.input), theme.text),
        ]),
        Some(Prompt::SetValue) => Line::from(vec![
            Span::styled(format!("set {} › ", ui.value_path), theme.title_focused),
            Span::styled(format!("{}▏", ui.input), theme.text),
        ]),
        Some(Prompt::EditWatch(_)) => Line::from(vec![
            Span::styled("edit watch › ", theme.title_focused),
            Span::styled(format!("{}▏", ui.input), theme.text),
        ]),
        Some(Prompt::Memory) => Line::from(vec![
            Span::styled("memory at (pointer or address) › ", theme.title_focused),
            Span::styled(format!("{}▏", ui.input), theme.text),
        ]),
        Some(Prompt::Search) => Line::from(vec![
            Span::styled("search › ", theme.title_focused),
            Span::styled(format!("{}▏", ui.input), theme.text),
        ]),
        Some(Prompt::Condition(_)) => Line::from(vec![
            Span::styled("condition › ", theme.title_focused),
            Span::styled(format!("{}▏", ui.input), theme.text),
        ]),
        Some(Prompt::HitCount(_)) => Line::from(vec![
            Span::styled("hit count › ", theme.title_focused),
            Span::styled(format!("{}▏", ui.input), theme.text),
        ]),
        Some(Prompt::LogMessage(_)) => Line::from(vec![
            Span::styled("log message › ", theme.title_focused),
            Span::styled(format!("{}▏", ui.input), theme.text),
        ]),
        None => Line::from(Span::styled(
            "e evaluates · a notes for the agent",
            theme.dim,
        )),
    };
    lines.push(prompt);
    let skip = lines.len().saturating_sub(rows);
    f.render_widget(Paragraph::new(lines.split_off(skip)), inner);
}
