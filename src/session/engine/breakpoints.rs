//! Breakpoints: ours are the source of truth; each file's list is sent whole.

use crate::sync::Locked;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Apply, Engine, ReplyTx, or_reply};
use crate::adapters::Language;
use crate::session::SessionEvent;
use crate::session::command::{BreakpointSelector, BreakpointUpdate, Reply};
use crate::session::config::{BreakpointRequest, BreakpointSpec, statement_line};
use crate::session::error::SessionError;
use crate::session::types::{Breakpoint, BreakpointKind, Origin};

/// Starts and ends the tag that names a tracepoint in the adapter's log
/// output, so its hits are told from the program's output and from each
/// other's, whatever output category the adapter gives them.
pub(super) const TRACE_OPEN: &str = "\u{1}tp";
pub(super) const TRACE_CLOSE: char = '\u{2}';
/// Ends a tracepoint's message, so a hit split over output events is joined.
pub(super) const TRACE_END: char = '\u{3}';

/// A tracepoint's `logMessage`: its tag, then its message in the adapter's terms.
fn trace_message(id: u64, template: Option<&str>, language: &dyn Language) -> String {
    format!(
        "{TRACE_OPEN}{id}{TRACE_CLOSE}{}{TRACE_END}",
        language.log_message(template.unwrap_or(""))
    )
}

/// How a breakpoint whose line's text is gone is described.
const GONE: &str = "no line reads";

fn is_gone_note(m: &str) -> bool {
    m.starts_with(GONE)
}

/// Notes of our own about an edit, kept across the adapter's answer.
fn is_edit_note(m: &str) -> bool {
    is_gone_note(m) || m.starts_with("moved with its text")
}

/// The text of a file's 1-based line, unless blank (a blank line says
/// nothing about where it went).
fn line_text(file: &Path, line: u64) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    let l = text.lines().nth((line as usize).checked_sub(1)?)?.trim();
    (!l.is_empty()).then(|| l.to_string())
}

impl Engine {
    pub(super) fn clear_temporary_breakpoints(&mut self) {
        let files: BTreeSet<PathBuf> = self
            .snap
            .breakpoints
            .iter()
            .filter(|b| b.temporary)
            .map(|b| b.file.clone())
            .collect();
        if files.is_empty() {
            return;
        }
        self.snap.breakpoints.retain(|b| !b.temporary);
        for f in files {
            self.sync_file(&f, None);
        }
    }

    // ---- breakpoints ----------------------------------------------------

    pub(super) fn add_breakpoint(
        &mut self,
        spec: BreakpointSpec,
        origin: Origin,
        temporary: bool,
    ) -> u64 {
        let same = |b: &Breakpoint| match &spec.function {
            Some(f) => b.function.as_ref() == Some(f),
            None => b.function.is_none() && b.file == spec.file && b.line == spec.line,
        };
        if let Some(b) = self
            .snap
            .breakpoints
            .iter_mut()
            .find(|b| same(b) && !temporary && !b.temporary)
        {
            b.kind = spec.kind;
            b.statement = spec.statement;
            b.condition = spec.condition;
            b.hit_condition = spec.hit_condition;
            b.log_message = spec.log_message;
            b.trace = spec.trace;
            b.resolved = spec.resolved;
            b.enabled = true;
            b.origin = origin;
            return b.id;
        }
        let id = self.next_bp_id;
        self.next_bp_id += 1;
        let line_text = match (&spec.function, &spec.statement) {
            (None, None) => line_text(&spec.file, spec.line),
            _ => None,
        };
        self.snap.breakpoints.push(Breakpoint {
            id,
            kind: spec.kind,
            function: spec.function,
            file: spec.file,
            line: spec.line,
            statement: spec.statement,
            resolved: spec.resolved,
            hits: 0,
            trace: spec.trace,
            condition: spec.condition,
            hit_condition: spec.hit_condition,
            log_message: spec.log_message,
            origin,
            verified: false,
            bound_line: None,
            line_text,
            message: None,
            enabled: true,
            temporary,
        });
        self.dirty = true;
        id
    }

