//! The viewport under a byte budget. When the reference layout fits it is
//! used as is; otherwise the stop is laid out by relevance — where it is,
//! what changed, the watches, the arguments, the other locals, the callers —
//! and cut where the budget ends, with the calls that fetch the rest.

use std::fmt::Write;

use crate::session::types::{Frame, RunState, Snapshot, StopInfo, Var};

use super::ReadMore;
use super::ViewportConfig;
use super::signature::frame_args;
use super::text::{Extras, render_text};
use super::value::render;

/// What a line of the ranked layout shows, so a cut can say what is left.
#[derive(Clone, Copy, PartialEq)]
enum Row {
    Head,
    Label,
    Watch,
    /// A local, by its index in the stop's locals.
    Local(usize),
    /// A caller, by its index in the stack.
    Frame(usize),
}

pub fn render_within(
    snap: &Snapshot,
    cfg: &ViewportConfig,
    extras: Extras,
    bytes: usize,
) -> String {
    let full = render_text(snap, cfg, extras);
    if full.len() <= bytes {
        return full;
    }
    let Some(stop) = snap
        .stop
        .as_ref()
        .filter(|_| snap.state == RunState::Stopped)
    else {
        return cut_to(&full, bytes);
    };
    let rows = ranked(snap, stop, cfg, extras.previous);
    fit(&rows, stop, bytes, extras.more)
}

fn ranked(
    snap: &Snapshot,
    stop: &StopInfo,
    cfg: &ViewportConfig,
    previous: Option<&StopInfo>,
) -> Vec<(Row, String)> {
    let mut rows: Vec<(Row, String)> = vec![];
    let file = |f: &Frame| {
        f.file
            .as_deref()
            .map(|p| snap.display_path(p))
            .unwrap_or_else(|| "<unknown>".into())
    };
    let top = stop.frames.first();
    let mut head = String::new();
    match top {
        Some(f) => {
            let _ = write!(head, "── STOPPED at {}:{} ({}) ──", file(f), f.line, f.name);
        }
        None => head.push_str("── STOPPED (no frames) ──"),
    }
    rows.push((Row::Head, head));
    rows.push((Row::Head, format!("Reason: {}", super::text::reason(stop))));
    if let Some(e) = &stop.exception {
        let msg = super::value::truncate(&e.message, cfg.string_truncate_length);
        rows.push((Row::Head, format!("Exception: {}: {msg}", e.type_name)));
    }
    if let (Some(src), Some(f)) = (&stop.source, top)
        && let Some(code) = src.lines.get((f.line as usize).saturating_sub(1))
    {
        rows.push((Row::Head, format!(" →{}│ {}", f.line, code.trim_end())));
    }

    let mut shown = vec![false; stop.locals.len()];
    let line = |v: &Var| format!("  {} = {}", v.name, render(v, cfg, 0));

    // What moved since the reader's last stop in this frame matters most.
    if let Some(prev) = previous.filter(|p| same_frame(p, stop)) {
        let changed: Vec<usize> = visible(&stop.locals)
            .filter(|(_, v)| {
                !prev
                    .locals
                    .iter()
                    .any(|p| p.name == v.name && super::value::same_value(p, v))
            })
            .map(|(i, _)| i)
            .collect();
        if !changed.is_empty() {
            rows.push((Row::Label, "Changed:".into()));
            for i in changed {
                shown[i] = true;
                rows.push((Row::Local(i), line(&stop.locals[i])));
            }
        }
    }
    if !snap.watches.is_empty() {
        rows.push((Row::Label, "Watch:".into()));
        for w in &snap.watches {
            let value = match &w.value {
                Ok(v) => render(v, cfg, 0),
                Err(e) => format!("<error: {e}>"),
            };
            rows.push((Row::Watch, format!("  {} = {value}", w.expression)));
        }
    }
    let params: Vec<String> = frame_args(stop, 0, cfg)
        .unwrap_or_default()
        .into_iter()
        .map(|(p, _)| p.trim_start_matches('*').to_string())
        .collect();
    let args: Vec<usize> = visible(&stop.locals)
        .filter(|(i, v)| !shown[*i] && params.contains(&v.name))
        .map(|(i, _)| i)
        .collect();
    if !args.is_empty() {
        rows.push((Row::Label, "Arguments:".into()));
        for i in args {
            shown[i] = true;
            rows.push((Row::Local(i), line(&stop.locals[i])));
        }
    }
    let rest: Vec<usize> = visible(&stop.locals)
        .filter(|(i, _)| !shown[*i])
        .map(|(i, _)| i)
        .collect();
    if !rest.is_empty() {
        rows.push((Row::Label, "Locals:".into()));
        for i in rest {
            rows.push((Row::Local(i), line(&stop.locals[i])));
        }
    }
    if stop.frames.len() > 1 {
        rows.push((
            Row::Label,
            format!("Callers ({} frames in all):", stop.total_frames),
        ));
        for (i, f) in stop.frames.iter().enumerate().skip(1) {
            let call = super::frame_call(stop, i, cfg);
            rows.push((Row::Frame(i), format!("  {}:{}  {call}", file(f), f.line)));
        }
    }
    rows
}

