//! The call stack; the selected frame drives source, variables and the console.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::thread_rows::{self, Look};
use super::{block, window_start};
use crate::session::types::{RunState, Snapshot};
use crate::tui::state::{Focus, UiState};
use crate::tui::theme::Theme;

pub fn render(f: &mut Frame, area: Rect, snap: &Snapshot, ui: &UiState, theme: &Theme) {
    let stop = snap
        .stop
        .as_ref()
        .filter(|_| snap.state == RunState::Stopped);
    let title = match stop {
        Some(s) => format!(
            "call stack ({} frame{}, thread {})",
            s.total_frames,
            if s.total_frames == 1 { "" } else { "s" },
            s.thread_id
        ),
        None => "call stack".into(),
    };
    let blk = block(&title, Focus::Stack, ui, theme);
    let inner = blk.inner(area);
    f.render_widget(blk, area);
    let Some(stop) = stop else {
        f.render_widget(
            Paragraph::new(snap.state.describe()).style(theme.dim),
            inner,
        );
        return;
    };
    // Other threads, if any, on rows above the frames of the shown one.
    let mut inner = inner;
    let shown = (stop.child, stop.thread_id);
    let rows = thread_rows::lines(ui, shown, inner.height);
    for (i, row) in rows.iter().enumerate() {
        let spans: Vec<Span> = row
            .iter()
            .map(|s| {
                let style = match s.look {
                    Look::Shown => theme.changed,
                    Look::Process => theme.text,
                    Look::Dim => theme.dim,
                };
                Span::styled(s.text.clone(), style)
            })
            .collect();
        let line = super::clip::ellipsize(Line::from(spans), inner.width as usize);
        f.render_widget(
            Paragraph::new(line),
            Rect {
                y: inner.y + i as u16,
                height: 1,
                ..inner
            },
        );
    }
    inner.y += rows.len() as u16;
    inner.height -= rows.len() as u16;
    let rows = inner.height as usize;
    let start = window_start(ui.selected_frame, rows, stop.frames.len());
    let lines: Vec<Line> = stop
        .frames
        .iter()
        .enumerate()
        .skip(start)
        .take(rows)
        .map(|(i, fr)| {
            let file = fr
                .file
                .as_deref()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let mark = if i == ui.selected_frame { "▶ " } else { "  " };
            // Not the program's code: there, but out of the way.
            let name_style = if fr.external { theme.dim } else { theme.text };
            let line = Line::from(vec![
                Span::styled(mark, theme.changed),
                Span::styled(fr.name.clone(), name_style),
                Span::styled(format!("  {file}:{}", fr.line), theme.dim),
            ]);
            if i == ui.selected_frame {
                line.style(theme.selected)
            } else {
                line
            }
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