    pub(super) fn set_breakpoints_args(&self, file: &Path) -> (Vec<u64>, Value) {
        let bps: Vec<&Breakpoint> = self
            .snap
            .breakpoints
            .iter()
            .filter(|b| b.file == file && b.enabled && b.is_source())
            .collect();
        let adapter = self.config.adapter;
        let language = adapter.language();
        let args = dap_types::SetBreakpointsArguments {
            source: dap_types::Source {
                name: file.file_name().map(|n| n.to_string_lossy().to_string()),
                path: Some(file.display().to_string()),
                source_reference: None,
                presentation_hint: None,
                origin: None,
                sources: None,
                adapter_data: None,
                checksums: None,
            },
            breakpoints: Some(
                bps.iter()
                    .map(|b| dap_types::SourceBreakpoint {
                        line: b.line,
                        column: None,
                        condition: b.condition.clone(),
                        hit_condition: b
                            .hit_condition
                            .as_deref()
                            .and_then(|h| adapter.hit_condition(h).ok()),
                        log_message: b
                            .trace
                            .is_some()
                            .then(|| trace_message(b.id, b.log_message.as_deref(), language)),
                        mode: None,
                    })
                    .collect(),
            ),
            lines: None,
            source_modified: Some(false),
        };
        (
            bps.iter().map(|b| b.id).collect(),
            crate::dap::envelope::to_wire(&args),
        )
    }

    /// Finds the line of each breakpoint that follows a statement, or the
    /// text of the line it was set on, again in the file as it is now.
    pub(super) fn refresh_statements(&mut self, file: &Path) {
        if !self
            .snap
            .breakpoints
            .iter()
            .any(|b| b.file == file && (b.statement.is_some() || b.line_text.is_some()))
        {
            return;
        }
        let Ok(text) = std::fs::read_to_string(file) else {
            return;
        };
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        for b in self.snap.breakpoints.iter_mut().filter(|b| b.file == file) {
            let (follows, st) = match (&b.statement, &b.line_text) {
                (Some(st), _) => (true, st.clone()),
                (None, Some(t)) => (false, t.clone()),
                (None, None) => continue,
            };
            // A line that still reads the same keeps its breakpoint, even
            // when the same text is also nearer elsewhere.
            let same = (b.line as usize)
                .checked_sub(1)
                .and_then(|i| lines.get(i))
                .is_some_and(|l| l.trim() == st.trim());
            let found = if same {
                Some(b.line)
            } else {
                statement_line(&lines, &st, Some(b.line))
            };
            match found {
                Some(l) => {
                    if l != b.line {
                        if !follows {
                            b.message = Some(format!("moved with its text from line {}", b.line));
                        }
                        b.line = l;
                        b.bound_line = None;
                    } else if !follows && b.message.as_deref().is_some_and(is_edit_note) {
                        b.message = None;
                    }
                }
                None if follows => b.message = Some(format!("no line reads {st:?} any more")),
                None => b.message = Some(format!("{GONE} {st:?}; it stays on line {}", b.line)),
            }
        }
    }

    /// Sends a file's whole breakpoint list, as DAP requires, to every
    /// configured connection; answers once all have.
    pub(super) fn sync_file(&mut self, file: &Path, reply: Option<(ReplyTx, u64)>) {
        self.sync_file_then(
            file,
            Box::new(move |e: &mut Engine| {
                if let Some((tx, id)) = reply {
                    let bp = e.snap.breakpoints.iter().find(|b| b.id == id).cloned();
                    let _ = tx.send(bp.map(Reply::Breakpoint).ok_or(SessionError::Gone));
                }
            }),
        );
    }

    /// As `sync_file`, then `done` once every connection has answered:
    /// some adapters handle requests concurrently, so a resume sent before
    /// the answer could run ahead of the change.
    pub(super) fn sync_file_then(&mut self, file: &Path, done: Apply) {
        self.refresh_statements(file);
        let links = self.configured_links();
        if links.is_empty() {
            return done(self);
        }
        let (ids, args) = self.set_breakpoints_args(file);
        // Sent now, before any resume that follows in this same turn.
        let futs: Vec<_> = links
            .iter()
            .map(|(conn, client)| {
                let fut = client.request("setBreakpoints", Some(args.clone()));
                let conn = *conn;
                async move { (conn, fut.await) }
            })
            .collect();
        self.spawn(async move {
            let results = futures::future::join_all(futs).await;
            Box::new(move |e: &mut Engine| {
                for (conn, res) in results {
                    let res = res.map_err(|x| x.to_string());
                    e.with_conn(conn, |e| e.apply_breakpoint_result(&ids, res));
                }
                done(e);
            }) as Apply
        });
    }

