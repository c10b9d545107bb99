//! Locals of the selected frame, rendered with the viewport's value rules;
//! values that changed since the last stop are lit.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{block, window_start};
use crate::session::fetch::is_hidden_group;
use crate::session::types::{RunState, Snapshot, Var};
use crate::tui::state::{Focus, UiState};
use crate::tui::theme::Theme;
use crate::viewport::ViewportConfig;
use crate::viewport::value::render as render_value;

pub fn visible(vars: &[Var]) -> Vec<&Var> {
    vars.iter()
        .filter(|v| !is_hidden_group(&v.name) && !v.name.starts_with("__"))
        .collect()
}

pub fn render(
    f: &mut Frame,
    area: Rect,
    snap: &Snapshot,
    ui: &UiState,
    theme: &Theme,
    previous: Option<&[Var]>,
) {
    let blk = block("variables", Focus::Variables, ui, theme);
    let inner = blk.inner(area);
    f.render_widget(blk, area);
    let Some(stop) = snap
        .stop
        .as_ref()
        .filter(|_| snap.state == RunState::Stopped)
    else {
        return;
    };
    let cfg = ViewportConfig {
        string_truncate_length: inner.width.max(20) as usize,
        ..Default::default()
    };
    let vars = visible(&stop.locals);
    let name_w = vars
        .iter()
        .map(|v| v.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(24);
    let rows = inner.height as usize;
    let start = window_start(ui.selected_var, rows, vars.len());
    let lines: Vec<Line> = vars
        .iter()
        .enumerate()
        .skip(start)
        .take(rows)
        .map(|(i, v)| {
            let value = render_value(v, &cfg, 0);
            let changed = previous.is_some_and(|p| {
                !p.iter()
                    .any(|o| o.name == v.name && render_value(o, &cfg, 0) == value)
            });
            let expand = if v.reference > 0 { "▸ " } else { "  " };
            let line = Line::from(vec![
                Span::styled(expand, theme.dim),
                Span::styled(format!("{:<name_w$}", v.name), theme.text),
                Span::styled(" = ", theme.dim),
                Span::styled(value, if changed { theme.changed } else { theme.text }),
            ]);
            if ui.focus == Focus::Variables && i == ui.selected_var {
                line.style(theme.selected)
            } else {
                line
            }
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
