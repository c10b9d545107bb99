//! Threads: listing them, and moving the session's focus to another one
//! while the program is stopped, as VS Code's call stack does.

use super::{Apply, Engine, ReplyTx, or_reply};
use crate::dap::client::body_as;
use crate::session::command::Reply;
use crate::session::error::SessionError;
use crate::session::fetch::StopRequest;
use crate::session::link::Link;
use crate::session::types::Origin;

/// The thread the adapter reported stopped, with its stop's details.
#[derive(Debug, Clone)]
pub struct StoppedBy {
    pub thread_id: i64,
    pub reason: String,
    pub description: Option<String>,
    pub text: Option<String>,
    pub exception: Option<crate::session::types::ExceptionDetails>,
}

async fn list(client: &Link) -> Result<Vec<(i64, String)>, SessionError> {
    let body = client.request("threads", None).await?;
    let resp: dap_types::ThreadsResponse = body_as("threads", body)?;
    Ok(resp
        .threads
        .into_iter()
        .map(|t| (t.id as i64, t.name))
        .collect())
}

fn label(threads: &[(i64, String)], id: i64) -> String {
    match threads.iter().find(|(t, _)| *t == id) {
        Some((_, name)) if !name.is_empty() => format!("thread {id} ({name})"),
        _ => format!("thread {id}"),
    }
}

impl Engine {
    pub(super) fn threads(&mut self, reply: ReplyTx) {
        let Some(client) = self.conn.client.clone() else {
            let _ = reply.send(Err(SessionError::State(self.snap.state_sentence())));
            return;
        };
        tokio::spawn(async move {
            let _ = reply.send(list(&client).await.map(Reply::Threads));
        });
    }

    /// Reads the stop again from `thread_id`'s point of view; steps then
    /// move that thread. The reply is the stop count to wait past.
    pub(super) fn select_thread(&mut self, origin: Origin, reply: ReplyTx, thread_id: i64) {
        let (client, _) = or_reply!(self.require_stopped("switch threads"), reply);
        let Some(stopped) = self.conn.stopped_by.clone() else {
            let _ = reply.send(Err(SessionError::State(
                "cannot switch threads: the adapter has not said which thread stopped".into(),
            )));
            return;
        };
        self.spawn(async move {
            let threads = list(&client).await;
            Box::new(move |e: &mut Engine| {
                let threads = match threads {
                    Ok(t) => t,
                    Err(err) => {
                        let _ = reply.send(Err(err));
                        return;
                    }
                };
                if !threads.iter().any(|(t, _)| *t == thread_id) {
                    let known: Vec<String> =
                        threads.iter().map(|(t, _)| label(&threads, *t)).collect();
                    let _ = reply.send(Err(SessionError::invalid(
                        "thread_id",
                        format!(
                            "there is no thread {thread_id}; the program has {}",
                            known.join(", ")
                        ),
                    )));
                    return;
                }
                if let Err(err) = e.require_stopped("switch threads") {
                    let _ = reply.send(Err(err));
                    return;
                }
                let own = thread_id == stopped.thread_id;
                let note = (!own).then(|| {
                    format!(
                        "{} selected; {} stopped ({})",
                        label(&threads, thread_id),
                        label(&threads, stopped.thread_id),
                        stopped.reason
                    )
                });
                e.conn.thread_id = thread_id;
                // A stop still being read for the old thread must not land.
                e.run_gen += 1;
                e.touch(
                    Some(origin),
                    format!(
                        "{} switched to {}",
                        origin.noun(),
                        label(&threads, thread_id)
                    ),
                );
                let stop_seq = e.snap.stop_seq;
                e.load_stop(StopRequest {
                    thread_id,
                    reason: if own { stopped.reason } else { "pause".into() },
                    description: if own { stopped.description } else { None },
                    text: if own { stopped.text } else { None },
                    watches: e.watch_list(),
                    thread_note: note,
                    hints: e.conn.hints.clone(),
                    exception: if own { stopped.exception } else { None },
                });
                let _ = reply.send(Ok(Reply::Moved { stop_seq }));
            }) as Apply
        });
    }
}
