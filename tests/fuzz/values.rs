//! The value model and its renderers: variable trees built from the input
//! (deep, wide, huge, full of control characters), in each language, drawn
//! by the viewport's text and JSON, the value trees' JSON, and the TUI.

use std::path::PathBuf;
use std::sync::Arc;

use arbitrary::{Result, Unstructured};
use pairdbg::adapters::{self, value::LanguageOf};
use pairdbg::session::types::{Frame, RunState, Snapshot, SourceFile, StopInfo, Var};
use pairdbg::viewport::tree_json::{Reach, tree_json};
use pairdbg::viewport::value::render;
use pairdbg::viewport::{Extras, ViewportConfig, render_json, render_text};

pub const FILE: &str = "/ws/prog.py";

fn text(u: &mut Unstructured) -> Result<String> {
    let s: String = u.arbitrary()?;
    // Now and then a huge one.
    Ok(match u.int_in_range(0u8..=31)? {
        0 => s.repeat(u.int_in_range(100..=20_000)?),
        _ => s,
    })
}

fn var(
    u: &mut Unstructured,
    language: LanguageOf,
    depth: usize,
    budget: &mut usize,
) -> Result<Var> {
    *budget = budget.saturating_sub(1);
    let mut v = Var {
        name: text(u)?,
        value: text(u)?,
        type_name: text(u)?,
        reference: u.arbitrary()?,
        evaluate_name: u.arbitrary()?,
        truncated: u.arbitrary()?,
        length: u.arbitrary()?,
        indexed: u.arbitrary()?,
        hidden: u.arbitrary()?,
        not_read: if u.ratio(1, 8)? { Some(text(u)?) } else { None },
        composed: u.arbitrary()?,
        language,
        children: None,
    };
    if depth < 200 && *budget > 0 && u.ratio(1, 3)? {
        // Deep (one child) or wide (many).
        let n = if u.arbitrary()? {
            1
        } else {
            u.int_in_range(0..=300)?
        };
        let mut kids = vec![];
        for _ in 0..n {
            if *budget == 0 || u.is_empty() {
                break;
            }
            kids.push(var(u, language, depth + 1, budget)?);
        }
        v.children = Some(kids);
    }
    Ok(v)
}

fn config(u: &mut Unstructured) -> Result<ViewportConfig> {
    let cfg = ViewportConfig {
        source_context_lines: u.int_in_range(0..=60)?,
        stack_depth: u.int_in_range(0..=60)?,
        locals_max_depth: u.int_in_range(0..=12)?,
        locals_max_items: u.int_in_range(0..=300)?,
        string_truncate_length: u.int_in_range(0..=5_000)?,
        collection_preview_items: u.int_in_range(0..=300)?,
        diff_mode: u.arbitrary()?,
        max_tokens: u.arbitrary::<Option<u16>>()?.map(usize::from),
    };
    // The renderers see only configurations that passed the tools' checks.
    Ok(if cfg.validate().is_ok() {
        cfg
    } else {
        ViewportConfig::default()
    })
}

fn snapshot(stop: StopInfo) -> Snapshot {
    let mut s = Snapshot::new("s1".into(), "prog.py".into(), PathBuf::from("/ws"));
    s.state = RunState::Stopped;
    s.stop_seq = 1;
    s.language = stop.locals.first().map(|v| v.language).unwrap_or_default();
    s.stop = Some(stop);
    s
}

fn stop(u: &mut Unstructured, language: LanguageOf) -> Result<StopInfo> {
    let lines: Vec<String> = (0..u.int_in_range(0..=40)?)
        .map(|_| text(u))
        .collect::<Result<_>>()?;
    let source = Arc::new(SourceFile {
        path: PathBuf::from(FILE),
        lines,
    });
    let mut frames = vec![];
    for i in 0..u.int_in_range(1..=8)? {
        frames.push(Frame {
            id: i,
            name: text(u)?,
            file: Some(PathBuf::from(FILE)),
            line: u.int_in_range(0..=60)?,
            external: u.arbitrary()?,
            params: u.arbitrary()?,
            pc: u.arbitrary()?,
        });
    }
    let mut budget = 3_000;
    let mut locals = vec![];
    while !u.is_empty() && budget > 0 && locals.len() < 400 {
        locals.push(var(u, language, 0, &mut budget)?);
    }
    Ok(StopInfo {
        reason: text(u).unwrap_or_default(),
        description: None,
        thread_id: 1,
        total_frames: frames.len(),
        frames,
        locals,
        locals_reference: 1,
        exception: None,
        source: Some(source.clone()),
        files: vec![source],
        callers: vec![],
        thread_note: None,
        hit: None,
        condition_error: None,
        process: None,
        child: None,
        connection: 0,
    })
}

pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let all = adapters::all();
    let pick = usize::from(u.arbitrary::<u8>().unwrap_or(0)) % (all.len() + 1);
    let language = LanguageOf(all.get(pick).map(|a| a.language()));
    let draw = u.ratio(1u8, 4).unwrap_or(false);
    let Ok(cfg) = config(&mut u) else { return };
    let Ok(stop) = stop(&mut u, language) else {
        return;
    };
    for v in &stop.locals {
        for depth in 0..3 {
            let _ = render(v, &cfg, depth);
        }
        let tree = v.tree();
        let _ = tree_json(
            &tree,
            Reach {
                items: 5,
                levels: 3,
            },
        );
        let _ = tree_json(
            &tree,
            Reach {
                items: usize::MAX,
                levels: 64,
            },
        );
    }
    // The same stop again, one local gone: what diff mode compares.
    let mut previous = stop.clone();
    previous.locals.pop();
    let snap = snapshot(stop);
    let extras = Extras {
        previous: Some(&previous),
        notes_after_epoch: 0,
        more: Some(&pairdbg::mcp::names::MCP.more),
    };
    let _ = render_text(&snap, &cfg, extras);
    let _ = render_text(&snap, &ViewportConfig::default(), Extras::default());
    let _ = render_json(&snap, &cfg);
    if draw {
        let _ = super::draw::screen(&snap, &previous.locals);
    }
}
