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
    // Other threads, if any, on a line above the frames of the shown one.
    let mut inner = inner;
    if shows_threads(ui, inner.height) {
        let mut spans = vec![Span::styled(THREADS_PREFIX, theme.dim)];
        let shown = (stop.child, stop.thread_id);
        for (i, (id, label)) in thread_labels(ui, shown).into_iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(THREADS_SEP, theme.dim));
            }
            let style = if id == shown {
                theme.changed
            } else {
                theme.dim
            };
            spans.push(Span::styled(label, style));
        }
        f.render_widget(
            Paragraph::new(Line::from(spans)),
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

const THREADS_PREFIX: &str = "threads: ";
const THREADS_SEP: &str = " · ";

/// Whether the pane, `height` rows inside its border, gives a row to threads.
pub fn shows_threads(ui: &UiState, height: u16) -> bool {
    ui.threads.len() > 1 && height > 2
}

/// A thread as (process number, thread id): ids repeat across processes.
type ThreadKey = (Option<u32>, i64);

fn thread_labels(ui: &UiState, shown: ThreadKey) -> Vec<(ThreadKey, String)> {
    ui.threads
        .iter()
        .map(|t| {
            let (id, name) = (t.id, &t.name);
            // A child's threads carry their process's name.
            let name = match &t.process {
                Some(p) => format!("{name} in {p}"),
                None => name.clone(),
            };
            let key = (t.child, id);
            let label = if key == shown {
                format!("[{id} {name}]")
            } else {
                format!("{id} {name}")
            };
            (key, label)
        })
        .collect()
}

/// The thread whose label is at `column` of the threads row (0 = the
/// first column inside the border).
pub fn thread_at(ui: &UiState, shown: ThreadKey, column: usize) -> Option<ThreadKey> {
    let mut x = THREADS_PREFIX.chars().count();
    for (id, label) in thread_labels(ui, shown) {
        let w = label.chars().count();
        if column >= x && column < x + w {
            return Some(id);
        }
        x += w + THREADS_SEP.chars().count();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_on_the_threads_row_finds_the_thread_under_it() {
        let row = |id, name: &str| crate::session::types::ThreadRow {
            child: None,
            process: None,
            id,
            name: name.into(),
        };
        let ui = UiState {
            threads: vec![row(1, "MainThread"), row(7, "worker")],
            ..Default::default()
        };
        let t = |id| Some((None, id));
        let shown = (None, 1);
        // "threads: [1 MainThread] · 7 worker"
        assert_eq!(thread_at(&ui, shown, 0), None, "the prefix");
        assert_eq!(thread_at(&ui, shown, 9), t(1));
        assert_eq!(thread_at(&ui, shown, 22), t(1));
        assert_eq!(thread_at(&ui, shown, 23), None, "the separator");
        assert_eq!(thread_at(&ui, shown, 26), t(7));
        assert_eq!(thread_at(&ui, shown, 33), t(7));
        assert_eq!(thread_at(&ui, shown, 34), None);
        assert!(shows_threads(&ui, 3) && !shows_threads(&ui, 2));
    }
}
