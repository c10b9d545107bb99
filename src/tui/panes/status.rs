//! The status bar: state, stop reason, who drives, and key hints. A message
//! too long for it is left to the message line (see `messages`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::ranked::{self, Part};
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
        (RunState::Starting, _) if snap.building.is_some() => {
            format!("{} building", SPINNER[(ui.tick % 4) as usize])
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
    let part = |rank, text: String, style| Part {
        rank,
        span: Span::styled(text, style),
        optional: false,
        short: None,
    };
    // Ranked by what the person needs most: the state and the stop reason
    // are never dropped; the key hints go first.
    let mut parts = vec![part(0, format!(" {state} "), theme.status_key)];
    if let Some(rec) = snap.recording.tag() {
        parts.push(part(1, format!(" {rec} "), theme.status.patch(theme.error)));
    }
    if let Some(src) = snap.stale_source.as_deref() {
        parts.push(part(
            1,
            format!(
                " the binary is older than {}: rebuild, or R runs old code ",
                snap.display_path(src)
            ),
            theme.status.patch(theme.error),
        ));
    }
    if ui.sessions.len() > 1 {
        parts.push(part(
            4,
            format!(
                " session {} of {} (S switches) │",
                snap.session_id,
                ui.sessions.len()
            ),
            theme.status,
        ));
    }
    parts.push(part(6, format!(" {} ", snap.program), theme.status));
    parts.push(part(3, format!("│ drives: {driver} "), theme.status));
    parts.push(part(8, format!("│ epoch {} ", snap.epoch), theme.status));
    if ui.approve_required {
        parts.push(part(
            5,
            " │ approving agent side effects (A) ".into(),
            theme.status,
        ));
    }
    let message = ui.message.as_ref().map(|m| {
        parts.push(Part {
            optional: true,
            ..part(2, format!(" {m} "), theme.status.patch(theme.error))
        });
        parts.len() - 1
    });
    if let Some(url) = &ui.endpoint {
        let address = url.trim_start_matches("http://").trim_end_matches("/mcp");
        // Until an agent connects, this line stands for its pane.
        parts.push(if ui.agent_joined {
            part(7, format!("│ MCP {address} "), theme.status)
        } else {
            Part {
                short: Some(Span::styled("│ no agent yet: `pairdbg mcp` ", theme.status)),
                ..part(
                    5,
                    format!("│ MCP {address}: no agent yet, `pairdbg mcp` joins "),
                    theme.status,
                )
            }
        });
    }
    let hints =
        " F5/c cont  F10/n over  F11/s into  S-F11/f out  F9/b break  T control  ? help  q quit ";
    let hints_at = parts.len();
    parts.push(part(9, hints.to_string(), theme.status));
    let kept = ranked::fit(parts, area.width as usize);
    let shown = message.is_none_or(|m| kept.iter().any(|(i, _)| *i == m));
    let used: usize = kept.iter().map(|(_, s)| s.width()).sum();
    let mut spans = vec![];
    for (i, span) in kept {
        if i == hints_at {
            let pad = (area.width as usize).saturating_sub(used);
            spans.push(Span::styled(" ".repeat(pad), theme.status));
        }
        spans.push(span);
    }
    f.render_widget(Paragraph::new(Line::from(spans)).style(theme.status), area);
    shown
}