    pub(super) fn apply_breakpoint_result(&mut self, ids: &[u64], res: Result<Value, String>) {
        let results: Vec<Value> = match res {
            Ok(body) => body
                .get("breakpoints")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
            Err(err) => {
                let refused: Vec<u64> = ids
                    .iter()
                    .copied()
                    .filter(|id| !self.verified_elsewhere(*id))
                    .collect();
                for b in self
                    .snap
                    .breakpoints
                    .iter_mut()
                    .filter(|b| refused.contains(&b.id))
                {
                    b.verified = false;
                    b.message = Some(err.clone());
                }
                self.touch(None, "");
                return;
            }
        };
        let named: Vec<(i64, u64)> = ids
            .iter()
            .zip(&results)
            .filter_map(|(id, r)| Some((r.get("id")?.as_i64()?, *id)))
            .collect();
        let bps = &self.snap.breakpoints;
        self.conn
            .dap_ids
            .answered(ids, named, |o| bps.iter().any(|b| b.id == o));
        let quirks = self.config.adapter.quirks();
        for (id, r) in ids.iter().zip(results) {
            let verified = r.get("verified").and_then(Value::as_bool).unwrap_or(false);
            self.conn.verified.insert(*id, verified);
            // Another process bound it: this one's refusal does not count.
            if !verified && self.verified_elsewhere(*id) {
                continue;
            }
            if let Some(b) = self.snap.breakpoints.iter_mut().find(|b| b.id == *id) {
                b.verified = verified;
                // Line 0 is no line: the asked line stands, unverified.
                let line = r.get("line").and_then(Value::as_u64);
                b.bound_line = line.filter(|l| *l > 0);
                let note = b.message.take().filter(|m| is_edit_note(m));
                b.message = r
                    .get("message")
                    .and_then(Value::as_str)
                    .map(|m| quirks.message_text(m))
                    .or(note);
                if line == Some(0) {
                    b.verified = false;
                    b.message
                        .get_or_insert_with(|| "the adapter placed it on no line".into());
                }
            }
        }
        self.touch(None, "");
        self.emit(SessionEvent::BreakpointsChanged);
    }

    pub(super) fn on_breakpoint_event(&mut self, bp: &Value) {
        let Some(dap_id) = bp.get("id").and_then(Value::as_i64) else {
            return;
        };
        let named = self.conn.dap_ids.named(dap_id);
        let candidates: Vec<&Breakpoint> = self
            .snap
            .breakpoints
            .iter()
            .filter(|b| named.contains(&b.id))
            .collect();
        let file = bp.pointer("/source/path").and_then(Value::as_str);
        let line = bp.get("line").and_then(Value::as_u64);
        let Some(ours) = super::dap_ids::pick(&candidates, file.map(Path::new), line) else {
            return;
        };
        let verified = bp.get("verified").and_then(Value::as_bool);
        if let Some(v) = verified {
            self.conn.verified.insert(ours, v);
        }
        let elsewhere = self.verified_elsewhere(ours);
        let quirks = self.config.adapter.quirks();
        if let Some(b) = self.snap.breakpoints.iter_mut().find(|b| b.id == ours) {
            if let Some(v) = verified {
                b.verified = v || elsewhere;
            }
            // Bound now: why it was not (a provisional breakpoint
            // waiting for a source map) no longer holds.
            if verified == Some(true) {
                let note = b.message.take().filter(|m| is_edit_note(m));
                b.message = bp
                    .get("message")
                    .and_then(Value::as_str)
                    .map(|m| quirks.message_text(m))
                    .or(note);
            }
            if let Some(l) = bp.get("line").and_then(Value::as_u64).filter(|l| *l > 0) {
                b.bound_line = Some(l);
            }
            self.touch(None, "");
            self.emit(SessionEvent::BreakpointsChanged);
        }
    }

