//! The console: evaluate in the selected frame, with history; between the
//! answers, what the debugger said about itself.

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
        let Some(input) = &e.input else {
            let said = e.output.as_ref().unwrap_or_else(|m| m);
            lines.push(Line::from(vec![
                Span::styled("debugger: ", theme.dim),
                Span::styled(said.clone(), theme.dim),
            ]));
            continue;
        };
        lines.push(Line::from(vec![
            Span::styled("› ", theme.dim),
            Span::styled(input.clone(), theme.text),
        ]));
        match &e.output {
            Ok(v) => lines.push(Line::from(Span::styled(v.clone(), theme.text))),
            Err(m) => lines.push(Line::from(Span::styled(m.clone(), theme.error))),
        }
    }
    let label = match ui.typing {
        Some(Prompt::Evaluate) => Some("› ".to_string()),
        Some(Prompt::AddWatch) => Some("watch › ".into()),
        Some(Prompt::Note) => Some("note for the agent › ".into()),
        Some(Prompt::SetValue) => Some(format!("set {} › ", ui.value_path)),
        Some(Prompt::EditWatch(_)) => Some("edit watch › ".into()),
        Some(Prompt::Search) => Some("search › ".into()),
        Some(Prompt::Condition(_)) => Some("condition › ".into()),
        Some(Prompt::HitCount(_)) => Some("hit count › ".into()),
        Some(Prompt::LogMessage(_)) => Some("log message › ".into()),
        Some(Prompt::GoToIndex) => Some(format!("go to index of {} › ", ui.value_path)),
        Some(Prompt::Memory) => Some("memory at (pointer or address) › ".into()),
        Some(Prompt::ViewerSearch) => Some("find in the value › ".into()),
        None => None,
    };
    let prompt = match label {
        Some(label) => Line::from(vec![
            Span::styled(label, theme.title_focused),
            Span::styled(edited(&ui.input), theme.text),
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

/// The text being typed with a bar where the cursor is.
pub fn edited(input: &tui_input::Input) -> String {
    let value = input.value();
    let at = value
        .char_indices()
        .nth(input.cursor())
        .map(|(i, _)| i)
        .unwrap_or(value.len());
    format!("{}▏{}", &value[..at], &value[at..])
}
