//! The source pane: highlighted code, line numbers, a breakpoint gutter, the
//! current line, and the cursor.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::block;
use crate::session::types::{Breakpoint, Origin, RunState, Snapshot, SourceFile, Var};
use crate::tui::highlight;
use crate::tui::state::{Focus, UiState};
use crate::tui::theme::Theme;

pub fn gutter_mark<'a>(bps: &[&Breakpoint], theme: &Theme) -> Span<'a> {
    let Some(b) = bps.first() else {
        return Span::raw(" ");
    };
    if !b.enabled {
        return Span::styled("○", theme.breakpoint_unverified);
    }
    let glyph = if b.log_message.is_some() {
        "◆"
    } else if b.condition.is_some() || b.hit_condition.is_some() {
        "◉"
    } else {
        "●"
    };
    let style = if !b.verified {
        theme.breakpoint_unverified
    } else if b.origin != Origin::Human {
        theme.breakpoint_agent
    } else {
        theme.breakpoint
    };
    Span::styled(glyph, style)
}

#[allow(clippy::too_many_arguments)]
pub fn render(
    f: &mut Frame,
    area: Rect,
    snap: &Snapshot,
    ui: &UiState,
    theme: &Theme,
    file: Option<&SourceFile>,
    colours: Option<&[highlight::Line]>,
    previous: Option<&[Var]>,
) {
    let title = match file {
        Some(sf) => snap.display_path(&sf.path),
        None => "source".into(),
    };
    let title = match ui.history {
        Some((n, of)) => format!("stop {n} of {of} (read-only) · {title}"),
        None => title,
    };
    let blk = block(&title, Focus::Source, ui, theme);
    let inner = blk.inner(area);
    f.render_widget(blk, area);
    let Some(sf) = file else {
        let msg = match snap.state {
            RunState::Starting => "starting the program…",
            RunState::Running => "running…",
            _ => "no source",
        };
        f.render_widget(Paragraph::new(msg).style(theme.dim), inner);
        return;
    };
    let top = snap
        .stop
        .as_ref()
        .filter(|_| snap.state == RunState::Stopped);
    let frame = top.and_then(|s| s.frames.get(ui.selected_frame));
    let current = frame
        .filter(|fr| fr.file.as_deref() == Some(sf.path.as_path()))
        .map(|fr| fr.line as usize);
    let is_exception = top.is_some_and(|s| s.exception.is_some()) && ui.selected_frame == 0;
    // Inline values: the selected frame's, on its function's lines up to
    // the one it is at.
    let inline = match (top, current) {
        (Some(stop), Some(at)) if ui.inline_values => Some((
            // The variables were read in the frame's language.
            super::inline_values::function_start(
                &sf.lines,
                at,
                ui.locals(stop).iter().find_map(|v| v.language.0),
            )..=at,
            ui.locals(stop),
            previous.filter(|_| ui.selected_frame == 0),
        )),
        _ => None,
    };
    let function = crate::tui::number_format::function_at(snap, ui.selected_frame);
    let width = sf.lines.len().max(1).to_string().len();
    let rows = inner.height as usize;
    let first = ui.scroll.max(1);
    let mut lines = Vec::with_capacity(rows);
    for n in first..(first + rows).min(sf.lines.len() + 1) {
        let bps: Vec<&Breakpoint> = snap
            .breakpoints
            .iter()
            .filter(|b| {
                b.file == sf.path && !b.temporary && b.bound_line.unwrap_or(b.line) as usize == n
            })
            .collect();
        let mut spans = vec![gutter_mark(&bps, theme)];
        let arrow = if Some(n) == current { "→" } else { " " };
        spans.push(Span::styled(
            arrow,
            theme.breakpoint_agent.patch(theme.changed),
        ));
        spans.push(Span::styled(format!("{n:>width$} "), theme.line_number));
        let code: Vec<Span> = match colours.and_then(|c| c.get(n - 1)) {
            Some(pieces) => pieces
                .iter()
                .map(|(st, t)| Span::styled(t.clone(), *st))
                .collect(),
            None => vec![Span::styled(sf.lines[n - 1].clone(), theme.text)],
        };
        spans.extend(super::clip::shift(super::tabs::expand(code), ui.hscroll));
        if let Some((range, vars, previous)) = &inline
            && range.contains(&n)
        {
            spans.extend(super::inline_values::annotate(
                &sf.lines[n - 1],
                vars,
                *previous,
                theme,
                (&ui.formats, &function),
            ));
        }
        let mut line = super::clip::ellipsize(Line::from(spans), inner.width as usize);
        let mut bg = Style::default();
        if Some(n) == current {
            bg = if is_exception {
                theme.exception_line
            } else {
                theme.current_line
            };
        }
        if ui.focus == Focus::Source && n == ui.cursor {
            bg = bg.patch(theme.cursor_line);
        }
        line = line.style(bg);
        lines.push(line);
    }
    f.render_widget(Paragraph::new(lines), inner);
}
