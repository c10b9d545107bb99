//! Reading a stop from the adapter, with every independent request sent
//! before any is awaited: each round trip to the adapter is the cost of a step.

use std::sync::Arc;

use futures::FutureExt;
use futures::future::{BoxFuture, join_all};
use serde_json::{Value, json};

use super::callers;
use super::fill::fill_grandchildren;
use super::hints::{StopHints, VarsFuture};
use super::link::Link;
use super::link::not_read_reason;
use super::reads::{parse_frames, str_field, top_frame_locals};
use super::sources::{SharedSourceCache, SourceCache};
use super::types::{ExceptionDetails, Origin, RaiseSite, SourceFile, StopInfo, Var, WatchValue};
use crate::dap::DapError;

/// Frames read per stop.
pub const STACK_LEVELS: usize = 20;
/// Locals whose children are read for previews at a stop; a view that
/// shows more reads them again to preview them all.
pub const PREVIEW_LOCALS: usize = 20;
/// The name the locals go by when their scope could not be read at all.
pub const LOCALS: &str = "locals";

pub struct StopRequest {
    pub thread_id: i64,
    pub reason: String,
    pub description: Option<String>,
    pub text: Option<String>,
    pub watches: Vec<(String, Origin)>,
    pub thread_note: Option<String>,
    /// What the previous stop revealed, to send this one's reads early.
    pub hints: StopHints,
    /// The exception, when the engine already knows it (a stop at one of
    /// the adapter's exception functions): no exceptionInfo is asked.
    pub exception: Option<ExceptionDetails>,
    /// The stack as a same-line step check just read it (`STACK_LEVELS`
    /// frames from the top, at this very stop): not asked for again.
    pub stack: Option<serde_json::Value>,
}

/// The stackTrace arguments of a stop's read.
pub fn stack_arguments(thread_id: i64) -> serde_json::Value {
    json!({
        "threadId": thread_id,
        "startFrame": 0,
        "levels": STACK_LEVELS
    })
}

