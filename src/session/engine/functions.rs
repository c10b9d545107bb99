//! Function breakpoints: the adapter's own where it has them; elsewhere the
//! function is found in the source by its language and set on the first
//! line of its body, and the breakpoint says so.

use futures::future::BoxFuture;
use serde_json::{Value, json};

use super::{Apply, Engine, ReplyTx};
use crate::dap::DapError;
use crate::session::SessionEvent;
use crate::session::command::Reply;
use crate::session::config::BreakpointSpec;
use crate::session::error::SessionError;
use crate::session::types::BreakpointKind;

/// The request's futures and whose entries its answer lists, in order: the
/// adapter's exception functions first (and the entry function until the
/// first stop), then ours.
pub(super) struct FunctionRequest {
    pub fut: BoxFuture<'static, Result<Value, DapError>>,
    pub exception_functions: usize,
    pub ids: Vec<u64>,
}

impl Engine {
    /// A function breakpoint as it can be placed: unchanged where the
    /// adapter places functions (or before it has said whether it can),
    /// else on the line its language finds.
    pub(super) fn place_function(
        &self,
        mut spec: BreakpointSpec,
    ) -> Result<BreakpointSpec, SessionError> {
        let name = spec.function.clone().unwrap_or_default();
        self.config
            .adapter
            .check_function(&self.config.spec(), &name)
            .map_err(|m| SessionError::invalid("function", m))?;
        if self.conn.capabilities.is_null() || self.places_functions() {
            return Ok(spec);
        }
        let adapter = self.config.adapter.name();
        let found = self
            .config
            .adapter
            .language()
            .find_function(&self.config.workspace.root, &name)
            .ok_or_else(|| {
                SessionError::invalid(
                    "function",
                    format!("{adapter} cannot break on functions by name; give file and line"),
                )
            })?
            .map_err(|m| SessionError::invalid("function", m))?;
        spec.resolved = Some(format!(
            "found in the source (def {name} at {}:{}), set on its body's first line",
            self.snap.display_path(&found.file),
            found.def_line
        ));
        spec.file = found.file;
        spec.line = found.body_line;
        Ok(spec)
    }

    /// Whether the adapter's own function breakpoints serve.
    fn places_functions(&self) -> bool {
        self.supports("supportsFunctionBreakpoints")
            && !self.config.adapter.quirks().functions_by_source
    }

    /// At configuration, once the adapter has said what it supports: the
    /// launch's function breakpoints it cannot place are found in the source.
    pub(super) fn place_pending_functions(&mut self) {
        if self.places_functions() {
            return;
        }
        let pending: Vec<u64> = self
            .snap
            .breakpoints
            .iter()
            .filter(|b| !b.is_source())
            .map(|b| b.id)
            .collect();
        for id in pending {
            let Some(b) = self.snap.breakpoints.iter().find(|b| b.id == id) else {
                continue;
            };
            let spec = BreakpointSpec {
                kind: BreakpointKind::Function,
                function: b.function.clone(),
                file: b.file.clone(),
                line: b.line,
                statement: None,
                condition: b.condition.clone(),
                hit_condition: b.hit_condition.clone(),
                log_message: None,
                trace: None,
                resolved: None,
            };
            let placed = self.place_function(spec);
            if let Some(b) = self.snap.breakpoints.iter_mut().find(|b| b.id == id) {
                match placed {
                    Ok(s) => {
                        b.file = s.file;
                        b.line = s.line;
                        b.resolved = s.resolved;
                    }
                    // Kept, unverified, with the reason, as a bad line would be.
                    Err(e) => b.message = Some(e.to_string()),
                }
            }
        }
    }

    /// `setFunctionBreakpoints` with every function the session breaks on,
    /// or None when the adapter has no function breakpoints.
    pub(super) fn function_request(&self) -> Option<FunctionRequest> {
        let client = self.conn.client.clone()?;
        if !self.supports("supportsFunctionBreakpoints") {
            return None;
        }
        let quirks = self.config.adapter.quirks();
        let exception = quirks.exception_functions;
        let entry = quirks
            .entry_function
            .filter(|_| self.config.stop_on_entry && !self.conn.entered);
        let ours_by_name = self.places_functions();
        let ours: Vec<_> = self
            .snap
            .breakpoints
            .iter()
            .filter(|b| ours_by_name && !b.is_source() && b.enabled)
            .collect();
        if exception.is_empty() && entry.is_none() && ours.is_empty() && !self.conn.sent_functions {
            return None;
        }
        // The entry function follows the exception functions: the answer's
        // entries are matched by position.
        let mut list: Vec<Value> = exception
            .iter()
            .map(|f| f.function)
            .chain(entry)
            .map(|name| json!({"name": name}))
            .collect();
        for b in &ours {
            let mut v = json!({"name": b.function});
            if let Some(c) = &b.condition {
                v["condition"] = json!(c);
            }
            if let Some(h) = b
                .hit_condition
                .as_deref()
                .and_then(|h| self.config.adapter.hit_condition(h).ok())
            {
                v["hitCondition"] = json!(h);
            }
            list.push(v);
        }
        Some(FunctionRequest {
            fut: Box::pin(
                client.request("setFunctionBreakpoints", Some(json!({"breakpoints": list}))),
            ),
            exception_functions: exception.len() + usize::from(entry.is_some()),
            ids: ours.iter().map(|b| b.id).collect(),
        })
    }

