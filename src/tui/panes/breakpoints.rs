//! Every breakpoint: where, whose, verified or not, and its condition, hit
//! count or log message; then the adapter's exception filters, which VS
//! Code lists too (last here, where a small pane hides them first). Space
//! toggles, d deletes, i/h/L edit. A data breakpoint (W on a variable)
//! shows after the breakpoints.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{block, window_start};
use crate::session::types::{Breakpoint, BreakpointKind, Origin, Snapshot};
use crate::tui::state::{Focus, UiState};
use crate::tui::theme::Theme;

/// The breakpoints the pane lists, in its order.
pub fn listed(snap: &Snapshot) -> Vec<&Breakpoint> {
    let mut v: Vec<&Breakpoint> = snap.breakpoints.iter().filter(|b| !b.temporary).collect();
    v.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    v
}

/// One row of the pane.
pub enum Entry<'a> {
    /// An exception filter the adapter offers: its id, label, and whether it is on.
    Filter {
        id: &'a str,
        label: &'a str,
        on: bool,
    },
    Breakpoint(&'a Breakpoint),
    /// The expression whose writes stop the program (a data breakpoint).
    DataWatch(&'a str),
}

/// The pane's rows: the breakpoints, the data breakpoint, then the
/// exception filters.
pub fn entries(snap: &Snapshot) -> Vec<Entry<'_>> {
    let filters = snap
        .available_exception_filters
        .iter()
        .map(|(id, label)| Entry::Filter {
            id,
            label,
            on: snap.exception_filters.iter().any(|f| f == id),
        });
    listed(snap)
        .into_iter()
        .map(Entry::Breakpoint)
        .chain(snap.data_watch.as_deref().map(Entry::DataWatch))
        .chain(filters)
        .collect()
}

pub fn render(f: &mut Frame, area: Rect, snap: &Snapshot, ui: &UiState, theme: &Theme) {
    let blk = block("breakpoints", Focus::Breakpoints, ui, theme);
    let inner = blk.inner(area);
    f.render_widget(blk, area);
    let all = entries(snap);
    let rows = inner.height as usize;
    let start = window_start(ui.selected_breakpoint, rows, all.len());
    let mut lines: Vec<Line> = all
        .iter()
        .enumerate()
        .skip(start)
        .take(rows)
        .map(|(i, entry)| {
            let b = match entry {
                Entry::Filter { label, on, .. } => {
                    let line = Line::from(vec![
                        Span::styled(if *on { "☑" } else { "☐" }, theme.changed),
                        Span::styled(format!(" {label}"), theme.text),
                    ]);
                    return if ui.focus == Focus::Breakpoints && i == ui.selected_breakpoint {
                        line.style(theme.selected)
                    } else {
                        line
                    };
                }
                Entry::DataWatch(expression) => {
                    let line = Line::from(vec![
                        Span::styled("◆", theme.breakpoint),
                        Span::styled(format!(" when {expression} is written"), theme.text),
                    ]);
                    return if ui.focus == Focus::Breakpoints && i == ui.selected_breakpoint {
                        line.style(theme.selected)
                    } else {
                        line
                    };
                }
                Entry::Breakpoint(b) => b,
            };
            let mark = super::source::gutter_mark(&[b], theme);
            let file = b
                .file
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            // A disabled breakpoint reads as dim throughout.
            let text = if b.enabled { theme.text } else { theme.dim };
            let place = match (&b.function, file.is_empty()) {
                (Some(f), true) => format!(" {f}()"),
                (Some(f), false) => format!(" {f}() {file}:{}", b.at_line()),
                (None, _) => format!(" {file}:{}", b.at_line()),
            };
            let mut spans = vec![mark, Span::styled(place, text)];
            if b.kind == BreakpointKind::Tracepoint {
                spans.push(Span::styled(" trace", theme.dim));
            }
            if let Some(c) = &b.condition {
                spans.push(Span::styled(format!(" if {c}"), theme.dim));
            }
            if let Some(h) = &b.hit_condition {
                spans.push(Span::styled(format!(" hits {h}"), theme.dim));
            }
            if let Some(l) = &b.log_message {
                spans.push(Span::styled(format!(" log {l:?}"), theme.dim));
            }
            if b.hits > 0 {
                spans.push(Span::styled(format!(" ×{}", b.hits), theme.dim));
            }
            if !b.enabled {
                spans.push(Span::styled(" (off)", theme.dim));
            }
            if b.origin != Origin::Human {
                spans.push(Span::styled(" agent", theme.breakpoint_agent));
            }
            // Why it is not where it was set, or not bound at all.
            if let Some(m) = &b.message {
                spans.push(Span::styled(format!(" — {m}"), theme.dim));
            }
            let line = Line::from(spans);
            if ui.focus == Focus::Breakpoints && i == ui.selected_breakpoint {
                line.style(theme.selected)
            } else {
                line
            }
        })
        .collect();
    // Rows map to entries one to one (the mouse relies on it), so the hint
    // shows only in an empty pane.
    if all.is_empty() {
        lines.push(Line::from(Span::styled("F9 on a line sets one", theme.dim)));
    }
    f.render_widget(Paragraph::new(lines), inner);
}
