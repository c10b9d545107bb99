//! What the server tells a client unasked: `notifications/resources/updated`
//! for the resources it subscribed to, and `debugger/breakpointHit` and
//! `debugger/sessionStateChanged` to a client that asked for them. Clients
//! that do not know our methods log each one as a malformed message, so
//! they go only to one that declared the `debugger/notifications`
//! capability at initialize (under `experimental` or `extensions`) or
//! subscribed to `debugger://notifications`, and only about the sessions
//! it drives or subscribed to. One pusher per client connection.

use crate::sync::Locked;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};

use rmcp::model::{CustomNotification, ResourceUpdatedNotificationParam, ServerNotification};
use rmcp::{Peer, RoleServer};
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use crate::session::hits::{BreakpointHit, HitKind};
use crate::session::types::{RunState, Snapshot};
use crate::session::{Registry, SessionEvent};
use crate::viewport::redact::Taint;

pub const BREAKPOINT_HIT: &str = "debugger/breakpointHit";
type TraceSource = std::sync::Arc<std::sync::Mutex<crate::session::trace::TraceLog>>;

pub const STATE_CHANGED: &str = "debugger/sessionStateChanged";

/// The capability, and the resource, that ask for our own notifications.
pub const OPT_IN: &str = "debugger/notifications";
pub const OPT_IN_URI: &str = "debugger://notifications";

/// Hits kept per session for the trace resource.
const TRACE_KEPT: usize = 1000;

/// A connection's subscriptions and the hits it has seen.
#[derive(Default)]
pub struct Push {
    subscriptions: Mutex<HashSet<String>>,
    started: std::sync::atomic::AtomicBool,
    /// Until the session keeps a trace log of its own, the hits this
    /// connection saw, newest last, per session. Kept as JSON text: a
    /// `Value` tree of a hit takes some five times the memory.
    traces: Mutex<HashMap<String, VecDeque<Box<str>>>>,
    /// Set by `--no-redact`: hits are pushed unmasked.
    no_redact: bool,
    /// The client declared `OPT_IN` at initialize.
    declared: std::sync::atomic::AtomicBool,
    /// The sessions this connection started or called on.
    driven: Mutex<HashSet<String>>,
}

impl Push {
    pub fn new(redact: bool) -> Self {
        Push {
            no_redact: !redact,
            ..Default::default()
        }
    }

    pub fn subscribe(&self, uri: String) {
        self.subscriptions.locked().insert(uri);
    }

    pub fn unsubscribe(&self, uri: &str) {
        self.subscriptions.locked().remove(uri);
    }

    fn subscribed(&self, uri: &str) -> bool {
        self.subscriptions.locked().contains(uri)
    }

    pub fn drive(&self, session: &str) {
        self.driven.locked().insert(session.to_string());
    }

    /// Whether our own notifications about `session` go to this client.
    fn wants(&self, session: &str) -> bool {
        let asked =
            self.declared.load(std::sync::atomic::Ordering::SeqCst) || self.subscribed(OPT_IN_URI);
        asked && (self.driven.locked().contains(session) || self.follows(session))
    }

    /// Subscribed to one of `session`'s resources.
    fn follows(&self, session: &str) -> bool {
        let own = format!("debugger://session/{session}");
        self.subscriptions
            .locked()
            .iter()
            .any(|u| u == &own || u.strip_prefix(&own).is_some_and(|r| r.starts_with('/')))
    }

    async fn notify(&self, peer: &Peer<RoleServer>, session: &str, method: &str, params: Value) {
        if self.wants(session) {
            notify(peer, method, params).await;
        }
    }

