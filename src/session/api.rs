//! The typed face of a session: one method per command, each with its own
//! result, so controllers never match replies a command cannot give.

use super::ControlMode;
use super::command::{
    BreakpointSelector, BreakpointUpdate, Command, ExceptionTypeRequest, Reply, StepKind,
    VariablesQuery,
};
use super::config::BreakpointRequest;
use super::error::SessionError;
use super::handle::SessionHandle;
use super::types::{Breakpoint, ExceptionBreakpoint, Frame, Origin, Var};

/// A breakpoint of either family, as enabling one answers.
#[derive(Debug, Clone)]
pub enum AnyBreakpoint {
    Line(Box<Breakpoint>),
    Exception(ExceptionBreakpoint),
}

type Result<T> = std::result::Result<T, SessionError>;

/// The most instructions a recording may be told to keep: each costs the
/// debugger tens of bytes.
pub const MAX_RECORDED: u64 = 100_000_000;

/// The stop count when a move was applied: a waiter wants a stop after it.
pub type StopSeq = u64;

/// A reply the engine never gives to this command; a bug, reported rather
/// than panicked on.
fn unexpected(r: Reply) -> SessionError {
    SessionError::State(format!("the engine gave an unexpected answer: {r:?}"))
}

fn moved(r: Reply) -> Result<StopSeq> {
    match r {
        Reply::Moved { stop_seq } => Ok(stop_seq),
        other => Err(unexpected(other)),
    }
}

fn done(r: Reply) -> Result<()> {
    match r {
        Reply::Done => Ok(()),
        other => Err(unexpected(other)),
    }
}

fn value(r: Reply) -> Result<Var> {
    match r {
        Reply::Value(v) => Ok(v),
        other => Err(unexpected(other)),
    }
}

fn breakpoint(r: Reply) -> Result<Breakpoint> {
    match r {
        Reply::Breakpoint(b) => Ok(b),
        other => Err(unexpected(other)),
    }
}

impl SessionHandle {
    pub async fn resume(&self, origin: Origin) -> Result<StopSeq> {
        moved(self.send(origin, Command::Continue).await?)
    }

    pub async fn step(&self, origin: Origin, kind: StepKind, count: u32) -> Result<StopSeq> {
        moved(self.send(origin, Command::Step { kind, count }).await?)
    }

    /// Starts or stops recording the program, at a stop; `limit` caps the
    /// instructions the recording keeps.
    pub async fn record(&self, origin: Origin, on: bool, limit: Option<u64>) -> Result<()> {
        if let Some(n) = limit
            && !(1..=MAX_RECORDED).contains(&n)
        {
            return Err(SessionError::invalid(
                "max_instructions",
                format!("{n} is out of range; use 1 to {MAX_RECORDED}"),
            ));
        }
        done(self.send(origin, Command::Record { on, limit }).await?)
    }

    /// Runs the program backwards through its recording.
    pub async fn step_back(
        &self,
        origin: Origin,
        mv: super::recording::BackMove,
    ) -> Result<StopSeq> {
        moved(self.send(origin, Command::Back(mv)).await?)
    }

    pub async fn run_to(&self, origin: Origin, file: String, line: i64) -> Result<StopSeq> {
        moved(self.send(origin, Command::RunTo { file, line }).await?)
    }

    pub async fn pause(&self, origin: Origin) -> Result<StopSeq> {
        moved(self.send(origin, Command::Pause(None)).await?)
    }

    /// Pauses the process numbered `child` in the threads listing.
    pub async fn pause_child(&self, origin: Origin, child: Option<u32>) -> Result<StopSeq> {
        moved(self.send(origin, Command::Pause(child)).await?)
    }

    pub async fn restart(&self, origin: Origin) -> Result<StopSeq> {
        moved(self.send(origin, Command::Restart).await?)
    }

    /// Shows, and steps, another thread of the stopped program.
    pub async fn select_thread(&self, origin: Origin, thread_id: i64) -> Result<StopSeq> {
        self.select_thread_in(origin, None, thread_id).await
    }

    /// Shows a thread of the process numbered `child` in the threads listing.
    pub async fn select_thread_in(
        &self,
        origin: Origin,
        child: Option<u32>,
        thread: i64,
    ) -> Result<StopSeq> {
        moved(
            self.send(origin, Command::SelectThread { child, thread })
                .await?,
        )
    }

    pub async fn set_breakpoint(
        &self,
        origin: Origin,
        request: BreakpointRequest,
    ) -> Result<Breakpoint> {
        breakpoint(self.send(origin, Command::SetBreakpoint(request)).await?)
    }

    /// The breakpoints removed.
    pub async fn remove_breakpoint(
        &self,
        origin: Origin,
        selector: BreakpointSelector,
    ) -> Result<(Vec<Breakpoint>, Vec<ExceptionBreakpoint>)> {
        match self
            .send(origin, Command::RemoveBreakpoint(selector))
            .await?
        {
            Reply::Removed(b, x) => Ok((b, x)),
            other => Err(unexpected(other)),
        }
    }

    /// Keeps a breakpoint, line or exception, but stops it firing (or lets it again).
    pub async fn enable_breakpoint(
        &self,
        origin: Origin,
        id: u64,
        enabled: bool,
    ) -> Result<AnyBreakpoint> {
        let update = BreakpointUpdate {
            id,
            enabled: Some(enabled),
            ..Default::default()
        };
        match self.send(origin, Command::UpdateBreakpoint(update)).await? {
            Reply::Breakpoint(b) => Ok(AnyBreakpoint::Line(Box::new(b))),
            Reply::Exception(x) => Ok(AnyBreakpoint::Exception(x)),
            other => Err(unexpected(other)),
        }
    }

