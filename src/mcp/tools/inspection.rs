//! Tools that read (and set) program state without moving it.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{tool, tool_router};

use crate::agent::budget::{self, Fit};
use crate::agent::side_effects::Gate;
use crate::mcp::format::{VALUE_CHARS, err, names, ok, ok_fit, var_line, with_approval};
use crate::mcp::params::*;
use crate::mcp::server::{PairdbgServer, ToolResult};
use crate::session::output::{OUTPUT_CAP_BYTES, Speaker};
use crate::session::{SessionError, VariablesQuery};
use crate::viewport::frame_call;
use crate::viewport::{redact, render_json};

#[tool_router(router = inspection_router, vis = "pub(crate)")]
impl PairdbgServer {
    #[tool(description = "The current viewport.")]
    async fn debug_status(&self, Parameters(p): Parameters<StatusParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        if let Some(cfg) = p.viewport_config {
            if let Err(e) = cfg.validate() {
                return Ok(err(Some(&s.snapshot()), &SessionError::State(e)));
            }
            self.views.set_config(&s.id, cfg);
        }
        let bytes = match budget::check("max_tokens", p.max_tokens) {
            Ok(b) => b,
            Err(e) => return Ok(err(Some(&s.snapshot()), &e)),
        };
        let snap = s.snapshot();
        let body = match p.format.unwrap_or_default() {
            Format::Text => self.views.viewport_within(&snap, bytes, names()),
            Format::Json => {
                let shown = self.views.agent_snapshot(&snap);
                let mut v = render_json(&shown, &self.views.config(&s.id));
                v["epoch"] = snap.epoch.into();
                // Room for the epoch footer `ok` adds.
                match bytes {
                    Some(b) => budget::fit_json(
                        v,
                        b.saturating_sub(40),
                        snap.stop.as_ref().map_or(0, |s| s.locals.len()),
                        &names().more,
                    ),
                    None => serde_json::to_string(&v).unwrap_or_default(),
                }
            }
        };
        Ok(ok(&self.views, &snap, body))
    }