    pub fn trace(&self, session: &str) -> Vec<Value> {
        self.traces
            .locked()
            .get(session)
            .map(|t| {
                t.iter()
                    .filter_map(|h| serde_json::from_str(h).ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    fn record(&self, session: &str, hit: &Value) {
        let mut g = self.traces.locked();
        let t = g.entry(session.to_string()).or_default();
        t.push_back(hit.to_string().into_boxed_str());
        while t.len() > TRACE_KEPT {
            t.pop_front();
        }
    }

    /// Starts following the registry for `peer`, once per connection.
    pub fn start(self: &Arc<Self>, registry: Registry, peer: Peer<RoleServer>) {
        if self.started.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let declared = peer.peer_info().is_some_and(|i| {
            let c = &i.capabilities;
            c.experimental
                .as_ref()
                .is_some_and(|m| m.contains_key(OPT_IN))
                || c.extensions
                    .as_ref()
                    .is_some_and(|m| m.contains_key(OPT_IN))
        });
        self.declared
            .store(declared, std::sync::atomic::Ordering::SeqCst);
        let push = self.clone();
        tokio::spawn(async move { push.follow_registry(registry, peer).await });
    }

    async fn follow_registry(self: Arc<Self>, registry: Registry, peer: Peer<RoleServer>) {
        let mut current = registry.watch_current();
        let mut followed: HashMap<String, tokio::task::JoinHandle<()>> = HashMap::new();
        loop {
            let (list, _) = registry.list();
            let before = followed.len();
            followed.retain(|id, task| {
                let keep = list.iter().any(|s| &s.id == id) || !task.is_finished();
                if !keep {
                    task.abort();
                }
                keep
            });
            let mut changed = followed.len() != before;
            let new: Vec<_> = list
                .iter()
                .filter(|s| !followed.contains_key(&s.id))
                .collect();
            for s in new {
                // Only the receiver and a snapshot are kept: a handle here
                // would keep an ended session's engine alive.
                let events = s.subscribe();
                let snap = s.snapshot();
                let trace = s.trace_log();
                let task =
                    tokio::spawn(
                        self.clone()
                            .follow_session(peer.clone(), snap, events, trace),
                    );
                followed.insert(s.id.clone(), task);
                changed = true;
            }
            if changed {
                self.resource_updated(&peer, "debugger://sessions").await;
            }
            if current.changed().await.is_err() || peer.is_transport_closed() {
                break;
            }
        }
        for task in followed.values() {
            task.abort();
        }
    }

    async fn follow_session(
        self: Arc<Self>,
        peer: Peer<RoleServer>,
        first: Arc<Snapshot>,
        mut events: tokio::sync::broadcast::Receiver<SessionEvent>,
        trace: TraceSource,
    ) {
        let id = first.session_id.clone();
        let mut seen = Seen::default();
        let mut next_trace = trace.locked().end();
        self.on_snapshot(&peer, &mut seen, &first).await;
        loop {
            match events.recv().await {
                Ok(SessionEvent::Published(snap)) => {
                    self.on_snapshot(&peer, &mut seen, &snap).await
                }
                // Tracepoint hits are pushed from the trace log, which a
                // reader that fell behind the event stream can still read;
                // a stop's hit comes with its snapshot.
                Ok(SessionEvent::TraceHit(r)) if r.seq >= next_trace => {
                    next_trace = self.push_trace(&peer, &id, &seen, &trace, next_trace).await;
                }
                Ok(SessionEvent::Output) => {
                    self.resource_updated(&peer, &format!("debugger://session/{id}/output"))
                        .await;
                }
                Ok(_) => {}
                // Epochs were missed; the next snapshot says where it is.
                Err(RecvError::Lagged(n)) => {
                    tracing::warn!("{n} session events not pushed");
                    next_trace = self.push_trace(&peer, &id, &seen, &trace, next_trace).await;
                }
                Err(RecvError::Closed) => break,
            }
            if peer.is_transport_closed() {
                break;
            }
        }
    }

    async fn on_snapshot(&self, peer: &Peer<RoleServer>, seen: &mut Seen, snap: &Snapshot) {
        if seen.epoch.is_some_and(|e| snap.epoch <= e) {
            return;
        }
        let id = &snap.session_id;
        seen.workspace = Some(snap.workspace.clone());
        seen.taint = snap.taint.clone();
        seen.templates = snap
            .breakpoints
            .iter()
            .filter_map(|b| Some((b.id, b.log_message.clone()?)))
            .collect();
        let previous = seen.state.replace(snap.state);
        seen.epoch = Some(snap.epoch);
        let mut state = state_changed(snap, previous);
        if !self.no_redact
            && let Some(c) = state["change"].as_str()
        {
            state["change"] = json!(crate::viewport::redact::text(c, &snap.taint));
        }
        self.notify(peer, id, STATE_CHANGED, state).await;
        if snap.state == RunState::Stopped && snap.stop_seq > seen.stop_seq {
            seen.stop_seq = snap.stop_seq;
            if let Some(hit) = snap.stop.as_ref().and_then(|s| s.hit.as_ref()) {
                self.on_hit(peer, id, &snap.workspace, hit, None, &snap.taint)
                    .await;
            }
        }
        if previous != Some(snap.state) {
            self.resource_updated(peer, "debugger://sessions").await;
        }
        self.resource_updated(peer, &format!("debugger://session/{id}"))
            .await;
        let bps = serde_json::to_string(&snap.breakpoints).unwrap_or_default();
        if seen.breakpoints.as_deref() != Some(bps.as_str()) {
            seen.breakpoints = Some(bps);
            self.resource_updated(peer, &format!("debugger://session/{id}/breakpoints"))
                .await;
        }
    }

    /// Pushes every trace record from `next` on, in order; returns the
    /// cursor past them.
    async fn push_trace(
        &self,
        peer: &Peer<RoleServer>,
        session: &str,
        seen: &Seen,
        trace: &TraceSource,
        next: u64,
    ) -> u64 {
        let Some(ws) = seen.workspace.clone() else {
            return next;
        };
        let read = trace.locked().read(next, usize::MAX);
        for r in read.records {
            let mut hit = BreakpointHit::tracepoint(
                r.breakpoint_id,
                std::path::PathBuf::from(&r.file),
                r.line,
                0,
                r.hit,
                r.message,
            );
            hit.timestamp = r.timestamp;
            let template = seen.templates.get(&r.breakpoint_id).cloned();
            self.on_hit(peer, session, &ws, &hit, template.as_deref(), &seen.taint)
                .await;
        }
        read.next
    }

    async fn on_hit(
        &self,
        peer: &Peer<RoleServer>,
        session: &str,
        workspace: &std::path::Path,
        hit: &BreakpointHit,
        template: Option<&str>,
        taint: &Taint,
    ) {
        let mut hit = hit.clone();
        if !self.no_redact {
            crate::viewport::redact::hit(&mut hit, template, taint);
        }
        let hit = &hit;
        let params = hit_params(session, workspace, hit);
        self.record(session, &params);
        self.notify(peer, session, BREAKPOINT_HIT, params).await;
        if hit.kind == HitKind::Tracepoint {
            self.resource_updated(peer, &format!("debugger://session/{session}/trace"))
                .await;
        }
    }

    async fn resource_updated(&self, peer: &Peer<RoleServer>, uri: &str) {
        if self.subscribed(uri) {
            let _ = peer
                .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                .await;
        }
    }
}

/// What a session's follower has told the client so far.
#[derive(Default)]
struct Seen {
    epoch: Option<u64>,
    state: Option<RunState>,
    stop_seq: u64,
    breakpoints: Option<String>,
    workspace: Option<std::path::PathBuf>,
    /// Tracepoints' messages as written, to find the values in their hits.
    templates: HashMap<u64, String>,
    /// The session's secrets, masked in what is pushed.
    taint: Taint,
}

async fn notify(peer: &Peer<RoleServer>, method: &str, params: Value) {
    let n = CustomNotification::new(method, Some(params));
    if let Err(e) = peer
        .send_notification(ServerNotification::CustomNotification(n))
        .await
    {
        tracing::debug!("{method} not sent: {e}");
    }
}

/// A hit as the reference names its fields, its path workspace-relative.
pub fn hit_params(session: &str, workspace: &std::path::Path, hit: &BreakpointHit) -> Value {
    let mut v = serde_json::to_value(hit).unwrap_or_default();
    if let Some(f) = hit.location.file.as_deref() {
        v["location"]["file"] = json!(f.strip_prefix(workspace).unwrap_or(f).display().to_string());
    }
    v["sessionId"] = json!(session);
    v
}

fn state_changed(snap: &Snapshot, previous: Option<RunState>) -> Value {
    let top = snap.stop.as_ref().and_then(|s| s.frames.first());
    json!({
        "sessionId": snap.session_id,
        "epoch": snap.epoch,
        "state": snap.state,
        "previousState": previous,
        "stopSeq": snap.stop_seq,
        "reason": snap.stop.as_ref().map(|s| s.reason.clone()),
        "location": top.map(|f| json!({
            "file": f.file.as_deref().map(|p| snap.display_path(p)),
            "line": f.line,
            "functionName": f.name,
        })),
        "exitCode": snap.exit.as_ref().and_then(|e| e.exit_code),
        "change": snap.changes.last().filter(|c| c.epoch == snap.epoch).map(|c| c.what.clone()),
    })
}
