//! Breakpoints: ours are the source of truth; each file's list is sent whole.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{Apply, Engine, ReplyTx, or_reply};
use crate::session::SessionEvent;
use crate::session::command::{BreakpointSelector, BreakpointUpdate, Reply};
use crate::session::config::{BreakpointRequest, BreakpointSpec};
use crate::session::error::SessionError;
use crate::session::types::{Breakpoint, Origin, RunState};

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
        if let Some(b) = self
            .snap
            .breakpoints
            .iter_mut()
            .find(|b| b.file == spec.file && b.line == spec.line && !temporary && !b.temporary)
        {
            b.condition = spec.condition;
            b.hit_condition = spec.hit_condition;
            b.log_message = spec.log_message;
            b.origin = origin;
            return b.id;
        }
        let id = self.next_bp_id;
        self.next_bp_id += 1;
        self.snap.breakpoints.push(Breakpoint {
            id,
            file: spec.file,
            line: spec.line,
            condition: spec.condition,
            hit_condition: spec.hit_condition,
            log_message: spec.log_message,
            origin,
            verified: false,
            bound_line: None,
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
            .filter(|b| b.file == file && b.enabled)
            .collect();
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
                        hit_condition: b.hit_condition.clone(),
                        log_message: b.log_message.clone(),
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

    /// Sends a file's whole breakpoint list, as DAP requires.
    pub(super) fn sync_file(&mut self, file: &Path, reply: Option<(ReplyTx, u64)>) {
        let client = match (&self.conn.client, self.conn.configured) {
            (Some(c), true) => c.clone(),
            _ => {
                if let Some((tx, id)) = reply {
                    let bp = self.snap.breakpoints.iter().find(|b| b.id == id).cloned();
                    let _ = tx.send(bp.map(Reply::Breakpoint).ok_or(SessionError::Gone));
                }
                return;
            }
        };
        let (ids, args) = self.set_breakpoints_args(file);
        let fut = client.request("setBreakpoints", Some(args));
        self.spawn(async move {
            let res = fut.await;
            Box::new(move |e: &mut Engine| {
                e.apply_breakpoint_result(&ids, res.map_err(|x| x.to_string()));
                if let Some((tx, id)) = reply {
                    let bp = e.snap.breakpoints.iter().find(|b| b.id == id).cloned();
                    let _ = tx.send(bp.map(Reply::Breakpoint).ok_or(SessionError::Gone));
                }
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
                for b in self
                    .snap
                    .breakpoints
                    .iter_mut()
                    .filter(|b| ids.contains(&b.id))
                {
                    b.verified = false;
                    b.message = Some(err.clone());
                }
                self.touch(None, "");
                return;
            }
        };
        for (id, r) in ids.iter().zip(results) {
            if let Some(b) = self.snap.breakpoints.iter_mut().find(|b| b.id == *id) {
                b.verified = r.get("verified").and_then(Value::as_bool).unwrap_or(false);
                b.bound_line = r.get("line").and_then(Value::as_u64);
                b.message = r.get("message").and_then(Value::as_str).map(str::to_string);
                if let Some(dap_id) = r.get("id").and_then(Value::as_i64) {
                    self.conn.dap_ids.retain(|(_, ours)| ours != id);
                    self.conn.dap_ids.push((dap_id, *id));
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
        let Some(&(_, ours)) = self.conn.dap_ids.iter().find(|(d, _)| *d == dap_id) else {
            return;
        };
        if let Some(b) = self.snap.breakpoints.iter_mut().find(|b| b.id == ours) {
            if let Some(v) = bp.get("verified").and_then(Value::as_bool) {
                b.verified = v;
            }
            if let Some(l) = bp.get("line").and_then(Value::as_u64) {
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
        if matches!(self.snap.state, RunState::Exited | RunState::Error) {
            let _ = reply.send(Err(SessionError::State(format!(
                "cannot set a breakpoint: {}",
                self.snap.state_sentence()
            ))));
            return;
        }
        match req.validate(&self.config.workspace) {
            Err(e) => {
                let _ = reply.send(Err(e));
            }
            Ok(spec) => {
                let file = spec.file.clone();
                let line = spec.line;
                let id = self.add_breakpoint(spec, origin, false);
                let shown = self.snap.display_path(&file);
                self.touch(
                    Some(origin),
                    format!("{} set a breakpoint at {shown}:{line}", origin.noun()),
                );
                self.sync_file(&file, Some((reply, id)));
            }
        }
    }

    pub(super) fn remove_breakpoint(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        sel: BreakpointSelector,
    ) {
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
        let files: BTreeSet<PathBuf> = matches.iter().map(|b| b.file.clone()).collect();
        for f in files {
            self.sync_file(&f, None);
        }
        self.touch(
            Some(origin),
            format!("{} removed {} breakpoint(s)", origin.noun(), matches.len()),
        );
        self.emit(SessionEvent::BreakpointsChanged);
        let _ = reply.send(Ok(Reply::Removed(matches)));
    }

    pub(super) fn set_exception_filters(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        filters: Vec<String>,
    ) {
        let known: Vec<&str> = self
            .snap
            .available_exception_filters
            .iter()
            .map(|(f, _)| f.as_str())
            .collect();
        // Before `initialize` answers, the adapter's filters are not known yet.
        let told = !self.conn.capabilities.is_null();
        if let Some(bad) = filters
            .iter()
            .find(|f| (told || !known.is_empty()) && !known.contains(&f.as_str()))
        {
            let message = if known.is_empty() {
                format!(
                    "{bad:?}: {} has no exception filters",
                    self.config.adapter.name()
                )
            } else {
                format!("{bad:?} is not a filter of this adapter; it has {known:?}")
            };
            let _ = reply.send(Err(SessionError::invalid("filters", message)));
            return;
        }
        self.snap.exception_filters = filters.clone();
        self.touch(
            Some(origin),
            format!("{} set exception breakpoints {filters:?}", origin.noun()),
        );
        match self.conn.client.clone().filter(|_| self.conn.configured) {
            None => {
                let _ = reply.send(Ok(Reply::Done));
            }
            Some(c) => {
                let fut = c.request("setExceptionBreakpoints", Some(json!({"filters": filters})));
                self.spawn(async move {
                    let res = fut.await;
                    Box::new(move |_e: &mut Engine| {
                        let _ = reply.send(res.map(|_| Reply::Done).map_err(SessionError::from));
                    }) as Apply
                });
            }
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
        }
        b.origin = origin;
        let (file, id, line) = (b.file.clone(), b.id, b.line);
        let shown = self.snap.display_path(&file);
        self.touch(
            Some(origin),
            format!("{} changed the breakpoint at {shown}:{line}", origin.noun()),
        );
        self.emit(SessionEvent::BreakpointsChanged);
        self.sync_file(&file, Some((reply, id)));
    }
}
