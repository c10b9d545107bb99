//! Turning session results into replies. Every reply carries the epoch.

use crate::session::handle::WaitOutcome;
use crate::session::types::{Breakpoint, ExceptionBreakpoint, Snapshot, Var};
use crate::session::{SessionError, SessionHandle};
use crate::viewport::value::truncate;

use super::names::Names;
use super::reply::Reply;
use super::views::Views;

/// Success: text, a note on what others changed, and the epoch footer.
pub fn ok(views: &Views, snap: &Snapshot, body: String) -> Reply {
    let mut text = String::new();
    if let Some(s) = views.since_last(snap) {
        text.push_str(&s);
        text.push('\n');
    }
    text.push_str(body.trim_end());
    text.push_str(&format!(
        "\n[session {} · epoch {}]",
        snap.session_id, snap.epoch
    ));
    Reply::ok(text)
}

/// Failure: what is wrong, then the state the session is in.
pub fn err(names: &Names, snap: Option<&Snapshot>, e: &SessionError) -> Reply {
    let mut text = sentence(&e.to_string());
    if let Some(hint) = hint(names, e) {
        text.push(' ');
        text.push_str(&hint);
    }
    if let Some(s) = snap {
        let state = s.state_sentence();
        // The snapshot may still show the stop the adapter left.
        let lagging = matches!(e, SessionError::AdapterGone(_));
        if !lagging && !text.contains(&state) {
            text.push(' ');
            text.push_str(&state);
        }
        text.push_str(&format!("\n[session {} · epoch {}]", s.session_id, s.epoch));
    }
    Reply::error(text)
}

/// What the agent can do about an error, in its own front end's names.
fn hint(names: &Names, e: &SessionError) -> Option<String> {
    Some(match e {
        SessionError::NoSession(_) => format!("List them with {}.", names.sessions),
        SessionError::NoneRunning => format!("Start one with {}.", names.start),
        SessionError::TooManySessions(_) => format!("End one with {}.", names.end),
        SessionError::NoBreakpoint { .. } => format!("List them with {}.", names.breakpoints),
        SessionError::ControlTaken => "They hand it back with T in the terminal UI.".into(),
        _ => return None,
    })
}

fn sentence(s: &str) -> String {
    // Field names lead many messages; they keep their case.
    let mut s = s.trim().to_string();
    if !s.ends_with(['.', '!', '?']) {
        s.push('.');
    }
    s
}

/// The result of anything that waits for the program.
pub fn outcome(
    views: &Views,
    names: &Names,
    session: &SessionHandle,
    o: WaitOutcome,
    timeout_ms: u64,
) -> Reply {
    // What ended the move early, or was never reached, leads.
    let note = |snap: &Snapshot| {
        snap.stop_note
            .as_ref()
            .map(|n| format!("{n}\n"))
            .unwrap_or_default()
    };
    match o {
        WaitOutcome::Stopped(snap) => {
            let body = note(&snap) + &views.viewport(&snap, names);
            ok(views, &snap, body)
        }
        WaitOutcome::Exited(snap) => {
            let mut body = note(&snap) + &views.viewport(&snap, names);
            let tail = session.output_tail(10);
            if !tail.is_empty() {
                body.push_str("Last output:\n");
                for l in tail {
                    let l = views.agent_text(&snap.taint, &l);
                    body.push_str(&format!("  | {}\n", truncate(&l, 200)));
                }
            }
            ok(views, &snap, body)
        }
        // Said as the state says it, so it is said once.
        WaitOutcome::Failed(snap) => err(
            names,
            Some(&snap),
            &SessionError::State(format!(
                "The session failed: {}",
                snap.error.as_deref().unwrap_or("unknown error")
            )),
        ),
        WaitOutcome::Running(snap) => ok(
            views,
            &snap,
            format!(
                "── RUNNING ──\nAttached to {}; it keeps running. Set breakpoints, or call {} to stop it.",
                snap.program, names.pause
            ),
        ),
        WaitOutcome::TimedOut(snap) if snap.silent.is_some() => ok(
            views,
            &snap,
            format!(
                "── ADAPTER NOT ANSWERING ──\n{}. The program may be running or stopped; pairdbg cannot tell. Call {} to end the session.",
                upper_first(snap.silent.as_deref().unwrap_or_default()),
                names.end
            ),
        ),
        WaitOutcome::TimedOut(snap) if snap.unanswered.is_some() => ok(
            views,
            &snap,
            format!(
                "── ADAPTER NOT ANSWERING ──\nThe debug adapter has not answered `{}` within {timeout_ms} ms: it is slow or stopped answering. The program's state is not read. Call {} to keep waiting, or {} to end the session.",
                snap.unanswered.as_deref().unwrap_or_default(),
                names.wait,
                names.end
            ),
        ),
        WaitOutcome::TimedOut(snap) => ok(
            views,
            &snap,
            format!(
                "── RUNNING ──\nNo stop within {timeout_ms} ms; the program is still running. Call {} to keep waiting, or {}.",
                names.wait, names.pause
            ),
        ),
    }
}

