//! Data breakpoints through the adapter's console, for an adapter whose
//! DAP has none but whose debugger watches writes (gdb's `watch`): one
//! watch at a time, as with `setDataBreakpoints`, removed by the command
//! the adapter derives from the console's answer.

use serde_json::json;

use super::{Apply, Engine, ReplyTx, or_reply};
use crate::session::command::Reply;
use crate::session::error::SessionError;

impl Engine {
    /// Watches writes to `expression` in the top frame, or with None
    /// removes the watch.
    pub(super) fn watch_by_console(&mut self, reply: ReplyTx, expression: Option<String>) {
        let Some(expression) = expression else {
            let (Some(client), Some(unwatch)) =
                (self.conn.client.clone(), self.conn.console_unwatch.take())
            else {
                let _ = reply.send(Ok(Reply::Done));
                return;
            };
            self.spawn(async move {
                let res = client
                    .request(
                        "evaluate",
                        Some(json!({"expression": unwatch, "context": "repl"})),
                    )
                    .await;
                Box::new(move |e: &mut Engine| {
                    if res.is_ok() {
                        e.set_data_watch(None);
                    }
                    let _ = reply.send(res.map(|_| Reply::Done).map_err(Into::into));
                }) as Apply
            });
            return;
        };
        let adapter = self.config.adapter;
        let Some(command) = adapter.console_watch(&expression) else {
            let _ = reply.send(Err(SessionError::Unsupported(format!(
                "{} cannot watch {expression:?}",
                adapter.name()
            ))));
            return;
        };
        let prepared = self.stopped_frame("watch a value", 0);
        let (client, frame) = or_reply!(prepared, reply);
        self.spawn(async move {
            let res = client
                .request(
                    "evaluate",
                    Some(json!({"expression": command, "context": "repl", "frameId": frame})),
                )
                .await;
            Box::new(move |e: &mut Engine| {
                let answer = match res {
                    Ok(body) => {
                        adapter.console_unwatch(body["result"].as_str().unwrap_or_default())
                    }
                    Err(err) => Err(err.to_string()),
                };
                let _ = reply.send(match answer {
                    Ok(unwatch) => {
                        e.conn.console_unwatch = Some(unwatch);
                        e.set_data_watch(Some(expression.clone()));
                        Ok(Reply::Value(crate::session::types::Var {
                            name: "watch".into(),
                            value: expression,
                            ..Default::default()
                        }))
                    }
                    Err(why) => Err(SessionError::Unsupported(format!(
                        "{expression} cannot be watched: {why}"
                    ))),
                });
            }) as Apply
        });
    }
}
