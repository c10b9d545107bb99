//! Watch expressions, the person's and the agent's, refreshed at every stop.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::block;
use crate::session::types::{Origin, Snapshot};
use crate::tui::state::{Focus, UiState};
use crate::tui::theme::Theme;
use crate::viewport::ViewportConfig;
use crate::viewport::value::render as render_value;

pub fn render(f: &mut Frame, area: Rect, snap: &Snapshot, ui: &UiState, theme: &Theme) {
    let blk = block("watch", Focus::Watches, ui, theme);
    let inner = blk.inner(area);
    f.render_widget(blk, area);
    if snap.watches.is_empty() {
        f.render_widget(Paragraph::new("w adds a watch").style(theme.dim), inner);
        return;
    }
    let cfg = ViewportConfig::default();
    // Watches are read in the top frame.
    let function = crate::tui::number_format::function_at(snap, 0);
    let lines: Vec<Line> = snap
        .watches
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let who = if w.origin != Origin::Human {
                Span::styled("A ", theme.breakpoint_agent)
            } else {
                Span::raw("  ")
            };
            let value = match &w.value {
                Ok(v) => Span::styled(
                    render_value(&ui.formats.shown(&function, &w.expression, v), &cfg, 0),
                    theme.text,
                ),
                Err(e) => Span::styled(e.clone(), theme.error),
            };
            let line = super::clip::ellipsize(
                Line::from(vec![
                    who,
                    Span::styled(format!("{} = ", w.expression), theme.dim),
                    value,
                ]),
                inner.width as usize,
            );
            if ui.focus == Focus::Watches && i == ui.selected_watch {
                line.style(theme.selected)
            } else {
                line
            }
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
