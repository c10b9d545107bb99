//! The profile's own record of its sessions. mcp-debugger makes a session
//! before it has a program ("created"), and takes breakpoints for it then;
//! the registry only holds sessions that run something. So a created
//! session lives here until `start_debugging` launches it, and afterwards
//! this table only maps its UUID to the engine's session id.

use crate::sync::Locked;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::session::BreakpointRequest;

/// A breakpoint set before the program started, passed to the launch.
#[derive(Debug, Clone)]
pub struct Pending {
    /// The breakpointId set_breakpoint answered.
    pub id: String,
    pub request: BreakpointRequest,
}

/// What a `variablesReference` handed to the client names: a container
/// the engine can read again by frame, scope and path.
#[derive(Debug, Clone)]
pub struct Handle {
    pub frame_index: usize,
    /// None: the frame's locals.
    pub scope: Option<String>,
    /// None: the scope itself.
    pub path: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub id: String,
    pub name: String,
    pub language: String,
    pub executable: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    pub pending: Vec<Pending>,
    /// The engine's session id, once started.
    pub engine: Option<String>,
    /// The breakpointIds given before the start, by the engine's id of the
    /// breakpoint each became.
    pub aliases: Vec<(String, u64)>,
}

/// References are valid for one stop, as DAP's are.
#[derive(Default)]
struct Refs {
    stop_seq: u64,
    map: HashMap<i64, Handle>,
}

#[derive(Default)]
struct Inner {
    entries: Vec<Entry>,
    refs: HashMap<String, Refs>,
    next_ref: i64,
}

/// Shared by every connection of one server (the HTTP app makes one
/// handler per client), so a session made by one client is seen by all.
#[derive(Clone, Default)]
pub struct Table {
    inner: Arc<Mutex<Inner>>,
}

/// Sessions that may wait here without a program; the registry caps the
/// running ones.
pub const MAX_CREATED: usize = 16;

impl Table {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.locked()
    }

    /// False when too many sessions wait without a program.
    pub fn insert(&self, e: Entry) -> bool {
        let mut g = self.lock();
        if g.entries.iter().filter(|e| e.engine.is_none()).count() >= MAX_CREATED {
            return false;
        }
        g.entries.push(e);
        true
    }

    pub fn get(&self, id: &str) -> Option<Entry> {
        self.lock().entries.iter().find(|e| e.id == id).cloned()
    }

    pub fn all(&self) -> Vec<Entry> {
        self.lock().entries.clone()
    }

    /// The entry whose engine session is `engine`.
    pub fn by_engine(&self, engine: &str) -> Option<Entry> {
        self.lock()
            .entries
            .iter()
            .find(|e| e.engine.as_deref() == Some(engine))
            .cloned()
    }

    pub fn update(&self, id: &str, f: impl FnOnce(&mut Entry)) {
        if let Some(e) = self.lock().entries.iter_mut().find(|e| e.id == id) {
            f(e);
            e.updated_at = super::clock::now();
        }
    }

    /// Marks a created session as starting (an empty engine id), once: a
    /// second start, at the same time or later, is refused.
    pub fn claim(&self, id: &str) -> Result<Entry, &'static str> {
        let mut g = self.lock();
        let e = g
            .entries
            .iter_mut()
            .find(|e| e.id == id)
            .ok_or("Managed session not found")?;
        if e.engine.is_some() {
            return Err("Session already started");
        }
        e.engine = Some(String::new());
        Ok(e.clone())
    }

    pub fn remove(&self, id: &str) -> Option<Entry> {
        let mut g = self.lock();
        let at = g.entries.iter().position(|e| e.id == id)?;
        let e = g.entries.remove(at);
        if let Some(engine) = &e.engine {
            g.refs.remove(engine);
        }
        Some(e)
    }

    /// A new reference for `h` at the engine session's stop `stop_seq`;
    /// those of earlier stops are forgotten.
    pub fn reference(&self, engine: &str, stop_seq: u64, h: Handle) -> i64 {
        let mut g = self.lock();
        g.next_ref += 1;
        let n = g.next_ref;
        let refs = g.refs.entry(engine.to_string()).or_default();
        if refs.stop_seq != stop_seq {
            refs.map.clear();
            refs.stop_seq = stop_seq;
        }
        refs.map.insert(n, h);
        n
    }

    /// What `reference` names at stop `stop_seq`, if it was handed out there.
    pub fn resolve(&self, engine: &str, stop_seq: u64, reference: i64) -> Option<Handle> {
        let g = self.lock();
        let refs = g.refs.get(engine)?;
        (refs.stop_seq == stop_seq)
            .then(|| refs.map.get(&reference).cloned())
            .flatten()
    }
}
