//! Every breakpoint: where, whose, verified or not, and its condition, hit
//! count or log message. Space toggles, d deletes, i/h/L edit.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{block, window_start};
use crate::session::types::{Breakpoint, Origin, Snapshot};
use crate::tui::state::{Focus, UiState};
use crate::tui::theme::Theme;

/// The breakpoints the pane lists, in its order.
pub fn listed(snap: &Snapshot) -> Vec<&Breakpoint> {
    let mut v: Vec<&Breakpoint> = snap.breakpoints.iter().filter(|b| !b.temporary).collect();
    v.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    v
}

pub fn render(f: &mut Frame, area: Rect, snap: &Snapshot, ui: &UiState, theme: &Theme) {
    let blk = block("breakpoints", Focus::Breakpoints, ui, theme);
    let inner = blk.inner(area);
    f.render_widget(blk, area);
    let bps = listed(snap);
    if bps.is_empty() {
        f.render_widget(
            Paragraph::new("F9 on a line sets one").style(theme.dim),
            inner,
        );
        return;
    }
    let rows = inner.height as usize;
    let start = window_start(ui.selected_breakpoint, rows, bps.len());
    let lines: Vec<Line> = bps
        .iter()
        .enumerate()
        .skip(start)
        .take(rows)
        .map(|(i, b)| {
            let mark = super::source::gutter_mark(&[*b], theme);
            let file = b
                .file
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let mut spans = vec![
                mark,
                Span::styled(
                    format!(" {file}:{}", b.bound_line.unwrap_or(b.line)),
                    theme.text,
                ),
            ];
            if let Some(c) = &b.condition {
                spans.push(Span::styled(format!(" if {c}"), theme.dim));
            }
            if let Some(h) = &b.hit_condition {
                spans.push(Span::styled(format!(" hits {h}"), theme.dim));
            }
            if let Some(l) = &b.log_message {
                spans.push(Span::styled(format!(" log {l:?}"), theme.dim));
            }
            if !b.enabled {
                spans.push(Span::styled(" (off)", theme.dim));
            }
            if b.origin == Origin::Agent {
                spans.push(Span::styled(" agent", theme.breakpoint_agent));
            }
            let line = Line::from(spans);
            if ui.focus == Focus::Breakpoints && i == ui.selected_breakpoint {
                line.style(theme.selected)
            } else {
                line
            }
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
