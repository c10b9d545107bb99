//! The program's own terminal as the engine keeps it: made at each start,
//! its output forwarded, and input typed into it.

use std::sync::Arc;

use super::{Apply, Engine, ReplyTx};
use crate::session::SessionEvent;
use crate::session::command::Reply;
use crate::session::error::SessionError;
use crate::session::terminal::{MAX_INPUT_BYTES, ProgramTerminal};
use crate::session::types::RunState;

impl Engine {
    /// Makes a fresh terminal for each start (launch or restart): the last
    /// program's may still be the controlling terminal of its adapter,
    /// which dies a moment later. An attached process keeps its own.
    /// Without one, programs run as before, with no input.
    pub(super) fn open_terminal(&mut self) {
        self.drain_terminal();
        self.terminal = None;
        self.config.stdio = None;
        if self.config.is_attach() {
            return;
        }
        if let Some(tty) = self.config.tty.clone() {
            self.config.stdio = Some(crate::adapters::ProgramStdio {
                terminal: tty.clone(),
                stderr: tty,
            });
            return;
        }
        let t = match ProgramTerminal::open() {
            Ok(t) => Arc::new(t),
            Err(e) => {
                tracing::warn!("no terminal for the program: {e}");
                return;
            }
        };
        let tx = self.apply_tx.clone();
        let forwarded = t.forward(self.output.clone(), self.config.adapter, move || {
            let apply: Apply = Box::new(|e: &mut Engine| e.emit(SessionEvent::Output));
            tx.send(apply).is_ok()
        });
        if let Err(e) = forwarded {
            tracing::warn!("no terminal for the program: its output cannot be read: {e}");
            return;
        }
        self.config.stdio = Some(t.stdio());
        self.terminal = Some(t);
    }

    /// What the program wrote and is not read yet goes to the buffer now.
    /// Those who show output read it on `Output`: what the drain took would
    /// otherwise stay unseen, as the forwarding reader found it gone.
    pub(super) fn drain_terminal(&mut self) {
        let took = match &self.terminal {
            Some(t) => t.drain(&self.output, self.config.adapter),
            None => false,
        };
        if took {
            self.emit(SessionEvent::Output);
        }
    }

    pub(super) fn send_input(&mut self, reply: ReplyTx, text: String) {
        let res = self.write_input(text.as_bytes());
        let _ = reply.send(res.map(|_| Reply::Done));
    }

    fn write_input(&self, bytes: &[u8]) -> Result<(), SessionError> {
        if bytes.len() > MAX_INPUT_BYTES {
            return Err(SessionError::Invalid {
                field: "text".into(),
                message: format!(
                    "{} bytes is over the limit of {MAX_INPUT_BYTES}",
                    bytes.len()
                ),
            });
        }
        let terminal = match (&self.terminal, self.conn.on_terminal) {
            (Some(t), true) => t,
            _ => {
                let why = match &self.config.tty {
                    Some(tty) => format!("it reads from {}: type there", tty.display()),
                    None => "this program does not read from pairdbg's terminal (an attached process keeps its own)".into(),
                };
                return Err(SessionError::State(format!("cannot send input: {why}")));
            }
        };
        if matches!(self.snap.state, RunState::Exited | RunState::Error) {
            return Err(SessionError::State(format!(
                "cannot send input: {}",
                self.snap.state_sentence()
            )));
        }
        terminal
            .write_input(bytes)
            .map_err(|e| SessionError::State(format!("cannot send input: {e}")))
    }
}
