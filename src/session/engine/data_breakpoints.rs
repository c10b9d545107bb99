//! Data breakpoints: the program stops when a value is written, where the
//! adapter can watch memory (DAP `dataBreakpointInfo`, `setDataBreakpoints`).
//! One watch at a time serves "run until this changes"; it lives with the
//! connection and is cleared once read.

use serde_json::json;

use super::{Apply, Engine, ReplyTx, or_reply};
use crate::session::command::Reply;
use crate::session::error::SessionError;

impl Engine {
    /// Watches writes to `expression` in the top frame, or with None
    /// clears the watch. Answers with the adapter's description of what it
    /// watches.
    pub(super) fn watch_data(&mut self, reply: ReplyTx, expression: Option<String>) {
        if !self.supports("supportsDataBreakpoints") {
            if self.config.adapter.console_watch("").is_some() {
                return self.watch_by_console(reply, expression);
            }
            let _ = reply.send(Err(SessionError::Unsupported(format!(
                "data breakpoints are not supported by {}",
                self.config.adapter.name()
            ))));
            return;
        }
        let Some(expression) = expression else {
            let Some(client) = self.conn.client.clone() else {
                let _ = reply.send(Ok(Reply::Done));
                return;
            };
            self.spawn(async move {
                let res = client
                    .request("setDataBreakpoints", Some(json!({"breakpoints": []})))
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
        let prepared = self.stopped_frame("watch a value", 0);
        let (client, frame) = or_reply!(prepared, reply);
        // A local is named within its scope; anything else (a global, a
        // field) is evaluated in the frame, where adapters read the result
        // as an address: a global named in the locals' scope is not found.
        let (locals, is_local) = self.snap.stop.as_ref().map_or((0, false), |s| {
            let is_local = s.locals.iter().any(|v| v.name == expression);
            (s.locals_reference, is_local)
        });
        let args = if locals > 0 && is_local && crate::adapters::is_ident(&expression) {
            json!({"name": expression, "variablesReference": locals, "frameId": frame})
        } else {
            json!({"name": format!("&{expression}"), "frameId": frame})
        };
        let watched = expression.clone();
        self.spawn(async move {
            let res = async {
                let info = client.request("dataBreakpointInfo", Some(args)).await?;
                let description = info["description"].as_str().unwrap_or_default().to_string();
                let Some(data_id) = info["dataId"].as_str().filter(|d| !d.is_empty()) else {
                    return Err(SessionError::Unsupported(format!(
                        "{expression} cannot be watched: {description}"
                    )));
                };
                let set = client
                    .request(
                        "setDataBreakpoints",
                        Some(json!({"breakpoints": [{"dataId": data_id, "accessType": "write"}]})),
                    )
                    .await?;
                let bound = &set["breakpoints"][0];
                if bound["verified"].as_bool() != Some(true) {
                    let why = bound["message"]
                        .as_str()
                        .unwrap_or("the adapter refused it");
                    return Err(SessionError::Unsupported(format!(
                        "{expression} cannot be watched: {why}"
                    )));
                }
                Ok(description)
            }
            .await;
            Box::new(move |e: &mut Engine| {
                if res.is_ok() {
                    e.set_data_watch(Some(watched));
                }
                let _ = reply.send(res.map(|d| {
                    Reply::Value(crate::session::types::Var {
                        name: "watch".into(),
                        value: d,
                        ..Default::default()
                    })
                }));
            }) as Apply
        });
    }

    /// What the snapshot says is watched, for every front end to show.
    pub(super) fn set_data_watch(&mut self, expression: Option<String>) {
        if self.snap.data_watch != expression {
            self.snap.data_watch = expression;
            self.dirty = true;
        }
    }
}
