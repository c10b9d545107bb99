//! Threads: listing them, and moving the session's focus to another one
//! while the program is stopped, as VS Code's call stack does.

use super::connection::ConnState;
use super::tree::conn_label;
use super::{Apply, Engine, ReplyTx, or_reply};
use crate::dap::client::body_as;
use crate::session::command::Reply;
use crate::session::error::SessionError;
use crate::session::fetch::StopRequest;
use crate::session::link::Link;
use crate::session::types::{Origin, ThreadRow};

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
    /// Every live connection's threads, under its process's name when the
    /// session has children; a child that cannot answer is left out.
    pub(super) fn threads(&mut self, reply: ReplyTx) {
        let children = self.has_children();
        let mut conns: Vec<(u32, String, Link)> = std::iter::once(&self.conn)
            .chain(self.tree.others.values())
            .filter(|c| c.state != ConnState::Ended)
            .filter_map(|c| Some((c.id, conn_label(c), c.client.clone()?)))
            .collect();
        // By process number, the root first, whichever has the focus.
        conns.sort_by_key(|(id, _, _)| *id);
        if conns.is_empty() {
            let _ = reply.send(Err(SessionError::State(self.snap.state_sentence())));
            return;
        }
        let focused = self.conn.id;
        let language = self.config.adapter.language();
        let stopped = self
            .snap
            .stop
            .as_ref()
            .and_then(|s| Some((s.thread_id, s.frames.first()?.name.clone())));
        tokio::spawn(async move {
            let mut rows = vec![];
            let mut first_err = None;
            let lists = futures::future::join_all(
                conns
                    .into_iter()
                    .map(|(id, label, c)| async move { (id, label, list(&c).await) }),
            )
            .await;
            for (id, label, res) in lists {
                match res {
                    Ok(threads) => rows.extend(threads.into_iter().map(|(tid, name)| {
                        let name = match &stopped {
                            Some((t, top)) if *t == tid && id == focused => {
                                language.thread_name_at_stop(&name, top).unwrap_or(name)
                            }
                            _ => name,
                        };
                        ThreadRow {
                            child: children.then_some(id),
                            process: children.then(|| label.clone()),
                            id: tid,
                            name,
                        }
                    })),
                    Err(e) if id == focused => first_err = Some(e),
                    Err(e) => tracing::debug!("threads of {label}: {e}"),
                }
            }
            let res = match first_err {
                Some(e) if rows.is_empty() => Err(e),
                _ => Ok(Reply::Threads(rows)),
            };
            let _ = reply.send(res);
        });
    }

    /// Moves the focus to the connection numbered `child`, or says which
    /// numbers there are.
    pub(super) fn focus_child(&mut self, child: u32, field: &str) -> Result<(), SessionError> {
        let live = self
            .conn_by_id(child)
            .is_some_and(|c| c.state != ConnState::Ended && c.client.is_some());
        if live {
            self.focus(child);
            return Ok(());
        }
        let known: Vec<String> = std::iter::once(&self.conn)
            .chain(self.tree.others.values())
            .filter(|c| c.state != ConnState::Ended)
            .map(|c| format!("{} ({})", c.id, conn_label(c)))
            .collect();
        Err(SessionError::invalid(
            field,
            format!(
                "there is no live process {child}; the processes are {}",
                known.join(", ")
            ),
        ))
    }

    /// Reads the stop again from `thread_id`'s point of view; steps then
    /// move that thread. The reply is the stop count to wait past.
    pub(super) fn select_thread(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        child: Option<u32>,
        thread_id: i64,
    ) {
        if let Some(child) = child
            && child != self.conn.id
        {
            or_reply!(self.require_stopped("switch threads"), reply);
            if self
                .conn_by_id(child)
                .is_some_and(|c| c.state != ConnState::Stopped && c.state != ConnState::Ended)
            {
                let _ = reply.send(Err(SessionError::invalid(
                    "child",
                    format!("process {child} is running; pause it first (child={child})"),
                )));
                return;
            }
            or_reply!(self.focus_child(child, "child"), reply);
            // Its own stop, held while another was shown.
            self.run_gen += 1;
        }
        let (client, _) = or_reply!(self.require_stopped("switch threads"), reply);
        let Some(stopped) = self.conn.stopped_by.clone() else {
            let _ = reply.send(Err(SessionError::State(
                "cannot switch threads: the adapter has not said which thread stopped".into(),
            )));
            return;
        };
        let conn = self.conn.id;
        self.spawn(async move {
            let threads = list(&client).await;
            Box::new(move |e: &mut Engine| {
                if e.conn.id != conn {
                    let _ = reply.send(Err(SessionError::State(
                        "cannot switch threads: another process stopped meanwhile and has the focus; select again".into(),
                    )));
                    return;
                }
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
                    stack: None,
                });
                let _ = reply.send(Ok(Reply::Moved { stop_seq }));
            }) as Apply
        });
    }
}
