//! What `pairdbg ctl` prints: the reply (the viewport) as the host wrote
//! it, or with `--json` one object a script can read; and the exit code.

use serde_json::{Value, json};

use super::commands::Call;
use super::exit;
use crate::agent::Reply;

pub struct Answer {
    ok: bool,
    /// The session's state after the call: stopped, running, exited,
    /// ended (gone), or none when the command touched no session.
    state: String,
    text: String,
    session_id: Option<String>,
    epoch: Option<u64>,
    /// `status --json`: the viewport as JSON.
    viewport: Option<Value>,
}

/// The state of session `id` (or the current one) in the host's list.
pub fn state_of(sessions: &[Value], id: Option<&str>) -> String {
    let found = sessions.iter().find(|s| match id {
        Some(id) => s["id"] == id,
        None => s["current"] == true,
    });
    match found {
        Some(s) => s["state"].as_str().unwrap_or("error").to_string(),
        None => "ended".to_string(),
    }
}

impl Answer {
    pub fn from_reply(
        call: &Call,
        reply: Reply,
        state: String,
        at: Option<(String, u64)>,
    ) -> Answer {
        let viewport = (call.tool == "debug_status" && !reply.is_error)
            .then(|| {
                reply
                    .text
                    .lines()
                    .find(|l| l.starts_with('{'))
                    .and_then(|l| serde_json::from_str(l).ok())
            })
            .flatten();
        Answer {
            ok: !reply.is_error,
            state,
            text: reply.text,
            session_id: at.as_ref().map(|(id, _)| id.clone()),
            epoch: at.map(|(_, e)| e),
            viewport,
        }
    }

    /// A command that needed no session and succeeded (`stop`).
    pub fn done(text: String) -> Answer {
        Answer {
            ok: true,
            state: "none".into(),
            text,
            session_id: None,
            epoch: None,
            viewport: None,
        }
    }

    pub fn failed(text: String) -> Answer {
        Answer {
            ok: false,
            state: "none".into(),
            text,
            session_id: None,
            epoch: None,
            viewport: None,
        }
    }

    pub fn code(&self) -> u8 {
        match self.state.as_str() {
            "none" if self.ok => exit::STOPPED,
            _ => exit::code(!self.ok, &self.state),
        }
    }

    /// Prints the answer and returns the exit code.
    pub fn print(&self, json: bool) -> u8 {
        let code = self.code();
        if json {
            let mut v = json!({
                "ok": self.ok,
                "state": self.state,
                "text": self.text,
                "session_id": self.session_id,
                "epoch": self.epoch,
                "exit_code": code,
            });
            if let Some(viewport) = &self.viewport {
                v["viewport"] = viewport.clone();
            }
            say(&v.to_string());
        } else if self.ok {
            say(&self.text);
        } else {
            eprintln!("pairdbg: {}", self.text);
        }
        code
    }
}

/// A line on standard output. A reader that has gone (`| head`, `| true`)
/// wants no more, so a closed pipe ends the printing, never the process:
/// the session behind the command still ends as it should.
pub fn say(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}
