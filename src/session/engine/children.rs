//! Child sessions: the connections an adapter asks for with `startDebugging`
//! (a subprocess, or the program itself where the root only launches), and
//! the routing of every connection's events. A child ends only itself; the
//! root's end ends the session.

use std::time::Duration;

use serde_json::Value;

use super::connection::{Conn, ConnState};
use super::opening::{self, Opening};
use super::tree::ConnMsg;
use super::{Apply, Engine};
use crate::adapters::ChildContext;
use crate::dap::events::DapEvent;
use crate::dap::process::AdapterProcess;
use crate::session::fetch::StopRequest;
use crate::session::link::Link;
use crate::session::output::Stream;
use crate::session::types::RunState;

/// How long a child is given to answer `disconnect`.
const CHILD_DISCONNECT: Duration = Duration::from_millis(500);

/// Test-only: holds every child connection back this many milliseconds
/// before it connects, so that a test can end pairdbg while a child is
/// still starting. Nothing else sets it.
const TEST_CHILD_DELAY: &str = "PAIRDBG_TEST_CHILD_DELAY_MS";

/// Read only in debug builds, which the tests run: a user's release build
/// never holds a child back, whatever its environment says.
fn test_child_delay() -> Option<Duration> {
    if !cfg!(debug_assertions) {
        return None;
    }
    let ms = std::env::var(TEST_CHILD_DELAY).ok()?.parse().ok()?;
    Some(Duration::from_millis(ms))
}

impl Engine {
    pub(super) fn on_conn_msg(&mut self, id: u32, msg: ConnMsg) {
        let Some(state) = self.conn_by_id(id).map(|c| c.state) else {
            // A connection dropped by a restart.
            return;
        };
        match msg {
            ConnMsg::Closed => self.on_conn_closed(id),
            ConnMsg::Event(ev) => {
                // Whatever the adapter says shows it answers again.
                if self.snap.silent.take().is_some() {
                    self.dirty = true;
                }
                let ev = DapEvent::from_event(ev);
                // Output may trail a child's end; nothing else of it counts.
                if state == ConnState::Ended && !matches!(ev, DapEvent::Output { .. }) {
                    return;
                }
                self.on_conn_event(id, ev);
            }
        }
    }

    pub(super) fn on_conn_event(&mut self, id: u32, ev: DapEvent) {
        match ev {
            DapEvent::Initialized => {
                self.with_conn(id, |e| e.configure());
            }
            DapEvent::Stopped(_) => {
                if let Some(c) = self.conn_by_id_mut(id) {
                    c.state = ConnState::Stopped;
                }
                if self.conn.id != id && self.conn.state == ConnState::Stopped {
                    // Another process's stop is shown, or on its way: what
                    // the person or agent does next is meant for that one.
                    // This stop waits its turn, shown once that one resumes.
                    self.holding_stop = true;
                    self.with_conn(id, |e| e.on_event(ev));
                    self.holding_stop = false;
                    self.publish_children();
                    return;
                }
                if self.conn.id != id {
                    // A stop still being read for the old focus must not land.
                    self.run_gen += 1;
                    self.focus(id);
                }
                self.publish_children();
                self.on_event(ev);
            }
            DapEvent::Continued { .. } if self.conn.id != id => {
                if let Some(c) = self.conn_by_id_mut(id) {
                    c.state = ConnState::Running;
                }
                self.publish_children();
            }
            DapEvent::Terminated if id != self.tree.root => self.on_child_ended(id, None, false),
            DapEvent::Terminated => {
                self.focus(id);
                self.read_exit_code_file();
                self.on_event(DapEvent::Terminated);
            }
            DapEvent::Process { pid: Some(pid), .. } => {
                if let Some(c) = self.conn_by_id_mut(id) {
                    c.pid = Some(pid as u32);
                }
                self.publish_children();
                // An attached process is not ours to end, and a remote pid
                // names another machine's process.
                if !self.config.is_attach() {
                    let root = self.tree.root;
                    if let Some(p) = self.conn_by_id_mut(root).and_then(|c| c.process.as_mut()) {
                        p.track_pid(pid as i32);
                    }
                    if id == root {
                        self.watch_program(pid as u32);
                    }
                }
            }
            ev => {
                self.with_conn(id, |e| e.on_event(ev));
            }
        }
    }

    /// An adapter that sends no `exited` writes the code to a file.
    pub(super) fn read_exit_code_file(&mut self) {
        let Some(path) = self.exit_code_file.take() else {
            return;
        };
        let code = crate::adapters::take_exit_code(&path);
        if self.conn.pending_exit_code.is_none() {
            self.conn.pending_exit_code = code;
        }
    }

    fn on_conn_closed(&mut self, id: u32) {
        if id == self.tree.root {
            self.focus(id);
            return self.on_adapter_closed();
        }
        let name = self.conn_by_id(id).map(|c| c.name.clone());
        if self
            .conn_by_id(id)
            .is_some_and(|c| c.state != ConnState::Ended)
        {
            let name = name.unwrap_or_default();
            self.on_child_ended(
                id,
                Some(format!("the child session {name} closed its connection")),
                true,
            );
        }
    }

