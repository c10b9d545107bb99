//! When the launch's adapter is missing, the TUI says so and offers to
//! install it, showing the installer's progress as it goes.

use std::process::Stdio;

use crate::tui::screen::Screen;
use crossterm::event::{Event, EventStream, KeyCode, KeyEventKind};
use futures::StreamExt;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use tokio::io::{AsyncBufReadExt, BufReader};

use super::theme::Theme;
use crate::session::LaunchConfig;
use crate::session::setup::{MissingAdapter, install_adapter, missing_adapter};

fn show(
    terminal: &mut Screen,
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

/// Asks, installs on yes, and says whether the adapter is now there.
pub async fn offer(
    terminal: &mut Screen,
    theme: &Theme,
    config: &LaunchConfig,
    missing: &MissingAdapter,
) -> bool {
    let name = missing.adapter;
    let cmd = missing.install_command.clone();
    let mut lines = vec![
        format!("{}.", missing.problem),
        String::new(),
        format!("pairdbg needs {name} to debug this program. Install it now with"),
        format!("  {cmd}"),
        String::new(),
        "y installs · n or q quits".into(),
    ];
    let mut keys = EventStream::new();
    loop {
        if show(terminal, theme, &format!("{name} is missing"), &lines).is_err() {
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
    let title = format!("installing {name}");
    lines = vec![format!("$ {cmd}")];
    let child = tokio::process::Command::new("sh")
        .args(["-c", &cmd])
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
            let _ = show(terminal, theme, &title, &lines);
        }
    }
    let _ = child.wait().await;
    // The adapter's own installer knows fallbacks the plain command lacks
    // (a distribution's Python that refuses system-wide installs, say).
    let ok = missing_adapter(config).await.is_none() || install_adapter(config).await.is_ok();
    if !ok {
        lines.push(String::new());
        lines.push(format!(
            "The install failed. Run it yourself: {cmd}  (any key quits)"
        ));
        let _ = show(terminal, theme, &title, &lines);
        let _ = keys.next().await;
    }
    ok
}
