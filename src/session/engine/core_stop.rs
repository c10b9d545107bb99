//! A core file's session: its one stop reads as the crash it records, and
//! nothing that would run the program's code is sent to the adapter (some
//! accept a step on a core and never answer).

use crate::dap::events::Stopped;
use crate::session::command::Command;
use crate::session::error::SessionError;
use crate::session::types::ExceptionDetails;

use super::Engine;

/// What every refused move says.
pub const NOTHING_RUNS: &str = "this is a core file: nothing runs";

impl Engine {
    /// The refusal of a command that would run code in a core file's
    /// session; None where the command may go on.
    pub(super) fn core_refusal(&self, command: &Command) -> Option<SessionError> {
        let runs = matches!(
            command,
            Command::Continue
                | Command::Step { .. }
                | Command::StepInstruction(_)
                | Command::RunTo { .. }
                | Command::SetVariable { .. }
                | Command::Restart
                | Command::WatchData(Some(_))
                | Command::Input(_)
        );
        (runs && self.config.is_core()).then(|| {
            let native = self
                .config
                .core
                .as_deref()
                .is_some_and(crate::session::core_file::is_elf);
            let readable = match native {
                true => "frames, variables, memory, registers and disassembly",
                false => "frames and variables",
            };
            SessionError::State(format!("{NOTHING_RUNS}; its {readable} can be read"))
        })
    }

    /// The adapter's stop for a core (`entry`, `attach`, a signal) becomes
    /// `crashed`, with the signal the core itself records; a core that
    /// records none (a snapshot of a live process) stops as `core`. A dump
    /// that is no ELF core (a Python program's) records no signal: its
    /// adapter's stop (the exception it records) stands.
    pub(super) fn core_stop(
        &self,
        s: &mut Stopped,
        exception: Option<ExceptionDetails>,
    ) -> Option<ExceptionDetails> {
        let core = self.config.core.as_deref()?;
        if !crate::session::core_file::is_elf(core) {
            return exception;
        }
        let Some(signal) = crate::session::core_file::signal(core) else {
            s.reason = "core".into();
            s.description = Some("the core file records no signal".into());
            return None;
        };
        s.reason = "crashed".into();
        s.description = Some(signal.clone());
        Some(ExceptionDetails {
            type_name: signal,
            message: "the program crashed; this is its core file".into(),
            raised_at: None,
            qualified_type: None,
            first_chance: None,
            break_mode: None,
        })
    }
}
