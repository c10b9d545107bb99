//! The MCP tools: each one a thin translation into a session command, plus
//! waiting for the event that completes it.

use std::time::Duration;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};

use super::format::{self, breakpoint_line, err, ok, var_line};
use super::params::*;
use super::view::Views;
use crate::session::handle::WaitOutcome;
use crate::session::validate::{self, Workspace};
use crate::session::{
    BreakpointRequest, BreakpointSelector, Command, LaunchRequest, Origin, Registry, Reply,
    RunState, SessionError, SessionHandle, StepKind, VariablesQuery,
};
use crate::viewport::render_json;

pub const INSTRUCTIONS: &str = "\
pairdbg drives a live debugger. Workflow:
1. debug_launch {program, breakpoints:[{file,line}]} runs to the first stop and returns the viewport: location, stack, source, locals, watches.
2. Move with debug_step {kind: over|into|out}, debug_continue, debug_run_to {file,line}; each returns the next viewport, or the exit code and last output.
3. Inspect with debug_evaluate {expression}, debug_variables {expand:\"obj.attr\"}, debug_watch {add:[...]}. Set viewport_config {diff_mode:true} to see only changes.
Paths are workspace-relative. Results end with [session · epoch]; if a person moved the program since your last call, the result says so first. Errors say what failed and the session's state.";

const DEFAULT_WAIT_MS: u64 = 30_000;
const DEFAULT_REQUEST_MS: u64 = 20_000;

#[derive(Clone)]
pub struct PairdbgServer {
    registry: Registry,
    views: Views,
    workspace: Workspace,
    tool_router: ToolRouter<Self>,
}

type ToolResult = Result<CallToolResult, rmcp::ErrorData>;

impl PairdbgServer {
    pub fn new(registry: Registry, workspace: Workspace) -> Self {
        let mut tool_router = Self::tool_router();
        for route in tool_router.map.values_mut() {
            let mut schema = serde_json::Value::Object((*route.attr.input_schema).clone());
            super::schema::compact(&mut schema);
            if let serde_json::Value::Object(m) = schema {
                route.attr.input_schema = std::sync::Arc::new(m);
            }
        }
        PairdbgServer {
            registry,
            views: Views::default(),
            workspace,
            tool_router,
        }
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    fn session(&self, id: Option<&str>) -> Result<SessionHandle, CallToolResult> {
        self.registry.get(id).map_err(|e| err(None, &e))
    }

    /// Sends a command and renders a failure with the session's state.
    async fn send(&self, s: &SessionHandle, cmd: Command) -> Result<Reply, CallToolResult> {
        s.send(Origin::Agent, cmd)
            .await
            .map_err(|e| err(Some(&s.snapshot()), &e))
    }

    async fn move_and_wait(
        &self,
        session_id: Option<String>,
        cmd: Command,
        timeout_ms: Option<u64>,
    ) -> ToolResult {
        let s = match self.session(session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let timeout = match validate::check_timeout(timeout_ms, DEFAULT_WAIT_MS) {
            Ok(t) => t,
            Err(e) => return Ok(err(Some(&s.snapshot()), &e)),
        };
        let stop_seq = match self.send(&s, cmd).await {
            Ok(Reply::Moved { stop_seq }) => stop_seq,
            Ok(_) => s.snapshot().stop_seq,
            Err(e) => return Ok(e),
        };
        let o = s.wait_for_stop(stop_seq, timeout).await;
        Ok(format::outcome(
            &self.views,
            &s,
            o,
            timeout.as_millis() as u64,
        ))
    }
}

fn to_breakpoint_request(b: BreakpointParam) -> BreakpointRequest {
    BreakpointRequest {
        file: b.file,
        line: b.line,
        condition: b.condition,
        hit_condition: b.hit_count.map(|h| h.as_condition()),
        log_message: b.log_message,
    }
}

#[tool_router]
impl PairdbgServer {
    #[tool(
        description = "Launch a program under the debugger and wait for the first stop or the exit; returns the viewport."
    )]
    async fn debug_launch(&self, Parameters(p): Parameters<LaunchParams>) -> ToolResult {
        if let Some(Err(e)) = p.viewport_config.as_ref().map(|c| c.validate()) {
            return Ok(err(None, &SessionError::State(e)));
        }
        let timeout = match validate::check_timeout(p.timeout_ms, DEFAULT_WAIT_MS) {
            Ok(t) => t,
            Err(e) => return Ok(err(None, &e)),
        };
        let request = LaunchRequest {
            program: p.program,
            module: p.module,
            args: p.args.unwrap_or_default(),
            cwd: p.cwd,
            env: p.env.unwrap_or_default().into_iter().collect(),
            language: p.language,
            python: p.python,
            stop_on_entry: p.stop_on_entry.unwrap_or(false),
            breakpoints: p
                .breakpoints
                .unwrap_or_default()
                .into_iter()
                .map(to_breakpoint_request)
                .collect(),
            exception_filters: p.exception_breakpoints,
        };
        let config =
            match request.validate(&self.workspace, Duration::from_millis(DEFAULT_REQUEST_MS)) {
                Ok(c) => c,
                Err(e) => return Ok(err(None, &e)),
            };
        let s = match self.registry.launch(config).await {
            Ok(s) => s,
            Err(e) => return Ok(err(None, &e)),
        };
        self.views
            .set_config(&s.id, p.viewport_config.unwrap_or_default());
        let o = s.wait_for_stop(0, timeout).await;
        let mut result = format::outcome(&self.views, &s, o, timeout.as_millis() as u64);
        // Prepend what the agent must know about the launch itself.
        let snap = s.snapshot();
        let mut preface: Vec<String> = snap.info.clone();
        for b in snap
            .breakpoints
            .iter()
            .filter(|b| !b.verified || b.bound_line.is_some_and(|l| l != b.line))
        {
            preface.push(format!("Breakpoint {}", breakpoint_line(&snap, b)));
        }
        if !preface.is_empty()
            && let Some(first) = result.content.first_mut()
            && let Some(t) = first.as_text()
        {
            let text = format!("{}\n{}", preface.join("\n"), t.text);
            *first = rmcp::model::ContentBlock::text(text);
        }
        Ok(result)
    }

    #[tool(description = "Continue to the next stop or the exit.")]
    async fn debug_continue(&self, Parameters(p): Parameters<WaitParams>) -> ToolResult {
        self.move_and_wait(p.session_id, Command::Continue, p.timeout_ms)
            .await
    }

    #[tool(description = "Step over, into or out, count times; returns the viewport.")]
    async fn debug_step(&self, Parameters(p): Parameters<StepParams>) -> ToolResult {
        let kind = match p.kind.unwrap_or(StepKindParam::Over) {
            StepKindParam::Over => StepKind::Over,
            StepKindParam::Into => StepKind::Into,
            StepKindParam::Out => StepKind::Out,
        };
        let count = p.count.unwrap_or(1);
        if count == 0 || count > 1000 {
            return Ok(err(
                None,
                &SessionError::invalid("count", format!("{count} is out of range; use 1 to 1000")),
            ));
        }
        self.move_and_wait(p.session_id, Command::Step { kind, count }, p.timeout_ms)
            .await
    }

    #[tool(description = "Run until a line is reached (or another stop).")]
    async fn debug_run_to(&self, Parameters(p): Parameters<RunToParams>) -> ToolResult {
        self.move_and_wait(
            p.session_id,
            Command::RunTo {
                file: p.file,
                line: p.line,
            },
            p.timeout_ms,
        )
        .await
    }

    #[tool(description = "Pause the running program; returns the viewport.")]
    async fn debug_pause(&self, Parameters(p): Parameters<WaitParams>) -> ToolResult {
        self.move_and_wait(p.session_id, Command::Pause, p.timeout_ms)
            .await
    }

    #[tool(description = "Restart the program with the same breakpoints; returns the first stop.")]
    async fn debug_restart(&self, Parameters(p): Parameters<WaitParams>) -> ToolResult {
        self.move_and_wait(p.session_id, Command::Restart, p.timeout_ms)
            .await
    }

    #[tool(description = "Wait for the next stop or the exit without moving execution.")]
    async fn debug_wait(&self, Parameters(p): Parameters<WaitParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let timeout = match validate::check_timeout(p.timeout_ms, DEFAULT_WAIT_MS) {
            Ok(t) => t,
            Err(e) => return Ok(err(Some(&s.snapshot()), &e)),
        };
        let snap = s.snapshot();
        let after = if snap.state == RunState::Stopped {
            snap.stop_seq - 1
        } else {
            snap.stop_seq
        };
        let o = s.wait_for_stop(after, timeout).await;
        Ok(format::outcome(
            &self.views,
            &s,
            o,
            timeout.as_millis() as u64,
        ))
    }

    #[tool(description = "The current viewport (text or json), without moving.")]
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
        let snap = s.snapshot();
        let body = match p.format.unwrap_or_default() {
            Format::Text => self.views.viewport(&snap),
            Format::Json => {
                let mut v = render_json(&snap, &self.views.config(&s.id));
                v["epoch"] = snap.epoch.into();
                serde_json::to_string(&v).unwrap_or_default()
            }
        };
        Ok(ok(&self.views, &snap, body))
    }

    #[tool(description = "The call stack of the stopped thread.")]
    async fn debug_stack(&self, Parameters(p): Parameters<StackParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let levels = p.levels.unwrap_or(20).clamp(1, 1000);
        match self.send(&s, Command::Stack { levels }).await {
            Ok(Reply::Frames { frames, total }) => {
                let snap = s.snapshot();
                let mut body = format!("Call Stack ({} of {total} frames):\n", frames.len());
                for (i, f) in frames.iter().enumerate() {
                    let file = f
                        .file
                        .as_deref()
                        .map(|p| snap.display_path(p))
                        .unwrap_or_default();
                    body.push_str(&format!("  #{i} {file}:{} {}\n", f.line, f.name));
                }
                Ok(ok(&self.views, &snap, body))
            }
            Ok(_) => Ok(err(Some(&s.snapshot()), &SessionError::Gone)),
            Err(e) => Ok(e),
        }
    }

    #[tool(
        description = "List variables of a frame's scope, or expand a path such as cart.items; paged."
    )]
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
        let start = p.start.unwrap_or(0);
        let q = VariablesQuery {
            frame_index: p.frame_index.unwrap_or(0),
            scope: p.scope,
            path: p.expand.clone(),
            filter: p.filter,
            start,
            count,
        };
        match self.send(&s, Command::Variables(q)).await {
            Ok(Reply::Variables { vars, total }) => {
                let snap = s.snapshot();
                let what = p.expand.as_deref().unwrap_or("locals");
                let mut body = format!(
                    "{what} ({}–{} of {total}):\n",
                    start.min(total),
                    (start + vars.len()).min(total)
                );
                for v in &vars {
                    body.push_str(&var_line(v, p.expand.as_deref()));
                    body.push('\n');
                }
                if start + vars.len() < total {
                    body.push_str(&format!("  (more: start={})\n", start + vars.len()));
                }
                Ok(ok(&self.views, &snap, body))
            }
            Ok(_) => Ok(err(Some(&s.snapshot()), &SessionError::Gone)),
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "Evaluate an expression in a frame (default: top).")]
    async fn debug_evaluate(&self, Parameters(p): Parameters<EvaluateParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let cmd = Command::Evaluate {
            expression: p.expression.clone(),
            frame_index: p.frame_index.unwrap_or(0),
        };
        match self.send(&s, cmd).await {
            Ok(Reply::Value(v)) => {
                let mut body = var_line(&v, None).trim_start().to_string();
                if v.truncated {
                    body.push_str("\n(value truncated)");
                }
                Ok(ok(&self.views, &s.snapshot(), body))
            }
            Ok(_) => Ok(err(Some(&s.snapshot()), &SessionError::Gone)),
            Err(e) => Ok(e),
        }
    }

    #[tool(
        description = "Set a variable (or a path like cart.items[0].price) to an expression's value."
    )]
    async fn debug_set_variable(&self, Parameters(p): Parameters<SetVariableParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let cmd = Command::SetVariable {
            path: p.name,
            value: p.value,
            frame_index: p.frame_index.unwrap_or(0),
        };
        match self.send(&s, cmd).await {
            Ok(Reply::Value(v)) => Ok(ok(
                &self.views,
                &s.snapshot(),
                format!("{} = {}", v.name, v.value),
            )),
            Ok(_) => Ok(err(Some(&s.snapshot()), &SessionError::Gone)),
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "Show source lines around a line of a file.")]
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
            None => Ok(CallToolResult::success(vec![
                rmcp::model::ContentBlock::text(body),
            ])),
        }
    }

    #[tool(description = "Program output (stdout; stderr lines marked) from a cursor.")]
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
        let r = s.read_output(p.since.unwrap_or(0), max);
        let mut body = String::new();
        if r.dropped > 0 {
            body.push_str(&format!(
                "({} older bytes were dropped: the buffer keeps the last 10 MB)\n",
                r.dropped
            ));
        }
        body.push_str(&r.text);
        if !body.ends_with('\n') {
            body.push('\n');
        }
        body.push_str(&format!(
            "(next since={}{})",
            r.next,
            if r.more { ", more available" } else { "" }
        ));
        Ok(ok(&self.views, &s.snapshot(), body))
    }

    #[tool(description = "List the program's threads.")]
    async fn debug_threads(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        match self.send(&s, Command::Threads).await {
            Ok(Reply::Threads(ts)) => {
                let body = ts
                    .iter()
                    .map(|(id, n)| format!("  {id}: {n}"))
                    .collect::<Vec<_>>()
                    .join("\n");
                Ok(ok(&self.views, &s.snapshot(), format!("Threads:\n{body}")))
            }
            Ok(_) => Ok(err(Some(&s.snapshot()), &SessionError::Gone)),
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "Add or remove watch expressions, evaluated at every stop.")]
    async fn debug_watch(&self, Parameters(p): Parameters<WatchParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let cmd = Command::Watch {
            add: p.add.unwrap_or_default(),
            remove: p.remove.unwrap_or_default(),
        };
        if let Err(e) = self.send(&s, cmd).await {
            return Ok(e);
        }
        let snap = s.snapshot();
        let list = snap
            .watches
            .iter()
            .map(|w| format!("  {}", w.expression))
            .collect::<Vec<_>>()
            .join("\n");
        Ok(ok(
            &self.views,
            &snap,
            format!("Watches (values show in the viewport):\n{list}"),
        ))
    }

    #[tool(description = "List debug sessions.")]
    async fn debug_sessions(&self) -> ToolResult {
        let (list, current) = self.registry.list();
        let mut body = String::from("Sessions:\n");
        for s in &list {
            let snap = s.snapshot();
            let mark = if current.as_deref() == Some(&s.id) {
                "*"
            } else {
                " "
            };
            body.push_str(&format!(
                "{mark} {} {} {} (epoch {})\n",
                s.id,
                snap.program,
                snap.state.describe(),
                snap.epoch
            ));
        }
        if list.is_empty() {
            body.push_str("  (none; start one with debug_launch)\n");
        }
        Ok(CallToolResult::success(vec![
            rmcp::model::ContentBlock::text(body),
        ]))
    }

    #[tool(description = "Terminate the program and end the session.")]
    async fn debug_terminate(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let _ = s.send(Origin::Agent, Command::Terminate).await;
        let snap = s.snapshot();
        self.registry.remove(&s.id);
        self.views.forget(&s.id);
        Ok(ok(
            &self.views,
            &snap,
            format!("Session {} ended. {}", s.id, snap.state_sentence()),
        ))
    }

    #[tool(description = "Set a line breakpoint (condition, hit_count, log_message optional).")]
    async fn breakpoint_set(&self, Parameters(p): Parameters<BreakpointSetParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        match self
            .send(
                &s,
                Command::SetBreakpoint(to_breakpoint_request(p.breakpoint)),
            )
            .await
        {
            Ok(Reply::Breakpoint(b)) => {
                let snap = s.snapshot();
                Ok(ok(
                    &self.views,
                    &snap,
                    format!("Breakpoint {}", breakpoint_line(&snap, &b)),
                ))
            }
            Ok(_) => Ok(err(Some(&s.snapshot()), &SessionError::Gone)),
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "Remove a breakpoint by id, or by file and line.")]
    async fn breakpoint_remove(
        &self,
        Parameters(p): Parameters<BreakpointRemoveParams>,
    ) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let sel = match (p.id, p.file, p.line) {
            (Some(id), _, _) => BreakpointSelector::Id(id),
            (None, Some(file), Some(line)) => BreakpointSelector::Location { file, line },
            _ => {
                return Ok(err(
                    Some(&s.snapshot()),
                    &SessionError::invalid("id", "give id, or file and line"),
                ));
            }
        };
        match self.send(&s, Command::RemoveBreakpoint(sel)).await {
            Ok(Reply::Removed(bs)) => {
                let snap = s.snapshot();
                let body = bs
                    .iter()
                    .map(|b| format!("Removed {}", breakpoint_line(&snap, b)))
                    .collect::<Vec<_>>()
                    .join("\n");
                Ok(ok(&self.views, &snap, body))
            }
            Ok(_) => Ok(err(Some(&s.snapshot()), &SessionError::Gone)),
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "List breakpoints and exception filters.")]
    async fn breakpoint_list(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let snap = s.snapshot();
        let mut body = String::from("Breakpoints:\n");
        for b in snap.breakpoints.iter().filter(|b| !b.temporary) {
            body.push_str(&format!("  {}\n", breakpoint_line(&snap, b)));
        }
        if snap.breakpoints.is_empty() {
            body.push_str("  (none)\n");
        }
        body.push_str(&format!(
            "Exception filters: {:?}\n",
            snap.exception_filters
        ));
        Ok(ok(&self.views, &snap, body))
    }

    #[tool(
        description = "Choose when exceptions stop the program: filters such as uncaught, raised."
    )]
    async fn breakpoint_set_exception(
        &self,
        Parameters(p): Parameters<ExceptionParams>,
    ) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        if let Err(e) = self.send(&s, Command::SetExceptionFilters(p.filters)).await {
            return Ok(e);
        }
        let snap = s.snapshot();
        let avail: Vec<String> = snap
            .available_exception_filters
            .iter()
            .map(|(f, l)| format!("{f} ({l})"))
            .collect();
        Ok(ok(
            &self.views,
            &snap,
            format!(
                "Exception filters: {:?}\nAvailable: {}",
                snap.exception_filters,
                avail.join(", ")
            ),
        ))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for PairdbgServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_instructions(INSTRUCTIONS)
    }
}

/// Used by tests and the launch result: a stop or exit that is already known.
pub fn is_final(o: &WaitOutcome) -> bool {
    !matches!(o, WaitOutcome::TimedOut(_))
}