pub async fn fetch_stop(
    client: &Link,
    mut req: StopRequest,
    sources: &SharedSourceCache,
) -> Result<(StopInfo, Vec<WatchValue>), DapError> {
    let stack: futures::future::BoxFuture<'static, Result<serde_json::Value, DapError>> =
        match req.stack.take() {
            Some(body) => Box::pin(futures::future::ready(Ok(body))),
            None => Box::pin(client.request("stackTrace", Some(stack_arguments(req.thread_id)))),
        };
    let exception = (req.reason == "exception"
        && req.exception.is_none()
        && !client.quirks().exception_in_stopped_event)
        .then(|| exception_info(client, req.thread_id));
    let mut early = req.hints.send(client);
    let language = client.language();
    // Only a dead adapter fails the read: a stack not read in time leaves a
    // stop without frames that says so, and the program can still be moved.
    let mut thread_note = req.thread_note.clone();
    let (mut frames, mut total_frames) =
        match stack.await.and_then(|body| parse_frames(body, language)) {
            Ok(read) => read,
            Err(DapError::Closed) => return Err(DapError::Closed),
            Err(err) => {
                thread_note = Some(format!("the stack was not read: {err}"));
                (vec![], 0)
            }
        };
    if req.reason == "exception" || req.reason == "crashed" {
        // A crash inside the runtime (abort, a panic) is read from the
        // program's own frame: that is where its cause and locals are. So is
        // a crash in code the adapter says is not the user's (a standard
        // library's, in an interpreter's core).
        let crashed = req.reason == "crashed";
        let runtime = frames
            .iter()
            .take_while(|f| {
                language.is_runtime_frame(&f.name, f.file.as_deref().and_then(|p| p.to_str()))
                    || (crashed && f.external)
            })
            .count();
        if runtime > 0 && runtime < frames.len() {
            frames.drain(..runtime);
            total_frames = total_frames.saturating_sub(runtime);
        }
    }
    // The top frame's locals need no source file, and reading a caller's
    // (a runtime's large file at a first stop) took longer than the request.
    let early_top = frames.first().and_then(|f| early.take_locals(f.id));
    let fresh_top = match (&early_top, frames.first()) {
        (None, Some(top)) => Some(top_frame_locals(client, top.id)),
        _ => None,
    };
    // Each frame's file is read (or checked unchanged) once per stop.
    let mut files: Vec<Arc<SourceFile>> = vec![];
    for p in frames.iter().filter_map(|f| f.file.as_deref()) {
        if !files.iter().any(|f| f.path == p)
            && let Some(f) = SourceCache::get(sources, p)
        {
            files.push(f);
        }
    }
    for f in frames.iter_mut() {
        f.params = f
            .file
            .as_deref()
            .and_then(|p| files.iter().find(|s| s.path == p))
            .and_then(|src| language.parameters(&src.lines, &f.name, f.line));
    }
    // An exceptionInfo that missed its deadline leaves the message not read.
    let mut exception_unread = None;
    let exception = match exception {
        None if req.exception.is_some() => req.exception.clone(),
        Some(f) => f
            .await
            .map_err(|e| exception_unread = not_read_reason(&e))
            .ok()
            .map(|b| {
                let trace = b.pointer("/details/stackTrace").and_then(|t| t.as_str());
                let (type_name, message) = language
                    .exception_parts(&str_field(&b, "exceptionId"), &str_field(&b, "description"));
                ExceptionDetails {
                    type_name,
                    message,
                    raised_at: trace.and_then(|t| language.raise_site(t)).map(
                        |(file, line, function)| RaiseSite {
                            file: file.into(),
                            line,
                            function,
                        },
                    ),
                    qualified_type: trace.and_then(|t| language.exception_type(t)),
                    first_chance: b
                        .get("breakMode")
                        .and_then(|m| m.as_str())
                        .map(|m| m == "always"),
                    break_mode: b
                        .get("breakMode")
                        .and_then(|m| m.as_str())
                        .map(str::to_string),
                }
            }),
        None => None,
    }
    .or_else(|| {
        let description = req.description.as_deref().filter(|d| !d.is_empty());
        if let Some(d) = description.filter(|_| client.quirks().exception_in_stopped_event) {
            let (type_name, message) = language.exception_parts("", d);
            return (req.reason == "exception").then_some(ExceptionDetails {
                type_name,
                message,
                raised_at: None,
                qualified_type: None,
                first_chance: None,
                break_mode: None,
            });
        }
        (req.reason == "exception").then(|| ExceptionDetails {
            type_name: req.text.clone().unwrap_or_default(),
            message: req
                .description
                .clone()
                .filter(|d| !d.is_empty())
                .or_else(|| exception_unread.map(|r| format!("<not read: {r}>")))
                .unwrap_or_default(),
            raised_at: None,
            qualified_type: None,
            first_chance: None,
            break_mode: None,
        })
    });

    let previews = std::mem::take(&mut early.previews);
    let top_frame = async {
        let Some(top) = frames.first() else {
            return Ok((vec![], 0, vec![]));
        };
        let read = match (early_top, fresh_top) {
            (Some(e), _) => match e.vars.await {
                Ok(vars) => Ok((vars, e.reference)),
                // Asking again would only wait as long once more.
                Err(err @ DapError::Timeout { .. }) => Err(err),
                Err(_) => top_frame_locals(client, top.id).await,
            },
            (None, Some(f)) => f.await,
            (None, None) => top_frame_locals(client, top.id).await,
        };
        let (mut vars, reference) = match read {
            Ok(read) => read,
            Err(err) => match not_read_reason(&err) {
                // The locals as a whole are not read; the stop still shows.
                Some(reason) => (vec![Var::not_read(LOCALS, reason)], 0),
                None => return Err(err),
            },
        };
        super::reads::declared_in(client, &top.name, &mut vars);
        let vars = super::statics::with_statics(client, top, &files, vars).await;
        let watch_futs: Vec<_> = req
            .watches
            .iter()
            .map(|(expr, _)| super::parts_read::watch(client, expr, top.id))
            .collect();
        let (mut locals, watch_vals) = futures::join!(
            with_previews(client, &top.name, vars, previews),
            join_all(watch_futs)
        );
        let mut watches: Vec<WatchValue> = req
            .watches
            .iter()
            .zip(watch_vals)
            .map(|((expression, origin), value)| WatchValue {
                expression: expression.clone(),
                origin: *origin,
                value,
            })
            .collect();
        let shown = locals
            .iter_mut()
            .chain(watches.iter_mut().filter_map(|w| w.value.as_mut().ok()));
        super::cut_lengths::fill(client, shown, top.id).await;
        Ok::<_, DapError>((locals, reference, watches))
    };
    let caller_frames: &[_] = if client.quirks().caller_arguments {
        &frames
    } else {
        &[]
    };
    let (top, callers) = futures::join!(top_frame, callers::read(client, caller_frames, early));
    let (locals, locals_reference, watches) = top?;
    if let Some(top) = frames.first_mut()
        && let Some(src) = top
            .file
            .as_deref()
            .and_then(|p| files.iter().find(|s| s.path == p))
    {
        let typed: Vec<(&str, &str)> = locals
            .iter()
            .map(|v| (v.name.as_str(), v.type_name.as_str()))
            .collect();
        if let Some(name) = language.frame_name_typed(&top.name, &src.lines, top.line, &typed) {
            top.name = name;
        }
    }
    let callers = callers::share_previews(callers, &locals);
    let source = frames
        .first()
        .and_then(|f| f.file.as_deref())
        .and_then(|p| files.iter().find(|s| s.path == p).cloned());
    Ok((
        StopInfo {
            reason: req.reason,
            description: req.description,
            thread_id: req.thread_id,
            frames,
            total_frames,
            locals,
            locals_reference,
            exception,
            thread_note,
            source,
            files,
            callers,
            hit: None,
            condition_error: None,
            process: None,
            child: None,
            connection: 0,
        },
        watches,
    ))
}

