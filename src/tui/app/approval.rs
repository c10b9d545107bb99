//! The person's answer to an agent's side effect, and asking for them.

use crossterm::event::{KeyCode, KeyEvent};

use super::App;
use crate::session::approval::Request;

impl App {
    /// While a request waits, y approves it, n or Esc denies it, and other
    /// keys wait: the request is the one thing on screen to decide.
    pub(super) fn on_approval_key(&mut self, request: Request, k: KeyEvent) {
        let approve = match k.code {
            KeyCode::Char('y') | KeyCode::Char('Y') => true,
            KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => false,
            _ => return,
        };
        let approvals = self.registry.approvals();
        self.ui.message = Some(if !approvals.answer(request.id, approve) {
            "the agent stopped waiting for that answer".into()
        } else if approve {
            format!("approved: {}", request.what)
        } else {
            format!("denied: {}", request.what)
        });
    }

    pub(super) fn toggle_approval(&mut self) {
        let approvals = self.registry.approvals();
        let on = !approvals.required();
        approvals.set_required(on);
        self.ui.message = Some(if on {
            "the agent's side effects now wait for your approval (A turns off)".into()
        } else {
            "the agent's side effects run without asking".into()
        });
    }
}
