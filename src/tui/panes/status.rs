//! The status bar: state, stop reason, who drives, and key hints. A message
//! too long for it is left to the message line (see `messages`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::session::ControlMode;
use crate::session::types::{RunState, Snapshot};
use crate::tui::state::UiState;
use crate::tui::theme::Theme;

const SPINNER: [&str; 4] = ["◐", "◓", "◑", "◒"];

pub fn render(
    f: &mut Frame,
    area: Rect,
    snap: &Snapshot,
    ui: &UiState,
    theme: &Theme,
    mode: ControlMode,
) -> bool {
    let state = match (snap.state, &snap.stop) {
        (RunState::Stopped, Some(s)) => match (&s.exception, &s.condition_error) {
            (Some(e), _) => format!("stopped: {}: {}", e.type_name, e.message),
            (None, Some(error)) => {
                let at = s
                    .frames
                    .first()
                    .map(|f| {
                        let name = f
                            .file
                            .as_deref()
                            .and_then(|p| p.file_name())
                            .map(|n| n.to_string_lossy().into_owned())
                            .unwrap_or_default();
                        format!(" at {name}:{}", f.line)
                    })
                    .unwrap_or_default();
                format!("stopped: condition error{at}: {error}")
            }
            (None, None) => format!("stopped: {}", s.reason),
        },
        (RunState::Exited, _) => snap.state_sentence().trim_end_matches('.').to_string(),
        (RunState::Running | RunState::Starting, _) if snap.silent.is_some() => {
            snap.silent.clone().unwrap_or_default()
        }
        (RunState::Running | RunState::Starting, _) => format!(
            "{} {}",
            SPINNER[(ui.tick % 4) as usize],
            snap.state.describe()
        ),
        (s, _) => s.describe().to_string(),
    };
    let state = match ui.history {
        Some((n, of)) => format!("stop {n} of {of} (read-only) · ←/→ stops · Esc: now"),
        None => state,
    };
    let state = if ui.waiting && !ui.busy {
        format!(
            "{state} {} waiting for the adapter",
            SPINNER[(ui.tick % 4) as usize]
        )
    } else {
        state
    };
    let driver = match mode {
        ControlMode::Shared => "person + agent",
        ControlMode::HumanOnly => "person only (T hands back)",
    };
    let session = if ui.sessions.len() > 1 {
        format!(
            " session {} of {} (S switches) │",
            snap.session_id,
            ui.sessions.len()
        )
    } else {
        String::new()
    };
    let mut spans = vec![
        Span::styled(format!(" {state} "), theme.status_key),
        Span::styled(session, theme.status),
        Span::styled(
            format!(
                " {} │ drives: {driver} │ epoch {} ",
                snap.program, snap.epoch
            ),
            theme.status,
        ),
    ];
    if let Some(src) = snap.stale_source.as_deref() {
        spans.insert(
            1,
            Span::styled(
                format!(
                    " the binary is older than {}: rebuild, or R runs old code ",
                    snap.display_path(src)
                ),
                theme.status.patch(theme.error),
            ),
        );
    }
    if ui.approve_required {
        spans.push(Span::styled(
            " │ approving agent side effects (A) ",
            theme.status,
        ));
    }
    let mut shown = true;
    if let Some(m) = &ui.message {
        let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
        shown = used + m.chars().count() + 2 <= area.width as usize;
        if shown {
            spans.push(Span::styled(
                format!(" {m} "),
                theme.status.patch(theme.error),
            ));
        }
    }
    if let Some(url) = &ui.endpoint {
        spans.push(Span::styled(
            format!(
                "│ MCP {} ",
                url.trim_start_matches("http://").trim_end_matches("/mcp")
            ),
            theme.status,
        ));
    }
    let hints =
        " F5/c cont  F10/n over  F11/s into  S-F11/f out  F9/b break  T control  ? help  q quit ";
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    if used + hints.len() <= area.width as usize {
        let pad = area.width as usize - used - hints.chars().count();
        spans.push(Span::styled(" ".repeat(pad), theme.status));
        spans.push(Span::styled(hints, theme.status));
    }
    f.render_widget(Paragraph::new(Line::from(spans)).style(theme.status), area);
    shown
}
