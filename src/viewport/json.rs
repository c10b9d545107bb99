//! The JSON viewport: the same content as the text one, structured.

use serde_json::{Value, json};

use crate::session::types::{RunState, Snapshot};

use super::ViewportConfig;
use super::signature;
use super::tree_json::{Reach, tree_json};
use super::value::render;

/// As much of a value's tree as its text shows: the same levels, the same
/// items per collection.
fn tree(v: &crate::session::types::Var, cfg: &ViewportConfig) -> Value {
    let reach = Reach {
        items: cfg.collection_preview_items,
        levels: cfg.locals_max_depth.max(1) + 1,
    };
    tree_json(&v.tree(), reach)
}

pub fn render_json(snap: &Snapshot, cfg: &ViewportConfig) -> Value {
    let status = snap.state.describe();
    let Some(stop) = snap
        .stop
        .as_ref()
        .filter(|_| snap.state == RunState::Stopped)
    else {
        let mut out = json!({
            "status": status,
            "exit_code": snap.exit.as_ref().and_then(|e| e.exit_code),
            "error": snap.error,
        });
        if let Some(exit) = &snap.exit {
            if let Some(s) = &exit.signal {
                out["killed_by"] = json!(s);
            }
            if exit.code_or_signal {
                out["exit_note"] = json!(crate::session::types::CODE_OR_SIGNAL);
            }
            if let Some(o) = exit.terminated_by {
                out["terminated_by"] = json!(o);
            }
        }
        return out;
    };
    let path = |f: &crate::session::types::Frame| f.file.as_deref().map(|p| snap.display_path(p));
    let top = stop.frames.first();
    let locals: serde_json::Map<String, Value> = stop
        .locals
        .iter()
        .filter(|v| !v.hidden)
        .take(cfg.locals_max_items)
        .map(|v| {
            (
                v.name.clone(),
                json!({"type": v.type_name, "value": render(v, cfg, 0), "tree": tree(v, cfg)}),
            )
        })
        .collect();
    let watch: Vec<Value> = snap
        .watches
        .iter()
        .map(|w| match &w.value {
            Ok(v) => {
                json!({"expression": w.expression, "value": render(v, cfg, 0), "type": v.type_name, "tree": tree(v, cfg)})
            }
            Err(e) => json!({"expression": w.expression, "error": e}),
        })
        .collect();
    let source = match (&stop.source, top) {
        (Some(src), Some(f)) if cfg.source_context_lines > 0 => {
            let n = cfg.source_context_lines;
            let cur = f.line as usize;
            let start = cur.saturating_sub((n - 1) / 2).max(1);
            let end = (start + n - 1).min(src.lines.len());
            json!({
                "file": path(f),
                "start_line": start,
                "current_line": cur,
                "lines": src.lines.get(start - 1..end).unwrap_or(&[]),
            })
        }
        _ => Value::Null,
    };
    let mut out = json!({
        "status": status,
        "reason": stop.reason,
        "exception": stop.exception.as_ref().map(|e| json!({
            "type": e.type_name,
            "message": e.message,
            "raised_at": e.raised_at.as_ref().map(|r| json!({"file": snap.display_path(&r.file), "line": r.line, "function": r.function})),
        })),
        "location": top.map(|f| json!({"file": path(f), "line": f.line, "function": f.name})),
        "stack": stop.frames.iter().take(cfg.stack_depth).enumerate().map(|(i, f)| {
            let mut entry = json!({"file": path(f), "line": f.line, "function": f.name});
            if f.external {
                entry["external"] = Value::Bool(true);
            }
            // Unread values are null: the frame is beyond those whose locals are read.
            if let Some(a) = signature::frame_args(stop, i, cfg) {
                entry["args"] = a.into_iter().map(|(p, v)| (p, v.map_or(Value::Null, Value::String))).collect();
            }
            entry
        }).collect::<Vec<_>>(),
        "total_frames": stop.total_frames,
        "thread": stop.thread_note,
        "locals": locals,
        "watch": watch,
        "source": source,
    });
    if let Some(src) = snap.stale_source.as_deref() {
        out["stale_source"] = json!(snap.display_path(src));
    }
    // Said at a stop, where a move back could start: yes or why not.
    out["can_step_back"] = json!(match snap.recording.can_step_back() {
        Ok(s) | Err(s) => s,
    });
    if let Some(cost) = snap.recording.cost() {
        out["recorded"] = json!(cost);
    }
    out
}