    pub(super) fn set_breakpoint(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        req: BreakpointRequest,
    ) {
        // Set after the exit (or before the start), a breakpoint waits in
        // the list and the next run sends it.
        let mut spec = or_reply!(req.validate(&self.config.workspace), reply);
        if let Some(t) = spec.log_message.as_deref()
            && let Err(e) = crate::adapters::parse_log_message(t)
        {
            let _ = reply.send(Err(SessionError::invalid("log_message", e)));
            return;
        }
        if let Some(h) = spec.hit_condition.as_deref()
            && let Err(e) = self.config.adapter.hit_condition(h)
        {
            let _ = reply.send(Err(SessionError::invalid("hit_count", e)));
            return;
        }
        if spec.kind == BreakpointKind::Function {
            spec = or_reply!(self.place_function(spec), reply);
        }
        match spec
            .condition
            .as_deref()
            .and_then(|c| self.check_condition(c))
        {
            None => self.finish_set_breakpoint(origin, reply, spec),
            Some(fut) => self.spawn(async move {
                let res = fut.await;
                Box::new(move |e: &mut Engine| match res {
                    Ok(()) => e.finish_set_breakpoint(origin, reply, spec),
                    Err(m) => {
                        let _ = reply.send(Err(SessionError::invalid("condition", m)));
                    }
                }) as Apply
            }),
        }
    }

