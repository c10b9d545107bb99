//! What the agent last saw of each session: its viewport settings, the stop
//! to diff against, and the epoch, so results can say what moved meanwhile.

use crate::sync::Locked;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::Names;
use crate::session::types::{Origin, Snapshot, StopInfo};
use crate::viewport::{Extras, ViewportConfig, render_text, render_within};

#[derive(Default)]
pub struct AgentView {
    pub config: ViewportConfig,
    pub last_stop: Option<StopInfo>,
    pub last_epoch: u64,
    /// The newest breakpoint warning told.
    pub last_warning: u64,
    /// Calls and the diff mode choice, for turning diff mode on by itself.
    pub economy: Economy,
}

/// What turning diff mode on by itself needs to know of a session.
#[derive(Default)]
pub struct Economy {
    pub actions: u32,
    /// The agent set `diff_mode` itself, either way: leave it alone.
    pub chosen: bool,
    pub told: bool,
}

#[derive(Clone, Default)]
pub struct Views {
    inner: Arc<Mutex<HashMap<String, AgentView>>>,
    /// The session the agent's last result was about: the person can make
    /// another one current, and the agent must not mistake one for the other.
    last_session: Arc<Mutex<Option<String>>>,
    /// Set by `--no-redact`: secrets reach the agent unmasked.
    no_redact: bool,
}

impl Views {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, AgentView>> {
        self.inner.locked()
    }

    /// A sentence when this result is about another session than the last.
    fn session_switch(&self, snap: &Snapshot) -> Option<String> {
        let mut last = self.last_session.locked();
        let previous = last.replace(snap.session_id.clone())?;
        (previous != snap.session_id).then(|| {
            format!(
                "This result is about session {} ({}); your previous one was about session {previous}.",
                snap.session_id, snap.program
            )
        })
    }

    /// Views of their own for another client of the same server: what one
    /// agent last saw is no baseline for another's diffs or switches.
    pub fn for_another_client(&self) -> Self {
        Views::default().with_redaction(self.redacts())
    }

    pub fn with_redaction(mut self, on: bool) -> Self {
        self.no_redact = !on;
        self
    }

    pub fn redacts(&self) -> bool {
        !self.no_redact
    }

    /// The snapshot as the agent may see it.
    pub fn agent_snapshot<'a>(&self, snap: &'a Snapshot) -> std::borrow::Cow<'a, Snapshot> {
        if self.no_redact {
            std::borrow::Cow::Borrowed(snap)
        } else {
            std::borrow::Cow::Owned(crate::viewport::redact::snapshot(snap))
        }
    }

    /// Program output or other free text of a session (`taint`: its
    /// secrets) as the agent may see it.
    pub fn agent_text(&self, taint: &crate::viewport::redact::Taint, text: &str) -> String {
        if self.no_redact {
            text.to_string()
        } else {
            crate::viewport::redact::text(text, taint)
        }
    }

    pub fn set_config(&self, session: &str, cfg: ViewportConfig) {
        self.lock().entry(session.to_string()).or_default().config = cfg;
    }

    pub fn config(&self, session: &str) -> ViewportConfig {
        self.lock()
            .get(session)
            .map(|v| v.config.clone())
            .unwrap_or_default()
    }

    /// Renders a stop for the agent and remembers it as seen.
    pub fn viewport(&self, snap: &Snapshot, names: &Names) -> String {
        self.viewport_within(snap, None, names)
    }

    /// The viewport in `bytes` (default: the session's `max_tokens`), room
    /// left for the epoch footer.
    pub fn viewport_within(&self, snap: &Snapshot, bytes: Option<usize>, names: &Names) -> String {
        let snap = &*self.agent_snapshot(snap);
        let mut g = self.lock();
        let view = g.entry(snap.session_id.clone()).or_default();
        let extras = Extras {
            previous: view.last_stop.as_ref(),
            notes_after_epoch: view.last_epoch,
            more: Some(&names.more),
        };
        let bytes = bytes.or(view.config.max_tokens.map(|t| t * 4));
        let text = match bytes {
            Some(b) => {
                let footer = format!("\n[session {} · epoch {}]", snap.session_id, snap.epoch);
                render_within(snap, &view.config, extras, b.saturating_sub(footer.len()))
            }
            None => render_text(snap, &view.config, extras),
        };
        if let Some(s) = &snap.stop {
            view.last_stop = Some(s.clone());
        }
        text
    }

    /// A sentence on what others changed since the agent's last result, then
    /// marks the epoch as seen.
    pub fn since_last(&self, snap: &Snapshot) -> Option<String> {
        let said: Vec<String> = [
            self.session_switch(snap),
            self.changes_since_last(snap),
            self.new_warnings(snap),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!said.is_empty()).then(|| said.join("\n"))
    }

    /// Breakpoint warnings not yet told, each told once.
    fn new_warnings(&self, snap: &Snapshot) -> Option<String> {
        let mut g = self.lock();
        let view = g.entry(snap.session_id.clone()).or_default();
        let new: Vec<String> = snap
            .warnings
            .iter()
            .filter(|w| w.seq > view.last_warning)
            .map(|w| format!("Warning: {}.", w.text))
            .collect();
        if let Some(w) = snap.warnings.last() {
            view.last_warning = view.last_warning.max(w.seq);
        }
        (!new.is_empty()).then(|| new.join("\n"))
    }

    fn changes_since_last(&self, snap: &Snapshot) -> Option<String> {
        let mut g = self.lock();
        let view = g.entry(snap.session_id.clone()).or_default();
        let last = view.last_epoch;
        view.last_epoch = snap.epoch;
        if last == 0 || snap.epoch <= last {
            return None;
        }
        let mut others: Vec<(String, usize)> = vec![];
        for c in snap
            .changes
            .iter()
            .filter(|c| c.epoch > last && c.origin == Some(Origin::Human))
        {
            match others.last_mut() {
                Some((w, n)) if *w == c.what => *n += 1,
                _ => others.push((c.what.clone(), 1)),
            }
        }
        if others.is_empty() {
            return None;
        }
        let said: Vec<String> = others
            .into_iter()
            .map(|(w, n)| if n > 1 { format!("{w} ({n} times)") } else { w })
            .collect();
        Some(format!(
            "Since your last call (epoch {last} → {}): {}.",
            snap.epoch,
            said.join("; ")
        ))
    }

    /// Runs `f` on the agent's view of a session.
    pub fn with<T>(&self, session: &str, f: impl FnOnce(&mut AgentView) -> T) -> T {
        f(self.lock().entry(session.to_string()).or_default())
    }

    pub fn forget(&self, session: &str) {
        self.lock().remove(session);
    }
}
