//! The session's native views as typed calls: disassembly, memory and
//! instruction steps, for any controller.

use super::api::StopSeq;
use super::command::{Command, Reply, StepKind};
use super::error::SessionError;
use super::handle::SessionHandle;
use super::native::{Disassembly, Memory};
use super::types::Origin;

fn unexpected(r: Reply) -> SessionError {
    SessionError::State(format!("the engine gave an unexpected answer: {r:?}"))
}

impl SessionHandle {
    /// Steps the shown thread by one machine instruction (over calls for
    /// `StepKind::Over`).
    pub async fn step_instruction(
        &self,
        origin: Origin,
        kind: StepKind,
    ) -> Result<StopSeq, SessionError> {
        match self.send(origin, Command::StepInstruction(kind)).await? {
            Reply::Moved { stop_seq } => Ok(stop_seq),
            other => Err(unexpected(other)),
        }
    }

    /// The instructions around a frame's current one.
    pub async fn disassemble(
        &self,
        origin: Origin,
        frame_index: usize,
    ) -> Result<Disassembly, SessionError> {
        match self
            .send(origin, Command::Disassemble { frame_index })
            .await?
        {
            Reply::Disassembly(d) => Ok(*d),
            other => Err(unexpected(other)),
        }
    }

    /// `count` bytes from `offset` past where `expression` points (a
    /// pointer, a value, or an address such as `0x7ffc0010`).
    pub async fn read_memory(
        &self,
        origin: Origin,
        expression: String,
        frame_index: usize,
        offset: i64,
        count: usize,
    ) -> Result<Memory, SessionError> {
        let command = Command::ReadMemory {
            expression,
            frame_index,
            offset,
            count,
        };
        match self.send(origin, command).await? {
            Reply::Memory(m) => Ok(*m),
            other => Err(unexpected(other)),
        }
    }
}