    /// The check of a condition before it is set: the language's parser,
    /// or else the frame the program is stopped in; None when neither can.
    fn check_condition(
        &self,
        condition: &str,
    ) -> Option<futures::future::BoxFuture<'static, Result<(), String>>> {
        self.config
            .adapter
            .check_condition(&self.config.spec(), condition)
            .or_else(|| self.condition_in_frame(condition))
    }

    fn finish_set_breakpoint(&mut self, origin: Origin, reply: ReplyTx, spec: BreakpointSpec) {
        let file = spec.file.clone();
        let source = spec.kind != BreakpointKind::Function || spec.resolved.is_some();
        let what = match (&spec.function, source) {
            (Some(f), false) => format!("{} set a breakpoint on {f}", origin.noun()),
            _ => format!(
                "{} set a {} at {}:{}",
                origin.noun(),
                if spec.trace.is_some() {
                    "tracepoint"
                } else {
                    "breakpoint"
                },
                self.snap.display_path(&file),
                spec.line
            ),
        };
        let id = self.add_breakpoint(spec, origin, false);
        self.touch(Some(origin), what);
        if source {
            self.sync_file(&file, Some((reply, id)));
        } else {
            self.sync_functions(Some((reply, id)));
        }
    }

    /// Sends the breakpoint's list: its file's, or the function breakpoints.
    pub(super) fn sync_breakpoint(&mut self, b: &Breakpoint, reply: Option<(ReplyTx, u64)>) {
        if b.is_source() {
            self.sync_file(&b.file.clone(), reply);
        } else {
            self.sync_functions(reply);
        }
    }

    pub(super) fn remove_breakpoint(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        sel: BreakpointSelector,
    ) {
        if let BreakpointSelector::Id(id) = &sel
            && self.snap.exception_types.iter().any(|x| x.id == *id)
        {
            return self.remove_exception_type(origin, reply, *id);
        }
        let matches: Vec<Breakpoint> = match &sel {
            BreakpointSelector::Id(id) => self
                .snap
                .breakpoints
                .iter()
                .filter(|b| b.id == *id)
                .cloned()
                .collect(),
            BreakpointSelector::Location { file, line } => {
                let path = or_reply!(self.config.workspace.resolve_file("file", file), reply);
                self.snap
                    .breakpoints
                    .iter()
                    .filter(|b| {
                        b.file == path
                            && (b.line as i64 == *line
                                || b.bound_line.map(|l| l as i64) == Some(*line))
                    })
                    .cloned()
                    .collect()
            }
        };
        if matches.is_empty() {
            let (field, what) = match &sel {
                BreakpointSelector::Id(id) => ("id", format!("#{id}")),
                BreakpointSelector::Location { file, line } => {
                    ("file", format!("at {file}:{line}"))
                }
            };
            let _ = reply.send(Err(SessionError::NoBreakpoint {
                field: field.into(),
                what,
            }));
            return;
        }
        let ids: Vec<u64> = matches.iter().map(|b| b.id).collect();
        self.snap.breakpoints.retain(|b| !ids.contains(&b.id));
        let files: BTreeSet<PathBuf> = matches
            .iter()
            .filter(|b| b.is_source())
            .map(|b| b.file.clone())
            .collect();
        if matches.iter().any(|b| !b.is_source()) {
            self.sync_functions(None);
        }
        self.touch(
            Some(origin),
            format!("{} removed {} breakpoint(s)", origin.noun(), matches.len()),
        );
        self.emit(SessionEvent::BreakpointsChanged);
        // Answered once the adapter has them gone: a continue the caller
        // sends next must not meet them.
        let left = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(files.len()));
        let pending = std::sync::Arc::new(std::sync::Mutex::new(Some((reply, matches))));
        if files.is_empty()
            && let Some((reply, matches)) = pending.locked().take()
        {
            let _ = reply.send(Ok(Reply::Removed(matches, vec![])));
        }
        for f in files {
            let (left, pending) = (left.clone(), pending.clone());
            self.sync_file_then(
                &f,
                Box::new(move |_: &mut Engine| {
                    if left.fetch_sub(1, std::sync::atomic::Ordering::SeqCst) == 1
                        && let Some((reply, matches)) = pending.locked().take()
                    {
                        let _ = reply.send(Ok(Reply::Removed(matches, vec![])));
                    }
                }),
            );
        }
    }

    // ---- inspection -----------------------------------------------------

    /// Enables, disables or edits one breakpoint; `Some("")` clears a field.
    pub(super) fn update_breakpoint(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        u: BreakpointUpdate,
    ) {
        if self.snap.exception_types.iter().any(|x| x.id == u.id) {
            return self.enable_exception_type(origin, reply, u.id, u.enabled.unwrap_or(true));
        }
        // A changed condition is checked as a new one is.
        let check = u
            .condition
            .as_deref()
            .filter(|c| !c.trim().is_empty())
            .and_then(|c| self.check_condition(c));
        match check {
            None => self.apply_update(origin, reply, u),
            Some(fut) => self.spawn(async move {
                let res = fut.await;
                Box::new(move |e: &mut Engine| match res {
                    Ok(()) => e.apply_update(origin, reply, u),
                    Err(m) => {
                        let _ = reply.send(Err(SessionError::invalid("condition", m)));
                    }
                }) as Apply
            }),
        }
    }

    fn apply_update(&mut self, origin: Origin, reply: ReplyTx, u: BreakpointUpdate) {
        let Some(b) = self
            .snap
            .breakpoints
            .iter_mut()
            .find(|b| b.id == u.id && !b.temporary)
        else {
            let _ = reply.send(Err(SessionError::NoBreakpoint {
                field: "id".into(),
                what: format!("#{}", u.id),
            }));
            return;
        };
        let clear = |v: String| Some(v).filter(|s| !s.trim().is_empty());
        if let Some(e) = u.enabled {
            b.enabled = e;
            if !e {
                b.verified = false;
            }
        }
        if let Some(c) = u.condition {
            b.condition = clear(c);
        }
        if let Some(h) = u.hit_condition {
            b.hit_condition = clear(h);
        }
        if let Some(l) = u.log_message {
            b.log_message = clear(l);
            // A log message makes a tracepoint; clearing it, a breakpoint again.
            if b.kind != BreakpointKind::Function {
                b.kind = if b.log_message.is_some() {
                    BreakpointKind::Tracepoint
                } else {
                    BreakpointKind::Blocking
                };
                b.trace = b
                    .log_message
                    .is_some()
                    .then(|| b.trace.clone().unwrap_or_default());
            }
        }
        // Re-enabled, a tracepoint that had used up its records starts over.
        if u.enabled == Some(true)
            && let Some(t) = b.trace.as_mut()
        {
            t.records = 0;
        }
        b.origin = origin;
        let b = b.clone();
        let what = match u.enabled {
            Some(true) => "enabled",
            Some(false) => "disabled",
            None => "changed",
        };
        self.touch(
            Some(origin),
            format!("{} {what} breakpoint #{}", origin.noun(), b.id),
        );
        self.emit(SessionEvent::BreakpointsChanged);
        self.sync_breakpoint(&b, Some((reply, b.id)));
    }
}