    pub(super) fn apply_function_result(
        &mut self,
        exception_functions: usize,
        ids: &[u64],
        res: Result<Value, String>,
    ) {
        self.conn.sent_functions = true;
        let list: Vec<Value> = match &res {
            Ok(body) => body
                .get("breakpoints")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
            Err(_) => vec![],
        };
        let functions = self.config.adapter.quirks().exception_functions;
        self.conn.entry_breakpoint = (exception_functions > functions.len())
            .then(|| list.get(functions.len())?.get("id")?.as_i64())
            .flatten();
        self.conn.exception_breakpoints = list
            .iter()
            .take(exception_functions)
            .zip(functions)
            .filter_map(|(b, f)| Some((b.get("id")?.as_i64()?, f.name)))
            .collect();
        let elsewhere: Vec<u64> = ids
            .iter()
            .copied()
            .filter(|id| self.verified_elsewhere(*id))
            .collect();
        let quirks = self.config.adapter.quirks();
        for (i, id) in ids.iter().enumerate() {
            let r = list.get(exception_functions + i);
            let Some(b) = self.snap.breakpoints.iter_mut().find(|b| b.id == *id) else {
                continue;
            };
            match (r, &res) {
                (Some(r), _) => {
                    let verified = r.get("verified").and_then(Value::as_bool).unwrap_or(false);
                    self.conn.verified.insert(*id, verified);
                    if !verified && elsewhere.contains(id) {
                        continue;
                    }
                    b.verified = verified;
                    b.bound_line = r.get("line").and_then(Value::as_u64);
                    if let Some(l) = b.bound_line {
                        b.line = l;
                    }
                    if let Some(p) = r.pointer("/source/path").and_then(Value::as_str) {
                        b.file = p.into();
                    }
                    b.message = r
                        .get("message")
                        .and_then(Value::as_str)
                        .map(|m| quirks.message_text(m));
                    if let Some(dap_id) = r.get("id").and_then(Value::as_i64) {
                        self.conn
                            .dap_ids
                            .answered(&[*id], [(dap_id, *id)], |_| true);
                    }
                }
                (None, Err(e)) => {
                    b.verified = false;
                    b.message = Some(e.clone());
                }
                (None, Ok(_)) => b.verified = false,
            }
        }
        self.touch(None, "");
        self.emit(SessionEvent::BreakpointsChanged);
    }

    /// Sends the function breakpoints again; answers with breakpoint `id`.
    pub(super) fn sync_functions(&mut self, reply: Option<(ReplyTx, u64)>) {
        let answer = |e: &Engine, reply: Option<(ReplyTx, u64)>| {
            if let Some((tx, id)) = reply {
                let bp = e.snap.breakpoints.iter().find(|b| b.id == id).cloned();
                let _ = tx.send(bp.map(Reply::Breakpoint).ok_or(SessionError::Gone));
            }
        };
        let reqs: Vec<(u32, FunctionRequest)> = self
            .configured_links()
            .into_iter()
            .filter_map(|(conn, _)| Some((conn, self.with_conn(conn, |e| e.function_request())??)))
            .collect();
        if reqs.is_empty() {
            return answer(self, reply);
        }
        self.spawn(async move {
            let results =
                futures::future::join_all(reqs.into_iter().map(|(conn, req)| async move {
                    let res = req.fut.await;
                    (conn, req.exception_functions, req.ids, res)
                }))
                .await;
            Box::new(move |e: &mut Engine| {
                for (conn, n, ids, res) in results {
                    let res = res.map_err(|x| x.to_string());
                    e.with_conn(conn, |e| e.apply_function_result(n, &ids, res));
                }
                answer(e, reply);
            }) as Apply
        });
    }
}
