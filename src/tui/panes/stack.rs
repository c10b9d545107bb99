//! The call stack; the selected frame drives source, variables and the console.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

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
    // Other threads, if any, on a line above the frames of the stopped one.
    let mut inner = inner;
    if ui.threads.len() > 1 && inner.height > 2 {
        let names: Vec<String> = ui
            .threads
            .iter()
            .map(|(id, name)| {
                if *id == stop.thread_id {
                    format!("[{id} {name}]")
                } else {
                    format!("{id} {name}")
                }
            })
            .collect();
        let line = Line::from(Span::styled(
            format!("threads: {}", names.join(" · ")),
            theme.dim,
        ));
        f.render_widget(
            Paragraph::new(line),
            ratatui::layout::Rect { height: 1, ..inner },
        );
        inner.y += 1;
        inner.height -= 1;
    }
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
            let line = Line::from(vec![
                Span::styled(mark, theme.changed),
                Span::styled(fr.name.clone(), theme.text),
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