    #[tool(description = "The call stack.")]
    async fn debug_stack(&self, Parameters(p): Parameters<StackParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let levels = p.levels.unwrap_or(20).clamp(1, 1000);
        let bytes = match budget::check("max_tokens", p.max_tokens) {
            Ok(b) => b,
            Err(e) => return Ok(err(Some(&s.snapshot()), &e)),
        };
        let start = p.start.unwrap_or(0).min(100_000);
        match Self::checked(&s, s.stack(self.agent.origin, start + levels).await) {
            Ok((frames, total)) => {
                let snap = s.snapshot();
                let agent = self.views.agent_snapshot(&snap);
                let cfg = self.views.config(&snap.session_id);
                let shown = frames.len().saturating_sub(start);
                let mut body = match start {
                    0 => format!("Call Stack ({shown} of {total} frames):\n"),
                    _ => format!("Call Stack (from #{start}, {shown} of {total} frames):\n"),
                };
                for (i, f) in frames.iter().enumerate().skip(start) {
                    let file = f
                        .file
                        .as_deref()
                        .map(|p| snap.display_path(p))
                        .unwrap_or_default();
                    // Frames the stop has read show their arguments' values.
                    let call = match agent.stop.as_ref() {
                        Some(stop) if stop.frames.get(i).is_some_and(|g| g.id == f.id) => {
                            frame_call(stop, i, &cfg)
                        }
                        _ => f.name.clone(),
                    };
                    let mark = if f.external { " (not user code)" } else { "" };
                    body.push_str(&format!("  #{i} {file}:{} {call}{mark}\n", f.line));
                }
                // Line `i` of the body is frame `start + i - 1`.
                let fit = Fit::new(&body, 1, |i| {
                    let from = (start + i).saturating_sub(1);
                    format!(
                        "… {} more frames: debug_stack {{start: {from}}}",
                        total.saturating_sub(from)
                    )
                });
                Ok(ok_fit(&self.views, &snap, fit, bytes))
            }
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "List or expand variables, paged.")]
    async fn debug_variables(&self, Parameters(p): Parameters<VariablesParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let count = p.count.unwrap_or(50);
        if count == 0 || count > 500 {
            return Ok(err(
                Some(&s.snapshot()),
                &SessionError::invalid("count", format!("{count} is out of range; use 1 to 500")),
            ));
        }
        let approved = match self
            .side_effects_gate(
                &s,
                Gate {
                    tool: "debug_variables",
                    field: "expand",
                    expressions: &[p.expand.as_deref().unwrap_or_default()],
                    frame_index: p.frame_index.unwrap_or(0),
                    allow: p.allow_side_effects,
                    timeout: std::time::Duration::from_millis(crate::mcp::server::DEFAULT_WAIT_MS),
                },
            )
            .await
        {
            Ok(a) => a,
            Err(refusal) => return Ok(refusal),
        };
        let start = p.start.unwrap_or(0);
        let bytes = match budget::check("max_tokens", p.max_tokens) {
            Ok(b) => b,
            Err(e) => return Ok(err(Some(&s.snapshot()), &e)),
        };
        let again = super::handles::variables_args(&p);
        let q = VariablesQuery {
            frame_index: p.frame_index.unwrap_or(0),
            scope: p.scope,
            path: p.expand.clone(),
            filter: p.filter,
            start,
            count,
        };
        match Self::checked(&s, s.variables(self.agent.origin, q).await) {
            Ok((mut vars, total)) => {
                let snap = s.snapshot();
                if self.views.redacts() {
                    let under = p.expand.as_deref().is_some_and(redact::path_is_secret);
                    redact::vars(&mut vars, under, &snap.taint);
                }
                let what = p.expand.as_deref().unwrap_or("locals");
                let mut body = format!(
                    "{what} ({}–{} of {total}):\n",
                    start.min(total),
                    (start + vars.len()).min(total)
                );
                for v in &vars {
                    body.push_str(&var_line(v, p.expand.as_deref(), VALUE_CHARS));
                    body.push('\n');
                }
                if start + vars.len() < total {
                    body.push_str(&format!("  (more: start={})\n", start + vars.len()));
                }
                // Line `i` of the body is item `start + i - 1`.
                let fit = Fit::new(&body, 1, |i| {
                    let from = (start + i).saturating_sub(1).min(start + vars.len());
                    format!(
                        "… {} more {what}: debug_variables {{{again}start: {from}}}",
                        total.saturating_sub(from)
                    )
                });
                Ok(with_approval(
                    ok_fit(&self.views, &snap, fit, bytes),
                    approved,
                ))
            }
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "Evaluate an expression.")]
    async fn debug_evaluate(&self, Parameters(p): Parameters<EvaluateParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let max = p.max_length.unwrap_or(VALUE_CHARS);
        if max == 0 || max > OUTPUT_CAP_BYTES {
            return Ok(err(
                Some(&s.snapshot()),
                &SessionError::invalid(
                    "max_length",
                    format!("{max} is out of range; use 1 to {OUTPUT_CAP_BYTES}"),
                ),
            ));
        }
        let bytes = match budget::check("max_tokens", p.max_tokens) {
            Ok(b) => b,
            Err(e) => return Ok(err(Some(&s.snapshot()), &e)),
        };
        // Room for the name, the type and the footer around the value.
        let max = bytes.map_or(max, |b| max.min(b.saturating_sub(160).max(16)));
        let approved = match self
            .side_effects_gate(
                &s,
                Gate {
                    tool: "debug_evaluate",
                    field: "expression",
                    expressions: &[p.expression.as_str()],
                    frame_index: p.frame_index.unwrap_or(0),
                    allow: p.allow_side_effects,
                    timeout: std::time::Duration::from_millis(crate::mcp::server::DEFAULT_WAIT_MS),
                },
            )
            .await
        {
            Ok(a) => a,
            Err(refusal) => return Ok(refusal),
        };
        let whole = max > VALUE_CHARS;
        let res = s
            .evaluate_value(
                self.agent.origin,
                p.expression,
                p.frame_index.unwrap_or(0),
                whole,
            )
            .await;
        match Self::checked(&s, res) {
            Ok(mut v) => {
                if self.views.redacts() {
                    redact::var(&mut v, false, &s.taint());
                }
                // A statement (`x = 1`) runs and has no value.
                let mut body = if v.value.is_empty() && v.type_name.is_empty() {
                    format!("Executed: {}", v.name)
                } else {
                    var_line(&v, None, max).trim_start().to_string()
                };
                if v.truncated {
                    body.push_str("\n(value truncated)");
                }
                let fit = Fit::new(&body, 0, |_| {
                    "… cut to fit max_tokens: ask with more, or debug_variables {expand}".into()
                });
                Ok(with_approval(
                    ok_fit(&self.views, &s.snapshot(), fit, bytes),
                    approved,
                ))
            }
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "Set a variable or path.")]
    async fn debug_set_variable(&self, Parameters(p): Parameters<SetVariableParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let res = s
            .set_variable(
                self.agent.origin,
                p.name,
                p.value,
                p.frame_index.unwrap_or(0),
            )
            .await;
        match Self::checked(&s, res) {
            // The new value as every view shows values: from its tree.
            Ok(v) => Ok(ok(
                &self.views,
                &s.snapshot(),
                format!(
                    "{} = {}",
                    v.name,
                    crate::viewport::value::render(&v, &self.views.config(&s.id), 0)
                ),
            )),
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "Source lines around a line.")]
    async fn debug_source(&self, Parameters(p): Parameters<SourceParams>) -> ToolResult {
        let snap = self
            .registry
            .get(p.session_id.as_deref())
            .ok()
            .map(|s| s.snapshot());
        let top = snap
            .as_ref()
            .and_then(|s| s.stop.as_ref())
            .and_then(|st| st.frames.first())
            .cloned();
        let path = match (&p.file, &top) {
            (Some(f), _) => match self.workspace.resolve_file("file", f) {
                Ok(p) => p,
                Err(e) => return Ok(err(snap.as_deref(), &e)),
            },
            (None, Some(f)) if f.file.is_some() => f.file.clone().unwrap_or_default(),
            _ => {
                return Ok(err(
                    snap.as_deref(),
                    &SessionError::invalid("file", "give a file; there is no current stop"),
                ));
            }
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                return Ok(err(
                    snap.as_deref(),
                    &SessionError::invalid("file", format!("cannot read it: {e}")),
                ));
            }
        };
        let lines: Vec<&str> = text.lines().collect();
        let current = top
            .as_ref()
            .filter(|f| f.file.as_deref() == Some(&path))
            .map(|f| f.line as i64);
        let center = p.line.or(current).unwrap_or(1);
        if center < 1 || center as usize > lines.len().max(1) {
            return Ok(err(
                snap.as_deref(),
                &SessionError::invalid(
                    "line",
                    format!(
                        "line {center} is outside the file, which has {} lines",
                        lines.len()
                    ),
                ),
            ));
        }
        let ctx = p.context.unwrap_or(10).min(200) as i64;
        let start = (center - ctx).max(1) as usize;
        let end = ((center + ctx) as usize).min(lines.len());
        let w = end.to_string().len();
        let shown = path
            .strip_prefix(&self.workspace.root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let mut body = format!("{shown} ({start}–{end}):\n");
        for n in start..=end {
            let mark = if Some(n as i64) == current {
                "→"
            } else {
                " "
            };
            body.push_str(&format!(" {mark}{n:>w$}│ {}\n", lines[n - 1]));
        }
        match snap {
            Some(snap) => Ok(ok(&self.views, &snap, body)),
            None => Ok(CallToolResult::success(vec![ContentBlock::text(body)])),
        }
    }

