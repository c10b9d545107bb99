//! The text viewport of the reference format.

use std::fmt::Write;

use crate::session::types::{Frame, Origin, RunState, Snapshot, StopInfo, Var, WatchValue};

use super::ViewportConfig;
use super::diff;
use super::signature;
use super::value::{render, render_value, truncate};
use crate::adapters::value::Value;

/// Places inside one value that diff mode names.
const DIFF_PLACES: usize = 3;

/// What the renderer needs beyond the snapshot.
#[derive(Debug, Default, Clone, Copy)]
pub struct Extras<'a> {
    /// The stop the reader saw last, for diff mode.
    pub previous: Option<&'a StopInfo>,
    /// Human notes newer than this epoch are shown.
    pub notes_after_epoch: u64,
    /// How the reader asks for what the viewport leaves out.
    pub more: Option<&'a super::ReadMore>,
}

pub fn render_text(snap: &Snapshot, cfg: &ViewportConfig, extras: Extras) -> String {
    let Some(stop) = snap
        .stop
        .as_ref()
        .filter(|_| snap.state == RunState::Stopped)
    else {
        return render_not_stopped(snap);
    };
    let mut out = String::new();
    let top = stop.frames.first();
    if cfg.diff_mode
        && let (Some(prev), Some(top)) = (extras.previous, top)
        && same_frame(prev, stop)
    {
        render_diff(&mut out, snap, stop, prev, top, cfg);
    } else {
        render_full(&mut out, snap, stop, cfg, extras.more);
    }
    render_notes(&mut out, snap, extras.notes_after_epoch);
    out
}

/// What the person and the agent must know before trusting a stop of a
/// program older than its sources.
pub fn stale_line(snap: &Snapshot) -> Option<String> {
    let src = snap.stale_source.as_deref()?;
    Some(format!(
        "Warning: the binary is older than {}: rebuild it, or a restart runs the old code.",
        snap.display_path(src)
    ))
}

/// The stop's reason, and for a breakpoint's hit which breakpoint and
/// which hit: `breakpoint #1, hit 2`.
pub fn reason(stop: &StopInfo) -> String {
    match &stop.hit {
        Some(h) if h.kind == crate::session::hits::HitKind::Blocking => match h.breakpoint_id {
            Some(id) => format!("{} #{id}, hit {}", stop.reason, h.hit_count),
            None => stop.reason.clone(),
        },
        _ => stop.reason.clone(),
    }
}

fn same_frame(a: &StopInfo, b: &StopInfo) -> bool {
    // Another process's frame is never the same one, whatever its ids,
    // nor is a frame of an earlier run (a restart reads on a new
    // connection).
    if a.child != b.child || a.connection != b.connection {
        return false;
    }
    match (a.frames.first(), b.frames.first()) {
        (Some(x), Some(y)) => {
            x.name == y.name && x.file == y.file && a.total_frames == b.total_frames
        }
        _ => false,
    }
}

fn file_of(snap: &Snapshot, f: &Frame) -> String {
    f.file
        .as_deref()
        .map(|p| snap.display_path(p))
        .unwrap_or_else(|| "<unknown>".into())
}

/// While recording, what it holds and how far back the program can go.
fn recording_line(snap: &Snapshot) -> Option<String> {
    let tag = snap.recording.tag()?;
    Some(format!("{tag} · {}", snap.recording.sentence()))
}

