//! Tools that start, move and end programs: each waits for the next stop
//! or the exit and answers with the viewport.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

use crate::agent::moves::Move;
use crate::mcp::format::result;
use crate::mcp::params::*;
use crate::mcp::server::{PairdbgServer, ToolResult, to_breakpoint_request};
use crate::session::build::BuildRequest;
use crate::session::recording::BackMove;
use crate::session::remote::RemoteRequest;
use crate::session::{LaunchRequest, StepKind};

#[tool_router(router = execution_router, vis = "pub(crate)")]
impl PairdbgServer {
    #[tool(description = "Launch; run to the first stop or exit.")]
    async fn debug_launch(&self, Parameters(p): Parameters<LaunchParams>) -> ToolResult {
        let request = LaunchRequest {
            program: p.program,
            module: p.module,
            args: p.args.unwrap_or_default(),
            cwd: p.cwd,
            env: p.env.unwrap_or_default().into_iter().collect(),
            language: p.language,
            adapter: p.adapter,
            python: p.python,
            stop_on_entry: p.stop_on_entry.unwrap_or(false),
            breakpoints: p
                .breakpoints
                .unwrap_or_default()
                .into_iter()
                .map(to_breakpoint_request)
                .collect(),
            exception_filters: p.exception_breakpoints,
            just_my_code: p.just_my_code,
            subprocesses: p.subprocesses,
            core: p.core,
            // The caller's wait is the build's deadline too.
            build: p.build.map(|b| BuildRequest {
                timeout: p.timeout_ms.map(std::time::Duration::from_millis),
                ..BuildRequest::shell("build", &b)
            }),
            ..Default::default()
        };
        self.moved(
            self.agent
                .launch(request, p.viewport_config, p.timeout_ms)
                .await,
        )
    }

    #[tool(description = "Run to the next stop or exit (back: the previous).")]
    async fn debug_continue(&self, Parameters(p): Parameters<ContinueParams>) -> ToolResult {
        let mv = match p.direction {
            Some(DirectionParam::Back) => Move::Back(BackMove::Continue),
            _ => Move::Resume,
        };
        self.moved(
            self.agent
                .go(p.session_id.as_deref(), mv, p.timeout_ms)
                .await,
        )
    }

    #[tool(description = "Step; back kinds after debug_record.")]
    async fn debug_step(&self, Parameters(p): Parameters<StepParams>) -> ToolResult {
        let kind = match p.kind.unwrap_or(StepKindParam::Over) {
            StepKindParam::Over => StepKind::Over,
            StepKindParam::Into => StepKind::Into,
            StepKindParam::Out => StepKind::Out,
            back => return self.step_back(back, p).await,
        };
        let count = p.count.unwrap_or(1);
        self.moved(
            self.agent
                .go(
                    p.session_id.as_deref(),
                    Move::Step { kind, count },
                    p.timeout_ms,
                )
                .await,
        )
    }

    #[tool(description = "gdb: record from here to go back.")]
    async fn debug_record(&self, Parameters(p): Parameters<RecordParams>) -> ToolResult {
        Ok(result(
            self.agent
                .record(p.session_id.as_deref(), p.on, p.max_instructions)
                .await,
        ))
    }

    #[tool(description = "Run to a line.")]
    async fn debug_run_to(&self, Parameters(p): Parameters<RunToParams>) -> ToolResult {
        self.moved(
            self.agent
                .go(
                    p.session_id.as_deref(),
                    Move::RunTo {
                        file: p.file,
                        line: p.line,
                    },
                    p.timeout_ms,
                )
                .await,
        )
    }

    #[tool(description = "Pause the program.")]
    async fn debug_pause(&self, Parameters(p): Parameters<PauseParams>) -> ToolResult {
        let mv = Move::Pause { child: p.child };
        self.moved(
            self.agent
                .go(p.session_id.as_deref(), mv, p.timeout_ms)
                .await,
        )
    }

    #[tool(description = "Restart, breakpoints kept.")]
    async fn debug_restart(&self, Parameters(p): Parameters<WaitParams>) -> ToolResult {
        self.moved(
            self.agent
                .go(p.session_id.as_deref(), Move::Restart, p.timeout_ms)
                .await,
        )
    }

    #[tool(description = "Wait for a stop or exit.")]
    async fn debug_wait(&self, Parameters(p): Parameters<WaitParams>) -> ToolResult {
        self.moved(self.agent.wait(p.session_id.as_deref(), p.timeout_ms).await)
    }

    #[tool(description = "Attach: pid, or host+port+language (native: program).")]
    async fn debug_attach(&self, Parameters(p): Parameters<AttachParams>) -> ToolResult {
        let request = LaunchRequest {
            attach: p.pid,
            remote: RemoteRequest {
                host: p.host,
                port: p.port,
                path_mappings: p
                    .path_mappings
                    .unwrap_or_default()
                    .into_iter()
                    .map(|m| (m.local, m.remote))
                    .collect(),
            },
            program: p.program,
            terminate_debuggee: p.terminate_debuggee,
            language: p.language,
            adapter: p.adapter,
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
        self.moved(self.agent.attach(request, p.timeout_ms).await)
    }

    #[tool(description = "End the session; attached programs run on.")]
    async fn debug_terminate(&self, Parameters(p): Parameters<TerminateParams>) -> ToolResult {
        let detach = p.detach.unwrap_or(false);
        let ends = p.terminate_debuggee.unwrap_or(false);
        Ok(result(
            self.agent
                .terminate(p.session_id.as_deref(), detach, ends)
                .await,
        ))
    }

    #[tool(description = "List sessions (any tool takes session_id).")]
    async fn debug_sessions(&self) -> ToolResult {
        Ok(result(self.agent.sessions()))
    }
}

impl PairdbgServer {
    /// One step back; a count is refused, as each step back is a stop to read.
    async fn step_back(&self, kind: StepKindParam, p: StepParams) -> ToolResult {
        let mv = match kind {
            StepKindParam::BackInto => BackMove::Into,
            StepKindParam::BackOut => BackMove::Out,
            _ => BackMove::Over,
        };
        if let Some(n) = p.count.filter(|n| *n != 1) {
            return Ok(result(crate::agent::Reply::error(format!(
                "count: {n} is out of range for a step back; steps back go one at a time (count 1)"
            ))));
        }
        self.moved(
            self.agent
                .go(p.session_id.as_deref(), Move::Back(mv), p.timeout_ms)
                .await,
        )
    }
}