    #[tool(description = "Program output from a cursor.")]
    async fn debug_output(&self, Parameters(p): Parameters<OutputParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let max = p.max_bytes.unwrap_or(8192);
        if max == 0 || max > 1_000_000 {
            return Ok(err(
                Some(&s.snapshot()),
                &SessionError::invalid(
                    "max_bytes",
                    format!("{max} is out of range; use 1 to 1000000"),
                ),
            ));
        }
        let max = match budget::check("max_tokens", p.max_tokens) {
            // The cursor line and the footer need room too.
            Ok(b) => b.map_or(max, |b| max.min(b.saturating_sub(160).max(1))),
            Err(e) => return Ok(err(Some(&s.snapshot()), &e)),
        };
        let speaker = match p.stream.as_deref() {
            None | Some("program") => Speaker::Program,
            Some("debugger") => Speaker::Debugger,
            Some("build") => Speaker::Build,
            Some("trace") => return Ok(self.trace_output(&s, p.since.unwrap_or(0), max)),
            Some(other) => {
                return Ok(err(
                    Some(&s.snapshot()),
                    &SessionError::invalid(
                        "stream",
                        format!(
                            "{other:?} is not a stream; use \"program\", \"debugger\", \"build\" or \"trace\""
                        ),
                    ),
                ));
            }
        };
        let (runs, range) = s.output_run(speaker, p.run);
        let all = p.all.unwrap_or(false);
        let Some((run_start, run_end)) = range else {
            return Ok(err(
                Some(&s.snapshot()),
                &SessionError::invalid(
                    "run",
                    format!(
                        "{} is not a run; use 1 to {runs}",
                        p.run.unwrap_or_default()
                    ),
                ),
            ));
        };
        if all && p.run.is_some() {
            return Ok(err(
                Some(&s.snapshot()),
                &SessionError::invalid("all", "pass either run or all: true, not both"),
            ));
        }
        // An agent that kept its cursor across a restart reads on from it;
        // one without a cursor reads the run it asked for, the current one
        // by default.
        let (since, until) = match (p.since, all) {
            (_, true) => (p.since.unwrap_or(0), u64::MAX),
            (Some(since), false) if p.run.is_none() => (since, u64::MAX),
            (Some(since), false) => (since.max(run_start), run_end),
            (None, false) => (run_start, run_end),
        };
        let r = s.read_output_runs(speaker, since, until, max);
        let mut body = String::new();
        if r.dropped > 0 {
            body.push_str(&format!(
                "({} older bytes were dropped: the buffer keeps the last 10 MB)\n",
                r.dropped
            ));
        }
        body.push_str(&self.views.agent_text(&s.taint(), &r.text));
        if !body.ends_with('\n') {
            body.push('\n');
        }
        let earlier = if runs > 1 && !all && p.since.is_none() && p.run.is_none() {
            format!(
                "; run {runs}, earlier runs: run 1 to {} or all: true",
                runs - 1
            )
        } else {
            String::new()
        };
        body.push_str(&format!(
            "(next since={}{}{earlier})",
            r.next,
            if r.more { ", more available" } else { "" }
        ));
        Ok(ok(&self.views, &s.snapshot(), body))
    }