fn render_full(
    out: &mut String,
    snap: &Snapshot,
    stop: &StopInfo,
    cfg: &ViewportConfig,
    more: Option<&super::ReadMore>,
) {
    let top = stop.frames.first();
    match top {
        Some(f) => {
            let _ = writeln!(
                out,
                "── STOPPED at {}:{} ({}) ──",
                file_of(snap, f),
                f.line,
                f.name
            );
        }
        None => {
            let _ = writeln!(out, "── STOPPED (no frames) ──");
        }
    }
    let _ = writeln!(out, "Reason: {}", reason(stop));
    if let Some(line) = stale_line(snap) {
        let _ = writeln!(out, "{line}");
    }
    if let Some(line) = recording_line(snap) {
        let _ = writeln!(out, "{line}");
    }
    if let (Some(name), Some(child)) = (&stop.process, stop.child) {
        let _ = writeln!(out, "Process: {name} (child={child})");
    }
    if let Some(note) = &stop.thread_note {
        let _ = writeln!(out, "Thread: {note}");
    }
    if let Some(e) = &stop.exception {
        let msg = truncate(&e.message, cfg.string_truncate_length * 2);
        let _ = write!(out, "Exception: {}: {}", e.type_name, msg);
        if let Some(at) = &e.raised_at {
            let _ = write!(
                out,
                " (raised at {}:{} in {})",
                snap.display_path(&at.file),
                at.line,
                at.function
            );
        }
        out.push('\n');
    }
    out.push('\n');

    const STACK_ALIGN_MAX: usize = 32;
    // Code the adapter marks as not the program's (a runtime's internals)
    // is counted, not listed, below the stop's own frame.
    let own: Vec<usize> = (0..stop.frames.len())
        .filter(|&i| i == 0 || !stop.frames[i].external)
        .take(cfg.stack_depth)
        .collect();
    let external = stop.frames.iter().skip(1).filter(|f| f.external).count();
    let shown = own.len();
    if stop.total_frames > shown + external {
        let _ = writeln!(out, "Call Stack ({shown} of {} frames):", stop.total_frames);
    } else {
        let _ = writeln!(out, "Call Stack:");
    }
    let locs: Vec<String> = own
        .iter()
        .map(|&i| &stop.frames[i])
        .map(|f| format!("{}:{}", file_of(snap, f), f.line))
        .collect();
    // Columns line up for the workspace's short paths; a long one (a
    // runtime's file outside the workspace) would pad every line with
    // spaces the agent pays for, so it alone goes unaligned.
    let width = locs
        .iter()
        .map(|l| l.chars().count())
        .filter(|&n| n <= STACK_ALIGN_MAX)
        .max()
        .unwrap_or(0);
    for (&i, loc) in own.iter().zip(&locs) {
        let mark = if i == 0 { "→" } else { " " };
        let call = signature::frame_call(stop, i, cfg);
        let _ = writeln!(out, "  {mark} {loc:<width$}  {call}");
    }
    if external > 0 {
        let s = if external == 1 { "" } else { "s" };
        let _ = match more {
            Some(m) => writeln!(out, "    ({external} frame{s} not user code: {})", m.stack),
            None => writeln!(out, "    ({external} frame{s} not user code)"),
        };
    }

    if let (Some(src), Some(f)) = (&stop.source, top)
        && cfg.source_context_lines > 0
    {
        out.push('\n');
        let n = cfg.source_context_lines;
        let cur = f.line as usize;
        let total = src.lines.len();
        let start = cur.saturating_sub((n - 1) / 2).max(1);
        let end = (start + n - 1).min(total);
        let start = end.saturating_sub(n - 1).max(1);
        if start <= end {
            let w = end.to_string().len();
            let _ = writeln!(out, "Source ({start}–{end}):");
            for ln in start..=end {
                let code = src.lines.get(ln - 1).map(String::as_str).unwrap_or("");
                let mark = if ln == cur { "→" } else { " " };
                let _ = writeln!(out, " {mark}{ln:>w$}│ {}", code.trim_end());
            }
        }
    }

    let locals = visible(&stop.locals);
    if !locals.is_empty() {
        out.push('\n');
        let _ = writeln!(out, "Locals:");
        write_pairs(
            out,
            locals
                .iter()
                .take(cfg.locals_max_items)
                .map(|v| (v.name.clone(), render(v, cfg, 0))),
        );
        if locals.len() > cfg.locals_max_items {
            let n = locals.len() - cfg.locals_max_items;
            let _ = match more {
                Some(m) => writeln!(out, "  ({n} more; use {})", m.locals),
                None => writeln!(out, "  ({n} more)"),
            };
        }
    }
    if !snap.watches.is_empty() {
        out.push('\n');
    }
    write_watches(out, snap, cfg);
}

