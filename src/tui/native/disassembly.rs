//! The disassembly view: the selected frame's instructions around the
//! current one (marked `→`), each source line printed above the first
//! instruction it compiled to.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::session::native::Disassembly;
use crate::session::types::{RunState, Snapshot};
use crate::tui::panes::block;
use crate::tui::state::{Focus, UiState};
use crate::tui::theme::Theme;

/// The view's lines, and the index of the current instruction's line.
pub fn lines<'a>(d: &Disassembly, theme: &Theme, width: usize) -> (Vec<Line<'a>>, Option<usize>) {
    let mut out = vec![];
    let mut current = None;
    let mut symbol: Option<&str> = None;
    for i in &d.instructions {
        let head = i
            .symbol
            .as_deref()
            .map(|s| s.split(" + ").next().unwrap_or(s));
        if head.is_some() && head != symbol {
            symbol = head;
            out.push(Line::from(Span::styled(
                format!("{}:", head.unwrap_or_default()),
                theme.title,
            )));
        }
        if let Some(src) = &i.source {
            let name = src
                .file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let text = src.text.as_deref().unwrap_or("").trim();
            out.push(Line::from(Span::styled(
                cut(&format!("  {name}:{}  {text}", src.line), width),
                theme.dim,
            )));
        }
        let here = i.address == d.pc;
        if here {
            current = Some(out.len());
        }
        let marker = if here { "→ " } else { "  " };
        let line = Line::from(vec![
            Span::styled(marker, theme.current_line),
            Span::styled(format!("0x{:012x}  ", i.address), theme.line_number),
            Span::styled(
                cut(&i.text, width.saturating_sub(16)),
                if here { theme.current_line } else { theme.text },
            ),
        ]);
        out.push(line);
    }
    (out, current)
}

/// A text cut to `width` characters, ending with `…` when cut.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut s: String = text.chars().take(width.saturating_sub(1)).collect();
    s.push('…');
    s
}

pub fn render(
    f: &mut Frame,
    area: Rect,
    snap: &Snapshot,
    ui: &UiState,
    theme: &Theme,
    read: Option<&Result<Disassembly, String>>,
    scroll: Option<usize>,
) {
    let title = match read {
        Some(Ok(d)) if d.frame_index > 0 => format!("disassembly (frame {})", d.frame_index),
        _ => "disassembly".to_string(),
    };
    let blk = block(&title, Focus::Source, ui, theme);
    let inner = blk.inner(area);
    f.render_widget(blk, area);
    let note = |text: &str| Paragraph::new(Line::from(Span::styled(text.to_string(), theme.dim)));
    if snap.state != RunState::Stopped {
        f.render_widget(
            note("the program is not stopped; the instructions show at the next stop"),
            inner,
        );
        return;
    }
    let d = match read {
        None => return f.render_widget(note("reading the instructions…"), inner),
        Some(Err(e)) => {
            return f.render_widget(
                Paragraph::new(Line::from(Span::styled(e.clone(), theme.error))),
                inner,
            );
        }
        Some(Ok(d)) => d,
    };
    let (lines, current) = lines(d, theme, inner.width as usize);
    let height = inner.height as usize;
    let start = scroll
        .unwrap_or_else(|| {
            crate::tui::panes::window_start(current.unwrap_or(0), height, lines.len())
        })
        .min(lines.len().saturating_sub(1));
    let shown: Vec<Line> = lines.into_iter().skip(start).take(height).collect();
    f.render_widget(Paragraph::new(shown), inner);
}