/// Reads one level of children for the locals that have any, all at once.
type Speculative = (String, i64, VarsFuture);

async fn with_previews(
    client: &Link,
    function: &str,
    mut vars: Vec<Var>,
    mut speculative: Vec<Speculative>,
) -> Vec<Var> {
    for v in vars.iter_mut().filter(|v| v.reference > 0) {
        v.children = client.shapes.preview(v);
    }
    let mut wanted: Vec<usize> = vars
        .iter()
        .enumerate()
        .filter(|(_, v)| {
            v.reference > 0
                && v.children.is_none()
                && client.language().needs_children(&v.value, v.truncated)
        })
        .map(|(i, _)| i)
        .take(PREVIEW_LOCALS)
        .collect();
    wanted.retain(|&i| {
        let slow = client.slow_previews.is_slow(function, &vars[i].name);
        if slow {
            vars[i].not_read = Some(super::slow_previews::skipped_reason());
        }
        !slow
    });
    // A speculative answer counts only if this stop gave the same local the
    // same reference; otherwise ask afresh.
    let futs: Vec<VarsFuture> = wanted
        .iter()
        .map(|&i| {
            let v = &vars[i];
            match speculative
                .iter()
                .position(|(n, r, _)| *n == v.name && *r == v.reference)
            {
                Some(k) => speculative.swap_remove(k).2,
                None => Box::pin(super::indexed::children(client, v)) as VarsFuture,
            }
        })
        .collect();
    for (i, res) in wanted.iter().zip(join_all(futs).await) {
        match res {
            Ok(children) => {
                // Elements whose own children are read for the preview are
                // shown by them, not by their type alone.
                let language = client.language();
                if !children
                    .iter()
                    .any(|c| language.needs_children_when_nested(&c.value, c.truncated))
                {
                    client.shapes.learn(&vars[*i], &children);
                }
                vars[*i].children = Some(children);
            }
            // The value alone does not say what it is (that is why its
            // children were read): it is shown as not read, not as its text.
            Err(err @ DapError::Timeout { .. }) => {
                client.slow_previews.mark(function, &vars[*i].name);
                vars[*i].not_read = not_read_reason(&err)
            }
            Err(_) => {}
        }
    }
    fill_grandchildren(client, &mut vars, PREVIEW_LOCALS).await;
    vars
}

/// The exception a stop is at, in `exceptionInfo`'s shape: from the
/// adapter's console where it has no `exceptionInfo` (gdb names a signal
/// only there).
fn exception_info(client: &Link, thread_id: i64) -> BoxFuture<'static, Result<Value, DapError>> {
    match client.quirks().exception_info_command {
        Some(command) => client
            .read(
                "evaluate",
                Some(json!({"expression": command, "context": "repl"})),
            )
            .map(|r| r.map(|b| json!({"exceptionId": "", "description": b["result"]})))
            .boxed(),
        None => client
            .read("exceptionInfo", Some(json!({"threadId": thread_id})))
            .boxed(),
    }
}