    pub async fn set_exception_type(
        &self,
        origin: Origin,
        request: ExceptionTypeRequest,
    ) -> Result<ExceptionBreakpoint> {
        match self
            .send(origin, Command::SetExceptionType(request))
            .await?
        {
            Reply::Exception(x) => Ok(x),
            other => Err(unexpected(other)),
        }
    }

    pub async fn update_breakpoint(
        &self,
        origin: Origin,
        update: BreakpointUpdate,
    ) -> Result<Breakpoint> {
        breakpoint(self.send(origin, Command::UpdateBreakpoint(update)).await?)
    }

    pub async fn set_exception_filters(&self, origin: Origin, filters: Vec<String>) -> Result<()> {
        done(
            self.send(origin, Command::SetExceptionFilters(filters))
                .await?,
        )
    }

    /// Stops the program when `expression` (in the top frame) is written,
    /// where the adapter can watch memory; None stops watching. Answers
    /// with what the adapter watches.
    pub async fn watch_data(&self, origin: Origin, expression: Option<String>) -> Result<String> {
        match self.send(origin, Command::WatchData(expression)).await? {
            Reply::Value(v) => Ok(v.value),
            Reply::Done => Ok(String::new()),
            other => Err(unexpected(other)),
        }
    }

    pub async fn evaluate(
        &self,
        origin: Origin,
        expression: String,
        frame_index: usize,
    ) -> Result<Var> {
        self.evaluate_value(origin, expression, frame_index, false)
            .await
    }

    /// An evaluation; `whole` reads the value uncut, however long.
    pub async fn evaluate_value(
        &self,
        origin: Origin,
        expression: String,
        frame_index: usize,
        whole: bool,
    ) -> Result<Var> {
        value(
            self.send(
                origin,
                Command::Evaluate {
                    expression,
                    frame_index,
                    whole,
                },
            )
            .await?,
        )
    }

    /// Whether the adapter's own check finds `expression` free of side
    /// effects: an error where it would have one or the adapter cannot tell.
    pub async fn check_purity(
        &self,
        origin: Origin,
        expression: String,
        frame_index: usize,
    ) -> Result<()> {
        self.send(
            origin,
            Command::CheckPurity {
                expression,
                frame_index,
            },
        )
        .await
        .map(|_| ())
    }

    /// The variable's new value, read back.
    pub async fn set_variable(
        &self,
        origin: Origin,
        path: String,
        value_text: String,
        frame_index: usize,
    ) -> Result<Var> {
        super::validate::check_text("name", &path)?;
        super::validate::check_text("value", &value_text)?;
        value(
            self.send(
                origin,
                Command::SetVariable {
                    path,
                    value: value_text,
                    frame_index,
                },
            )
            .await?,
        )
    }

    /// A page of variables and how many match in all.
    pub async fn variables(
        &self,
        origin: Origin,
        query: VariablesQuery,
    ) -> Result<(Vec<Var>, usize)> {
        match self.send(origin, Command::Variables(query)).await? {
            Reply::Variables { vars, total } => Ok((vars, total)),
            other => Err(unexpected(other)),
        }
    }

    /// The first `levels` frames and the stack's depth.
    pub async fn stack(&self, origin: Origin, levels: usize) -> Result<(Vec<Frame>, usize)> {
        match self.send(origin, Command::Stack { levels }).await? {
            Reply::Frames { frames, total } => Ok((frames, total)),
            other => Err(unexpected(other)),
        }
    }

    /// Each thread of every live process.
    pub async fn threads(&self, origin: Origin) -> Result<Vec<crate::session::types::ThreadRow>> {
        match self.send(origin, Command::Threads).await? {
            Reply::Threads(t) => Ok(t),
            other => Err(unexpected(other)),
        }
    }

    pub async fn watch(&self, origin: Origin, add: Vec<String>, remove: Vec<String>) -> Result<()> {
        done(self.send(origin, Command::Watch { add, remove }).await?)
    }

    pub async fn note(&self, origin: Origin, text: String) -> Result<()> {
        done(self.send(origin, Command::Note(text)).await?)
    }

    /// Types `text` into the program's terminal, as is.
    pub async fn send_input(&self, origin: Origin, text: String) -> Result<()> {
        done(self.send(origin, Command::Input(text)).await?)
    }

    /// Who may move the program; only the person changes it.
    pub async fn set_control(&self, origin: Origin, mode: ControlMode) -> Result<()> {
        done(self.send(origin, Command::SetControl(mode)).await?)
    }

    /// The exception the program is stopped at: its causes, frames and
    /// their values, in one read.
    pub async fn exception_context(
        &self,
        origin: Origin,
        query: super::autopsy::ExceptionQuery,
    ) -> Result<super::autopsy::ExceptionContext> {
        match self.send(origin, Command::ExceptionContext(query)).await? {
            Reply::ExceptionContext(c) => Ok(*c),
            other => Err(unexpected(other)),
        }
    }

    /// The names of a frame's scopes beside its locals (globals, registers),
    /// each readable with `VariablesQuery::scope`.
    pub async fn scopes(&self, origin: Origin, frame_index: usize) -> Result<Vec<String>> {
        match self.send(origin, Command::Scopes { frame_index }).await? {
            Reply::Scopes(names) => Ok(names),
            other => Err(unexpected(other)),
        }
    }

    /// Ends the program (an attached one is left running) and the adapter.
    pub async fn terminate(&self, origin: Origin) -> Result<()> {
        self.terminate_with(origin, false).await
    }

    /// As `terminate`; with `terminate_debuggee` an attached program is
    /// ended as well.
    pub async fn terminate_with(&self, origin: Origin, terminate_debuggee: bool) -> Result<()> {
        done(
            self.send(origin, Command::Terminate { terminate_debuggee })
                .await?,
        )
    }
}
