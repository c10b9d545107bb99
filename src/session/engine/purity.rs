//! Whether an expression that the text scan flags is free of side effects
//! by the adapter's own check (`Language::purity_probe`): the members of
//! its value are asked for, and come only when it ran with none.

use serde_json::json;

use super::{Engine, ReplyTx, or_reply};
use crate::session::command::Reply;
use crate::session::error::SessionError;

impl Engine {
    pub(super) fn check_purity(&mut self, reply: ReplyTx, expression: String, frame_index: usize) {
        let prepared = crate::session::validate::check_expression(&expression)
            .and_then(|_| self.stopped_frame("check an expression", frame_index));
        let (client, frame) = or_reply!(prepared, reply);
        let unknown = || {
            SessionError::Unsupported(
                "its debugger's own check could not show it free of side effects".into(),
            )
        };
        let Some(text) = client.language().purity_probe(&expression) else {
            let _ = reply.send(Err(unknown()));
            return;
        };
        tokio::spawn(async move {
            let column = text.encode_utf16().count() + 1;
            let args = json!({"text": text, "column": column, "frameId": frame});
            let answer = client.request("completions", Some(args)).await;
            let members = answer
                .ok()
                .and_then(|b| b.get("targets").and_then(|t| t.as_array()).map(Vec::len))
                .unwrap_or(0);
            let _ = reply.send(match members {
                0 => Err(unknown()),
                _ => Ok(Reply::Done),
            });
        });
    }
}
