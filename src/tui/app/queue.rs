//! Step keys pressed while a step is under way wait for its stop, so `n n`
//! steps twice as in gdb and pudb instead of losing the second key.

use std::collections::VecDeque;

use super::{App, UiEvent};
use crate::session::StepKind;
use crate::session::types::{Origin, RunState, Snapshot};

#[derive(Default)]
pub(super) struct StepQueue {
    /// The stop a step was sent from, until the next stop lands.
    from: Option<u64>,
    waiting: VecDeque<StepKind>,
}

fn name(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Over => "step over",
        StepKind::Into => "step into",
        StepKind::Out => "step out",
    }
}

impl App {
    pub(super) fn step(&mut self, kind: StepKind) {
        if self.steps.from.is_some() {
            self.steps.waiting.push_back(kind);
            let names: Vec<&str> = self.steps.waiting.iter().map(|k| name(*k)).collect();
            self.ui.message = Some(format!("queued: {}", names.join(", ")));
            return;
        }
        self.steps.from = Some(self.session.snapshot().stop_seq);
        // With the disassembly shown, steps go by instruction (a step out
        // still leaves the function).
        let by_instruction = self.ui.native.disassembly_shown() && kind != StepKind::Out;
        self.ask(
            move |s| async move {
                if by_instruction {
                    s.step_instruction(Origin::Human, kind).await
                } else {
                    s.step(Origin::Human, kind, 1).await
                }
            },
            |res| res.err().map(|e| UiEvent::StepRefused(e.to_string())),
        );
    }

    /// The step was refused: nothing will land, so what waited is dropped.
    pub(super) fn step_refused(&mut self, why: String) {
        self.steps.from = None;
        self.steps.waiting.clear();
        self.ui.message = Some(why);
    }

    /// A stop landed or the program ended: the next queued step goes.
    pub(super) fn step_landed(&mut self, snap: &Snapshot) {
        let Some(from) = self.steps.from else {
            return;
        };
        match snap.state {
            RunState::Stopped if snap.stop_seq > from => {
                self.steps.from = None;
                if let Some(kind) = self.steps.waiting.pop_front() {
                    self.step(kind);
                }
                if self.steps.waiting.is_empty()
                    && self
                        .ui
                        .message
                        .as_deref()
                        .is_some_and(|m| m.starts_with("queued: "))
                {
                    self.ui.message = None;
                }
            }
            RunState::Exited | RunState::Error => {
                self.steps.from = None;
                self.steps.waiting.clear();
            }
            _ => {}
        }
    }
}