    /// Answers the `startDebugging` that connection `parent` sent.
    pub(super) fn start_child(&mut self, parent: u32, arguments: Value) {
        if matches!(self.snap.state, RunState::Exited | RunState::Error) {
            return;
        }
        let Some(parent_addr) = self
            .conn_by_id(parent)
            .filter(|c| c.state != ConnState::Ended)
            .map(|c| c.addr)
        else {
            return;
        };
        let spec = self.config.spec();
        let ctx = ChildContext {
            spec: &spec,
            parent_addr,
            remote_host: spec.remote_host().map(str::to_string),
        };
        let child = match self.config.adapter.child_connection(&ctx, &arguments) {
            Ok(c) => c,
            Err(err) => return self.child_note(format!("a child session could not start: {err}")),
        };
        if self.tree.others.is_empty()
            && let Some(note) = self.config.adapter.first_child_note()
            && !self.snap.info.iter().any(|i| i == note)
        {
            self.snap.info.push(note.to_string());
            self.push_output(Stream::Console, &format!("{note}\n"));
            self.dirty = true;
        }
        let id = self.tree.next_id();
        self.tree.others.insert(
            id,
            Conn {
                id,
                parent: Some(parent),
                name: child.name,
                ..Conn::default()
            },
        );
        self.publish_children();
        let timeout = self.config.request_timeout;
        let start = child.start;
        let connect = match opening::open(child.transport, timeout, false) {
            Opening::Ready(reader, writer) => return self.begin(id, reader, writer, start),
            Opening::Later(connect) => connect,
        };
        let delay = test_child_delay();
        self.spawn(async move {
            if let Some(d) = delay {
                tokio::time::sleep(d).await;
            }
            let stream = connect.await;
            Box::new(move |e: &mut Engine| {
                if e.conn_by_id(id).is_none_or(|c| c.state == ConnState::Ended) {
                    return;
                }
                match stream {
                    Ok((addr, stream)) => e.begin_connected(id, addr, stream, start),
                    Err(err) => e.conn_failed(id, format!("cannot reach it: {err}")),
                }
            }) as Apply
        });
    }

    /// A connection's start failed: the root's failure is the session's.
    pub(super) fn conn_failed(&mut self, id: u32, message: String) {
        if id == self.tree.root {
            return self.fail(message);
        }
        let name = self
            .conn_by_id(id)
            .map(|c| c.name.clone())
            .unwrap_or_default();
        self.on_child_ended(
            id,
            Some(format!("the child session {name} failed: {message}")),
            false,
        );
    }

    /// A child ended: it is let go, and the focus moves off it.
    /// `closed`: its connection closed without a `terminated`, as when
    /// the whole adapter died.
    pub(super) fn on_child_ended(&mut self, id: u32, note: Option<String>, closed: bool) {
        let Some(c) = self.conn_by_id_mut(id) else {
            return;
        };
        if c.state == ConnState::Ended {
            return;
        }
        c.state = ConnState::Ended;
        if let Some(client) = c.client.take() {
            let args = self.disconnect_arguments();
            tokio::spawn(async move {
                let _ = client
                    .request_with_timeout("disconnect", Some(args), CHILD_DISCONNECT)
                    .await;
            });
        }
        if let Some(n) = note {
            self.child_note(n);
        }
        if self.conn.id == id {
            if closed {
                self.refocus_once_root_answers(id);
            } else {
                self.refocus(id);
            }
        }
        self.publish_children();
    }

    /// Something about a child the person and the agent should see.
    fn child_note(&mut self, text: String) {
        tracing::warn!("{text}");
        self.push_output(Stream::Console, &format!("{text}\n"));
        self.touch(None, text);
    }

    /// Shows the stop the focused connection holds, read afresh.
    pub(super) fn show_held_stop(&mut self) {
        let Some(by) = self.conn.stopped_by.clone() else {
            return;
        };
        self.conn.thread_id = by.thread_id;
        self.load_stop(StopRequest {
            thread_id: by.thread_id,
            reason: by.reason,
            description: by.description,
            text: by.text,
            watches: self.watch_list(),
            thread_note: None,
            hints: self.conn.hints.clone(),
            exception: by.exception,
            stack: None,
        });
    }

    /// After a resume: another process still stopped is shown next.
    pub(super) fn show_other_stop(&mut self) {
        let other = self
            .tree
            .others
            .values()
            .filter(|c| c.state == ConnState::Stopped && c.stopped_by.is_some())
            .map(|c| c.id)
            .max();
        if let Some(id) = other {
            self.focus(id);
            self.show_held_stop();
        }
    }

    /// Every connection's client, leaves before their parents and the root
    /// last, and every process: the whole tree, to let go.
    pub(super) fn take_tree(&mut self) -> (Vec<Link>, Vec<AdapterProcess>) {
        let depth = |e: &Engine, mut id: u32| {
            let mut d = 0;
            while let Some(p) = e.conn_by_id(id).and_then(|c| c.parent) {
                d += 1;
                id = p;
            }
            d
        };
        let mut ids: Vec<(usize, u32)> = std::iter::once(self.conn.id)
            .chain(self.tree.others.keys().copied())
            .map(|id| (depth(self, id), id))
            .collect();
        ids.sort_by(|a, b| b.cmp(a));
        let mut clients = vec![];
        let mut processes = vec![];
        for (_, id) in ids {
            if let Some(c) = self.conn_by_id_mut(id) {
                clients.extend(c.client.take());
                processes.extend(c.process.take());
            }
        }
        (clients, processes)
    }
}