fn render_diff(
    out: &mut String,
    snap: &Snapshot,
    stop: &StopInfo,
    prev: &StopInfo,
    top: &Frame,
    cfg: &ViewportConfig,
) {
    let label = if stop.reason == "step" {
        "STEP"
    } else {
        "STOPPED"
    };
    let _ = writeln!(
        out,
        "── {label} at {}:{} (same frame) ──",
        file_of(snap, top),
        top.line
    );
    if stop.reason != "step" {
        let _ = writeln!(out, "Reason: {}", reason(stop));
    }
    if let Some(line) = stale_line(snap) {
        let _ = writeln!(out, "{line}");
    }
    if let Some(line) = recording_line(snap) {
        let _ = writeln!(out, "{line}");
    }
    if let Some(code) = stop
        .source
        .as_ref()
        .and_then(|s| s.lines.get(top.line as usize - 1))
    {
        let _ = writeln!(out, " →{}│ {}", top.line, code.trim());
    }
    let before: Vec<(&str, Value)> = visible(&prev.locals)
        .iter()
        .map(|v| (v.name.as_str(), v.tree()))
        .collect();
    let now: Vec<&Var> = visible(&stop.locals);
    let changed: Vec<(String, String)> = now
        .iter()
        .filter_map(|v| {
            let tree = v.tree();
            let shown = render_value(&tree, cfg, 0);
            let Some((_, old)) = before.iter().find(|(n, _)| *n == v.name) else {
                return Some((v.name.clone(), shown));
            };
            let found = diff::changes(&v.name, old, &tree, DIFF_PLACES);
            if found.is_empty() {
                return None;
            }
            // Where inside the value it changed, when not the whole.
            let places: String = found
                .iter()
                .filter(|c| c.path != v.name)
                .map(|c| {
                    format!(
                        "\n      {}: {} → {}",
                        c.path,
                        render_value(c.before, cfg, 1),
                        render_value(c.now, cfg, 1)
                    )
                })
                .collect();
            Some((v.name.clone(), format!("{shown}{places}")))
        })
        .collect();
    let unchanged = now.len() - changed.len();
    if changed.is_empty() {
        let _ = writeln!(out, "No locals changed ({unchanged} unchanged)");
    } else {
        let _ = writeln!(out, "Changed:");
        write_pairs(out, changed.into_iter().take(cfg.locals_max_items));
        let _ = writeln!(out, "  ({unchanged} locals unchanged)");
    }
    write_watches(out, snap, cfg);
}

fn render_notes(out: &mut String, snap: &Snapshot, after: u64) {
    let notes: Vec<&str> = snap
        .notes
        .iter()
        .filter(|n| n.origin == Origin::Human && n.epoch > after)
        .map(|n| n.text.as_str())
        .collect();
    if !notes.is_empty() {
        out.push('\n');
        let _ = writeln!(out, "Human notes:");
        for n in notes {
            let _ = writeln!(out, "  - {n}");
        }
    }
}

fn render_not_stopped(snap: &Snapshot) -> String {
    let mut out = match snap.state {
        RunState::Exited => {
            let exit = snap.exit.as_ref();
            match (
                exit.and_then(|e| e.signal.as_deref()),
                exit.and_then(|e| e.exit_code),
            ) {
                (Some(s), _) => format!("── EXITED, killed by {s} ──\n"),
                (None, Some(c)) if exit.is_some_and(|e| e.code_or_signal) => format!(
                    "── EXITED with code {c} ({}) ──\n",
                    crate::session::types::CODE_OR_SIGNAL
                ),
                (None, Some(c)) => format!("── EXITED with code {c} ──\n"),
                (None, None) => match exit.and_then(|e| e.terminated_by) {
                    Some(o) => format!("── TERMINATED at {}'s request ──\n", o.noun()),
                    None => "── EXITED ──\n".to_string(),
                },
            }
        }
        RunState::Error => format!("── FAILED ──\n{}\n", snap.error.as_deref().unwrap_or("")),
        RunState::Running => "── RUNNING ──\n".to_string(),
        RunState::Starting => match &snap.building {
            Some(cmd) => format!("── BUILDING ──\n{cmd}\n"),
            None => "── STARTING ──\n".to_string(),
        },
        RunState::Stopped => "── STOPPED (loading) ──\n".to_string(),
    };
    render_notes(&mut out, snap, 0);
    out
}

fn visible(vars: &[Var]) -> Vec<&Var> {
    vars.iter().filter(|v| !v.hidden).collect()
}

fn write_watches(out: &mut String, snap: &Snapshot, cfg: &ViewportConfig) {
    if snap.watches.is_empty() {
        return;
    }
    let _ = writeln!(out, "Watch:");
    write_pairs(
        out,
        snap.watches
            .iter()
            .map(|w| (watch_label(w), watch_value(w, cfg))),
    );
}

fn watch_label(w: &WatchValue) -> String {
    if w.origin == Origin::Human {
        format!("{} (person)", w.expression)
    } else {
        w.expression.clone()
    }
}

fn watch_value(w: &WatchValue, cfg: &ViewportConfig) -> String {
    match &w.value {
        Ok(v) => render(v, cfg, 0),
        Err(e) => format!("<error: {}>", truncate(e, cfg.string_truncate_length)),
    }
}

/// The longest name shown whole: a program may make a name of any length
/// (`globals()['v' * 70000]`), which would crowd out every value.
const NAME_MAX: usize = 64;

fn write_pairs(out: &mut String, pairs: impl Iterator<Item = (String, String)>) {
    let pairs: Vec<(String, String)> = pairs
        .map(|(n, v)| (super::value::truncate(&n, NAME_MAX), v))
        .collect();
    let w = pairs
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(0);
    for (n, v) in pairs {
        let _ = writeln!(out, "  {n:<w$}  = {v}");
    }
}
