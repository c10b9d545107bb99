//! A session's connections: the root the engine spawned, and the children
//! an adapter asked for with `startDebugging`. The focused connection lives
//! in `Engine::conn`, where every command and stop finds it; the rest wait
//! here and trade places with it when the focus moves.

use std::collections::BTreeMap;

use super::Engine;
use super::connection::{Conn, ConnState};
use crate::dap::envelope::Event;
use crate::session::link::Link;
use crate::session::types::{ChildInfo, RunState};

/// What a connection's reader passes to the engine.
pub enum ConnMsg {
    Event(Event),
    /// The adapter closed this connection.
    Closed,
}

pub struct ConnTree {
    /// Every connection but the focused one, by id.
    pub others: BTreeMap<u32, Conn>,
    pub root: u32,
    next: u32,
}

impl Default for ConnTree {
    /// The root is connection 0, made with the engine.
    fn default() -> Self {
        ConnTree {
            others: BTreeMap::new(),
            root: 0,
            next: 1,
        }
    }
}

impl ConnTree {
    pub fn next_id(&mut self) -> u32 {
        let id = self.next;
        self.next += 1;
        id
    }
}

/// Where the focus goes when the focused connection ends: a stopped
/// connection (the newest), else the root. `conns` is (id, state).
pub fn focus_after_end(conns: &[(u32, ConnState)], ended: u32, root: u32) -> u32 {
    conns
        .iter()
        .filter(|(id, s)| *id != ended && *s == ConnState::Stopped)
        .map(|(id, _)| *id)
        .max()
        .unwrap_or(root)
}

/// Where the focus goes when a child is configured before any stop: with
/// `program_on_child`, the newest child, since the root only launches.
pub fn focus_on_configured(
    program_on_child: bool,
    any_stop: bool,
    focused: u32,
    child: u32,
) -> u32 {
    if program_on_child && !any_stop && child > focused {
        child
    } else {
        focused
    }
}

impl Engine {
    /// The connection with this id, wherever it is.
    pub(super) fn conn_by_id(&self, id: u32) -> Option<&Conn> {
        if self.conn.id == id {
            Some(&self.conn)
        } else {
            self.tree.others.get(&id)
        }
    }

    pub(super) fn conn_by_id_mut(&mut self, id: u32) -> Option<&mut Conn> {
        if self.conn.id == id {
            Some(&mut self.conn)
        } else {
            self.tree.others.get_mut(&id)
        }
    }

    /// Moves the focus to `id`; false if there is no such connection.
    pub(super) fn focus(&mut self, id: u32) -> bool {
        if self.conn.id == id {
            return true;
        }
        let Some(mut c) = self.tree.others.remove(&id) else {
            return false;
        };
        std::mem::swap(&mut self.conn, &mut c);
        self.tree.others.insert(c.id, c);
        true
    }

    /// Runs `f` with connection `id` in focus, then gives the focus back:
    /// the per-connection code reads `self.conn`. None if `id` is gone.
    pub(super) fn with_conn<R>(&mut self, id: u32, f: impl FnOnce(&mut Engine) -> R) -> Option<R> {
        let back = self.conn.id;
        if !self.focus(id) {
            return None;
        }
        let r = f(self);
        self.focus(back);
        Some(r)
    }

    /// Every connection's id and state, the focused one included.
    pub(super) fn conn_states(&self) -> Vec<(u32, ConnState)> {
        std::iter::once(&self.conn)
            .chain(self.tree.others.values())
            .map(|c| (c.id, c.state))
            .collect()
    }

    pub(super) fn has_children(&self) -> bool {
        !self.tree.others.is_empty() || self.conn.parent.is_some()
    }

    /// The live, configured connections with their clients: where
    /// breakpoints and filters go.
    pub(super) fn configured_links(&self) -> Vec<(u32, Link)> {
        std::iter::once(&self.conn)
            .chain(self.tree.others.values())
            .filter(|c| c.configured && c.state != ConnState::Ended)
            .filter_map(|c| Some((c.id, c.client.clone()?)))
            .collect()
    }

    /// Whether a connection other than the focused one verified breakpoint `id`.
    pub(super) fn verified_elsewhere(&self, id: u64) -> bool {
        self.tree
            .others
            .values()
            .any(|c| c.verified.get(&id) == Some(&true))
    }

    /// The name a stop's process goes by, when the session has children.
    pub(super) fn process_name(&self) -> Option<String> {
        if !self.has_children() {
            return None;
        }
        Some(conn_label(&self.conn))
    }

    /// Publishes the children in the snapshot.
    pub(super) fn publish_children(&mut self) {
        let mut children: Vec<ChildInfo> = self
            .tree
            .others
            .values()
            .chain(std::iter::once(&self.conn))
            .filter(|c| c.parent.is_some())
            .map(|c| ChildInfo {
                id: c.id,
                name: c.name.clone(),
                pid: c.pid,
                state: c.state.word().to_string(),
            })
            .collect();
        children.sort_by_key(|c| c.id);
        if children != self.snap.children {
            self.snap.children = children;
            self.dirty = true;
        }
    }

    /// The focused connection ended or went away: move the focus, and show
    /// the stop of the connection it lands on.
    pub(super) fn refocus(&mut self, ended: u32) {
        let next = focus_after_end(&self.conn_states(), ended, self.tree.root);
        if next == self.conn.id {
            return;
        }
        let was_stopped = self.snap.state == RunState::Stopped;
        self.focus(next);
        if self.conn.state == ConnState::Stopped {
            self.show_held_stop();
        } else if was_stopped {
            self.mark_running(None, "the stopped process ended");
        }
    }
}

/// A connection as people read it: its name and pid, or "main" for the root.
pub fn conn_label(c: &Conn) -> String {
    let name = if c.parent.is_none() {
        "main".to_string()
    } else {
        c.name.clone()
    };
    match c.pid {
        Some(pid) if !name.contains(&pid.to_string()) => format!("{name} (pid {pid})"),
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_focus_leaves_an_ended_child_for_a_stopped_one_else_the_root() {
        let conns = [
            (0, ConnState::Running),
            (1, ConnState::Stopped),
            (2, ConnState::Ended),
            (3, ConnState::Running),
        ];
        assert_eq!(focus_after_end(&conns, 2, 0), 1);
        let conns = [(0, ConnState::Running), (3, ConnState::Running)];
        assert_eq!(focus_after_end(&conns, 3, 0), 0);
    }

    #[test]
    fn a_configured_child_takes_the_focus_only_when_the_program_runs_on_it() {
        assert_eq!(focus_on_configured(true, false, 0, 1), 1);
        assert_eq!(focus_on_configured(false, false, 0, 1), 0);
        // A stop has been seen: the focus follows stops, not children.
        assert_eq!(focus_on_configured(true, true, 0, 1), 0);
    }
}