    #[tool(description = "List threads, or select one.")]
    async fn debug_threads(&self, Parameters(p): Parameters<ThreadsParams>) -> ToolResult {
        if let Some(id) = p.select {
            let origin = self.agent.origin;
            let child = p.child;
            let moved = self
                .agent
                .move_and_wait(
                    p.session_id.as_deref(),
                    move |s| async move { s.select_thread_in(origin, child, id).await },
                    p.timeout_ms,
                )
                .await;
            return self.moved(moved);
        }
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        match Self::checked(&s, s.threads(self.agent.origin).await) {
            Ok(ts) => {
                let snap = s.snapshot();
                let body = crate::viewport::threads::listing(&ts, snap.stop.as_ref());
                Ok(ok(&self.views, &snap, format!("Threads:\n{body}")))
            }
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "Add or remove watches.")]
    async fn debug_watch(&self, Parameters(p): Parameters<WatchParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let added: Vec<&str> = p.add.iter().flatten().map(String::as_str).collect();
        let approved = match self
            .side_effects_gate(
                &s,
                Gate {
                    tool: "debug_watch",
                    field: "add",
                    expressions: &added,
                    frame_index: 0,
                    allow: p.allow_side_effects,
                    timeout: std::time::Duration::from_millis(crate::mcp::server::DEFAULT_WAIT_MS),
                },
            )
            .await
        {
            Ok(a) => a,
            Err(refusal) => return Ok(refusal),
        };
        let res = s
            .watch(
                self.agent.origin,
                p.add.unwrap_or_default(),
                p.remove.unwrap_or_default(),
            )
            .await;
        if let Err(e) = Self::checked(&s, res) {
            return Ok(e);
        }
        let snap = s.snapshot();
        let list = snap
            .watches
            .iter()
            .map(|w| format!("  {}", w.expression))
            .collect::<Vec<_>>()
            .join("\n");
        Ok(with_approval(
            ok(
                &self.views,
                &snap,
                format!("Watches (values show in the viewport):\n{list}"),
            ),
            approved,
        ))
    }

    #[tool(description = "Leave the person a note.")]
    async fn debug_note(&self, Parameters(p): Parameters<NoteParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let text = p.text.trim().to_string();
        if text.is_empty() || text.chars().count() > 2000 {
            return Ok(err(
                Some(&s.snapshot()),
                &SessionError::invalid("text", "give 1 to 2000 characters"),
            ));
        }
        if let Err(e) = Self::checked(&s, s.note(self.agent.origin, text).await) {
            return Ok(e);
        }
        Ok(ok(
            &self.views,
            &s.snapshot(),
            "Noted; the person sees it in the activity pane.".into(),
        ))
    }
}
