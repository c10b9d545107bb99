//! The agent's activity: every MCP call as it happens, and its notes.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::block;
use crate::tui::state::{Focus, UiState};
use crate::tui::theme::Theme;

pub fn render(f: &mut Frame, area: Rect, ui: &UiState, theme: &Theme) {
    let blk = block("agent", Focus::Activity, ui, theme);
    let inner = blk.inner(area);
    f.render_widget(blk, area);
    if ui.activity.is_empty() {
        let hint = match &ui.endpoint {
            Some(url) => format!("agents join with `pairdbg mcp` ({url})"),
            None => "no agent endpoint".into(),
        };
        f.render_widget(
            Paragraph::new(hint)
                .style(theme.dim)
                .wrap(Wrap { trim: true }),
            inner,
        );
        return;
    }
    let rows = inner.height as usize;
    let width = (inner.width as usize).saturating_sub(2).max(10);
    let mut lines: Vec<Line> = vec![];
    for a in &ui.activity {
        if a.tool == "debug_note" {
            // Notes are the agent talking: wrap them rather than cut them.
            let text = a.args.split("text=").nth(1).unwrap_or(&a.args);
            let chars: Vec<char> = text.chars().collect();
            for (i, chunk) in chars.chunks(width).enumerate() {
                let lead = if i == 0 { "✎ " } else { "  " };
                lines.push(Line::from(vec![
                    Span::styled(lead, theme.breakpoint_agent),
                    Span::styled(chunk.iter().collect::<String>(), theme.changed),
                ]));
            }
            continue;
        }
        let tool = a.tool.trim_start_matches("debug_");
        let result_style = if a.is_error { theme.error } else { theme.dim };
        lines.push(Line::from(vec![
            Span::styled(format!("{tool} "), theme.breakpoint_agent),
            Span::styled(format!("{} ", a.args), theme.text),
            Span::styled(format!("→ {} ", a.summary), result_style),
            Span::styled(format!("{} ms", a.millis), theme.dim),
        ]));
    }
    let lines = lines.split_off(lines.len().saturating_sub(rows));
    f.render_widget(Paragraph::new(lines), inner);
}