pub fn breakpoint_line(snap: &Snapshot, b: &Breakpoint) -> String {
    let mut s = format!("#{} {}", b.id, b.kind.noun());
    if let Some(f) = &b.function {
        s.push_str(&format!(" {f}"));
    }
    if !b.file.as_os_str().is_empty() {
        s.push_str(&format!(" {}:{}", snap.display_path(&b.file), b.line));
    }
    if let Some(l) = b.bound_line.filter(|l| *l != b.line) {
        s.push_str(&format!(" (moved to line {l})"));
    }
    if let Some(st) = &b.statement {
        s.push_str(&format!(" statement {st:?}"));
    }
    s.push_str(match (b.enabled, b.verified) {
        (false, _) => " disabled",
        (true, true) => " enabled verified",
        (true, false) => " enabled unverified",
    });
    if let Some(c) = &b.condition {
        s.push_str(&format!(" if {c}"));
    }
    if let Some(h) = &b.hit_condition {
        s.push_str(&format!(" hit_count {h}"));
    }
    if let Some(m) = &b.log_message {
        s.push_str(&format!(" log {m:?}"));
    }
    if let Some(t) = &b.trace {
        if t.every > 1 {
            s.push_str(&format!(" every {}th hit", t.every));
        }
        if t.max_records > 0 {
            s.push_str(&format!(" records {}/{}", t.records, t.max_records));
        }
    }
    s.push_str(&format!(" hits {}", b.hits));
    if let Some(r) = &b.resolved {
        s.push_str(&format!(" — {r}"));
    }
    if let Some(m) = &b.message {
        s.push_str(&format!(" — {m}"));
    }
    s.push_str(&format!(" [{}]", b.origin.tag()));
    s
}

pub fn exception_line(x: &ExceptionBreakpoint) -> String {
    let when = match (x.first_chance, x.second_chance) {
        (true, true) => "raised or uncaught",
        (true, false) => "raised",
        _ => "uncaught",
    };
    format!(
        "#{} exception {} ({when}{}) {} hits {}",
        x.id,
        x.exception_type,
        if x.include_subtypes {
            ", subtypes too"
        } else {
            ""
        },
        match (x.enabled, x.verified) {
            (false, _) => "disabled",
            (true, true) => "verified",
            (true, false) => "unverified",
        },
        x.hits
    )
}

/// Characters a value asked for by name may take: more room than one in a
/// viewport.
pub const VALUE_CHARS: usize = 256;

/// A value asked for by name, in up to `limit` characters, with 10 items
/// previewed.
pub fn var_line(v: &Var, path_prefix: Option<&str>, limit: usize) -> String {
    let cfg = crate::viewport::ViewportConfig {
        string_truncate_length: limit,
        collection_preview_items: 10,
        ..Default::default()
    };
    let value = crate::viewport::value::render(v, &cfg, 0);
    let mut s = format!("  {} = {value}", v.name);
    if !v.type_name.is_empty() {
        s.push_str(&format!("  ({})", v.type_name));
    }
    if v.reference > 0 {
        // The adapter's own expression for the value is a path that leads
        // back to it; a name under its parent's path is the fallback.
        let p = match path_prefix {
            _ if v.evaluate_name.as_deref().is_some_and(|e| !e.is_empty()) => {
                v.evaluate_name.clone().unwrap_or_default()
            }
            // A map's entry (`["food"]`) follows its map as an index does.
            Some(p) if !p.is_empty() && v.name.starts_with('[') => format!("{p}{}", v.name),
            Some(p) if !p.is_empty() => format!("{p}.{}", v.name.trim_matches('\'')),
            _ => v.name.clone(),
        };
        s.push_str(&format!("  ▸ expand={p}"));
    }
    s
}

/// Like `ok`, the body fitted to what the budget leaves after the
/// note on others' changes and the epoch footer.
pub fn ok_fit(
    views: &Views,
    snap: &Snapshot,
    body: super::budget::Fit,
    bytes: Option<usize>,
) -> Reply {
    let mut text = String::new();
    if let Some(s) = views.since_last(snap) {
        text.push_str(&s);
        text.push('\n');
    }
    let footer = format!("\n[session {} · epoch {}]", snap.session_id, snap.epoch);
    let room = bytes
        .map(|b| b.saturating_sub(text.len() + footer.len()))
        .unwrap_or(usize::MAX);
    text.push_str(body.render(room).trim_end());
    text.push_str(&footer);
    Reply::ok(text)
}

/// `text` with its first letter upper-case, to open a sentence.
fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
