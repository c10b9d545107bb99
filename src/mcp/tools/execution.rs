//! Tools that start, move and end programs: each waits for the next stop
//! or the exit and answers with the viewport.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::{tool, tool_router};

use crate::mcp::format::{breakpoint_line, err, ok};
use crate::mcp::params::*;
use crate::mcp::server::{DEFAULT_WAIT_MS, PairdbgServer, ToolResult, to_breakpoint_request};
use crate::mcp::waiting;
use crate::session::validate;
use crate::session::{LaunchRequest, Origin, RunState, SessionError, StepKind};

#[tool_router(router = execution_router, vis = "pub(crate)")]
impl PairdbgServer {
    #[tool(description = "Launch and run to the first stop or exit.")]
    async fn debug_launch(&self, Parameters(p): Parameters<LaunchParams>) -> ToolResult {
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
            attach: None,
            just_my_code: p.just_my_code,
        };
        let s = match self.start_session(request, p.viewport_config).await {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let waited = waiting::long_wait(timeout, |d| s.wait_for_stop(0, d)).await;
        let mut result = waiting::result(&self.views, &s, waited, timeout.as_millis() as u64);
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
            *first = ContentBlock::text(text);
        }
        Ok(result)
    }

    #[tool(description = "Run to the next stop or exit.")]
    async fn debug_continue(&self, Parameters(p): Parameters<WaitParams>) -> ToolResult {
        self.move_and_wait(
            p.session_id,
            |s| async move { s.resume(Origin::Agent).await },
            p.timeout_ms,
        )
        .await
    }

    #[tool(description = "Step over, into or out.")]
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
        self.move_and_wait(
            p.session_id,
            |s| async move { s.step(Origin::Agent, kind, count).await },
            p.timeout_ms,
        )
        .await
    }

    #[tool(description = "Run to a line.")]
    async fn debug_run_to(&self, Parameters(p): Parameters<RunToParams>) -> ToolResult {
        self.move_and_wait(
            p.session_id,
            |s| async move { s.run_to(Origin::Agent, p.file, p.line).await },
            p.timeout_ms,
        )
        .await
    }

    #[tool(description = "Pause the program.")]
    async fn debug_pause(&self, Parameters(p): Parameters<WaitParams>) -> ToolResult {
        self.move_and_wait(
            p.session_id,
            |s| async move { s.pause(Origin::Agent).await },
            p.timeout_ms,
        )
        .await
    }

    #[tool(description = "Restart, breakpoints kept.")]
    async fn debug_restart(&self, Parameters(p): Parameters<WaitParams>) -> ToolResult {
        self.move_and_wait(
            p.session_id,
            |s| async move { s.restart(Origin::Agent).await },
            p.timeout_ms,
        )
        .await
    }

    #[tool(description = "Wait for a stop or exit.")]
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
        let waited = waiting::long_wait(timeout, |d| s.wait_for_stop(after, d)).await;
        Ok(waiting::result(
            &self.views,
            &s,
            waited,
            timeout.as_millis() as u64,
        ))
    }

    #[tool(description = "Attach to a process.")]
    async fn debug_attach(&self, Parameters(p): Parameters<AttachParams>) -> ToolResult {
        let timeout = match validate::check_timeout(p.timeout_ms, DEFAULT_WAIT_MS) {
            Ok(t) => t,
            Err(e) => return Ok(err(None, &e)),
        };
        let waits = p.breakpoints.as_ref().is_some_and(|b| !b.is_empty());
        let request = LaunchRequest {
            attach: Some(p.pid),
            language: p.language,
            breakpoints: p
                .breakpoints
                .unwrap_or_default()
                .into_iter()
                .map(to_breakpoint_request)
                .collect(),
            exception_filters: p.exception_breakpoints,
            just_my_code: p.just_my_code,
            ..Default::default()
        };
        let s = match self.start_session(request, None).await {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let waited = waiting::long_wait(timeout, |d| {
            let s = s.clone();
            async move {
                if waits {
                    s.wait_for_stop(0, d).await
                } else {
                    s.wait_attached(d).await
                }
            }
        })
        .await;
        Ok(waiting::result(
            &self.views,
            &s,
            waited,
            timeout.as_millis() as u64,
        ))
    }

    #[tool(description = "End the session; attached programs run on.")]
    async fn debug_terminate(&self, Parameters(p): Parameters<TerminateParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let attached = s.is_attached();
        if let Err(refused) = self.may_end(&s).await {
            return Ok(refused);
        }
        let _ = s.terminate(Origin::Agent).await;
        let snap = s.snapshot();
        self.registry.remove(&s.id);
        self.views.forget(&s.id);
        let end = match (attached, p.detach.unwrap_or(false)) {
            (true, _) => "The process was detached and keeps running.".to_string(),
            (false, true) => {
                "A launched program ends with its session; it was terminated.".to_string()
            }
            (false, false) => snap.state_sentence(),
        };
        Ok(ok(
            &self.views,
            &snap,
            format!("Session {} ended. {end}", s.id),
        ))
    }

    #[tool(description = "List sessions (any tool takes session_id).")]
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
            body.push_str("  (none; start one with debug_launch or debug_attach)\n");
        }
        Ok(CallToolResult::success(vec![ContentBlock::text(body)]))
    }
}