/// Keeps rows in order while they fit, then names the calls for the rest.
fn fit(rows: &[(Row, String)], stop: &StopInfo, bytes: usize, more: Option<&ReadMore>) -> String {
    let head = rows.iter().take_while(|(r, _)| *r == Row::Head).count();
    let lines: Vec<String> = rows.iter().map(|(_, l)| l.clone()).collect();
    let handle = |from: usize| remainder(&rows[from..], stop, more);
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        if i >= head {
            let h = handle(i);
            if out.len() + l.len() + 1 + h.len() > bytes {
                // A section label with none of its rows says nothing.
                if i > head && rows[i - 1].0 == Row::Label && rows[i].0 != Row::Label {
                    let kept = out.len() - lines[i - 1].len() - 1;
                    out.truncate(kept);
                }
                out.push_str(&h);
                return cut_to(&out, bytes);
            }
        }
        out.push_str(l);
        out.push('\n');
    }
    cut_to(&out, bytes)
}

/// `… 180 more locals: debug_variables {start: 20}; 3 more frames of 8:
/// debug_stack`, in the reader's spelling where there is one.
fn remainder(left: &[(Row, String)], stop: &StopInfo, more: Option<&ReadMore>) -> String {
    let locals: Vec<usize> = left
        .iter()
        .filter_map(|(r, _)| match r {
            Row::Local(i) => Some(*i),
            _ => None,
        })
        .collect();
    let frames = left
        .iter()
        .filter(|(r, _)| matches!(r, Row::Frame(_)))
        .count();
    let how = |what: String, call: String| match more {
        Some(_) => format!("{what}: {call}"),
        None => what,
    };
    let mut parts = vec![];
    if let Some(first) = locals.iter().min() {
        parts.push(how(
            format!("{} more locals", locals.len()),
            more.map(|m| (m.locals_from)(*first)).unwrap_or_default(),
        ));
    }
    if frames > 0 {
        parts.push(how(
            format!("{frames} more frames of {}", stop.total_frames),
            more.map(|m| m.stack.to_string()).unwrap_or_default(),
        ));
    }
    if parts.is_empty() {
        parts.push(how(
            "the watches".into(),
            more.map(|m| m.watches.to_string()).unwrap_or_default(),
        ));
    }
    format!("… {}", parts.join("; "))
}

fn visible(vars: &[Var]) -> impl Iterator<Item = (usize, &Var)> {
    vars.iter().enumerate().filter(|(_, v)| !v.hidden)
}

fn same_frame(a: &StopInfo, b: &StopInfo) -> bool {
    match (a.frames.first(), b.frames.first()) {
        (Some(x), Some(y)) => x.name == y.name && x.file == y.file,
        _ => false,
    }
}

/// `text` in at most `bytes`, cut at a line (or a character) boundary.
pub fn cut_to(text: &str, bytes: usize) -> String {
    if text.len() <= bytes {
        return text.to_string();
    }
    let mut end = bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind('\n') {
        Some(nl) if nl > 0 => text[..nl].to_string(),
        _ => text[..end].to_string(),
    }
}
