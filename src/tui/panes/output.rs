//! The program's output, stderr marked, following the end unless scrolled;
//! also the program's terminal, which keys go to while typing. The app puts
//! the lines on screen in `UiState::output`, read from the session's buffer;
//! the title says where they are in it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::block;
use crate::session::output::Stream;
use crate::tui::state::{Focus, UiState};
use crate::tui::theme::Theme;

pub fn render(f: &mut Frame, area: Rect, ui: &UiState, theme: &Theme) {
    let title = if ui.typing_to_program {
        "typing to the program · Esc stops".to_string()
    } else if ui.output_scroll_from_end > 0 {
        format!(
            "output {}–{} of {}",
            ui.output_first + 1,
            (ui.output_first + area.height.saturating_sub(2) as usize).min(ui.output_total),
            ui.output_total
        )
    } else if ui.focus == Focus::Output {
        "output · Enter types".to_string()
    } else {
        "output".to_string()
    };
    let blk = block(&title, Focus::Output, ui, theme);
    let inner = blk.inner(area);
    f.render_widget(blk, area);
    let rows = inner.height as usize;
    let start = ui.output.len().saturating_sub(rows);
    let lines: Vec<Line> = ui.output[start..]
        .iter()
        .map(|(stream, text)| {
            let text = text.trim_end_matches('\n').to_string();
            match stream {
                Stream::Stderr => Line::from(vec![
                    Span::styled("▌", theme.stderr),
                    Span::styled(text, theme.stderr),
                ]),
                Stream::Console | Stream::Build => Line::from(Span::styled(text, theme.dim)),
                Stream::Stdout => Line::from(Span::styled(text, theme.text)),
            }
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
    if ui.typing_to_program {
        super::program_cursor::place(f, inner, &ui.output[start..]);
    }
}
