//! When debugpy is missing, the TUI says so and offers to install it, showing
//! pip's progress as it goes.

use std::process::Stdio;

use crossterm::event::{Event, EventStream, KeyCode, KeyEventKind};
use futures::StreamExt;
use ratatui::DefaultTerminal;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use tokio::io::{AsyncBufReadExt, BufReader};

use super::theme::Theme;
use crate::session::setup::{MissingDebugpy, debugpy_installed};

fn show(
    terminal: &mut DefaultTerminal,
    theme: &Theme,
    title: &str,
    lines: &[String],
) -> std::io::Result<()> {
    terminal.draw(|f| {
        let a = f.area();
        let w = a.width.min(90);
        let h = (lines.len() as u16 + 2).min(a.height);
        let r = Rect::new(a.x + (a.width - w) / 2, a.y + (a.height - h) / 2, w, h);
        let text: Vec<Line> = lines
            .iter()
            .map(|l| Line::styled(l.clone(), theme.text))
            .collect();
        f.render_widget(Clear, r);
        f.render_widget(
            Paragraph::new(text).wrap(Wrap { trim: false }).block(
                Block::default()
                    .borders(Borders::ALL)
                    .border_style(theme.border_focused)
                    .title(format!(" {title} ")),
            ),
            r,
        );
    })?;
    Ok(())
}

/// Asks, installs on yes, and says whether debugpy is now there.
pub async fn offer(
    terminal: &mut DefaultTerminal,
    theme: &Theme,
    missing: &MissingDebugpy,
) -> bool {
    let python = missing.python.as_path();
    let cmd = missing.install_command.clone();
    let mut lines = vec![
        format!("debugpy is not installed for {}.", python.display()),
        String::new(),
        "pairdbg needs it to debug Python. Install it now with".into(),
        format!("  {cmd}"),
        String::new(),
        "y installs · n or q quits".into(),
    ];
    let mut keys = EventStream::new();
    loop {
        if show(terminal, theme, "debugpy is missing", &lines).is_err() {
            return false;
        }
        match keys.next().await {
            Some(Ok(Event::Key(k))) if k.kind != KeyEventKind::Release => match k.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => break,
                KeyCode::Char('n') | KeyCode::Char('q') | KeyCode::Esc => return false,
                _ => {}
            },
            Some(Ok(_)) => {}
            _ => return false,
        }
    }
    lines = vec![format!("$ {cmd}")];
    let child = tokio::process::Command::new(python)
        .args(["-m", "pip", "install", "debugpy"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn();
    let Ok(mut child) = child else { return false };
    let mut out = BufReader::new(child.stdout.take().expect("piped")).lines();
    let mut err = BufReader::new(child.stderr.take().expect("piped")).lines();
    let (mut out_done, mut err_done) = (false, false);
    while !(out_done && err_done) {
        let line = tokio::select! {
            l = out.next_line(), if !out_done => l.ok().flatten().or_else(|| { out_done = true; None }),
            l = err.next_line(), if !err_done => l.ok().flatten().or_else(|| { err_done = true; None }),
        };
        if let Some(l) = line {
            lines.push(l);
            let keep = lines.len().saturating_sub(12);
            lines.drain(1..keep.max(1));
            let _ = show(terminal, theme, "installing debugpy", &lines);
        }
    }
    let ok =
        child.wait().await.map(|s| s.success()).unwrap_or(false) && debugpy_installed(python).await;
    if !ok {
        lines.push(String::new());
        lines.push(format!(
            "pip failed. Run it yourself: {cmd}  (any key quits)"
        ));
        let _ = show(terminal, theme, "installing debugpy", &lines);
        let _ = keys.next().await;
    }
    ok
}
