//! The arguments of caller frames, for the call stack's `f(a=1)` lines.
//!
//! debugpy derives a frame's locals reference from the frame itself and never
//! reuses it for another, so a frame seen at an earlier stop (as the top or a
//! caller) has its locals asked for at once, alongside the stack, with no
//! `scopes` round trip. Frames whose `def` has no parameters cost nothing.

use std::future::Future;
use std::pin::Pin;

use futures::future::join_all;

use super::reads::{frame_locals, variables};
use super::signature::parameters;
use super::sources::{SharedSourceCache, SourceCache};
use super::types::{CallerLocals, Frame, StopInfo, Var};
use crate::dap::{DapClient, DapError};

/// Caller frames read per stop: the viewport shows five frames by default.
pub const CALLER_FRAMES: usize = 4;

type VarsFuture = Pin<Box<dyn Future<Output = Result<Vec<Var>, DapError>> + Send>>;

/// What the previous stop revealed, to send the next stop's reads early.
#[derive(Debug, Clone, Default)]
pub struct StopHints {
    /// The top frame's id. Stepping usually stays in that frame, and
    /// debugpy keeps a frame's id for its lifetime, so its scopes are asked
    /// for alongside the stack: one round trip saved.
    pub frame: Option<i64>,
    /// The top frame's locals reference, used only if the scopes agree.
    pub locals: Option<i64>,
    /// (name, variablesReference) of the locals previewed; their children
    /// are asked for in the same batch, on the same terms.
    pub previews: Vec<(String, i64)>,
    /// (frame id, locals reference) of every frame whose locals were read.
    pub frames: Vec<(i64, i64)>,
}

impl StopHints {
    pub fn from_stop(stop: &StopInfo) -> Self {
        let top = stop.frames.first().map(|f| f.id);
        let locals = Some(stop.locals_reference).filter(|r| *r > 0);
        let mut frames: Vec<(i64, i64)> = stop
            .callers
            .iter()
            .map(|c| (c.frame_id, c.reference))
            .collect();
        if let (Some(t), Some(r)) = (top, locals) {
            frames.push((t, r));
        }
        StopHints {
            frame: top,
            locals,
            previews: stop
                .locals
                .iter()
                .filter(|v| v.children.is_some())
                .map(|v| (v.name.clone(), v.reference))
                .collect(),
            frames,
        }
    }
}

/// Early reads of the frames the hints name, bar the expected top frame,
/// whose locals are read on their own.
pub fn speculate(client: &DapClient, hints: &StopHints) -> Vec<(i64, i64, VarsFuture)> {
    hints
        .frames
        .iter()
        .filter(|(id, _)| Some(*id) != hints.frame)
        .map(|&(id, r)| (id, r, Box::pin(variables(client, r)) as VarsFuture))
        .collect()
}

/// The locals of the callers among the first frames whose functions take
/// parameters, all read at once.
pub async fn read(
    client: &DapClient,
    frames: &[Frame],
    sources: &SharedSourceCache,
    mut early: Vec<(i64, i64, VarsFuture)>,
) -> Vec<CallerLocals> {
    let wanted: Vec<&Frame> = frames
        .iter()
        .skip(1)
        .take(CALLER_FRAMES)
        .filter(|f| takes_parameters(f, sources))
        .collect();
    let reads = wanted.iter().map(|f| {
        let ready = early
            .iter()
            .position(|(id, _, _)| *id == f.id)
            .map(|k| early.swap_remove(k));
        let client = client.clone();
        let id = f.id;
        async move {
            let early = match ready {
                Some((_, r, fut)) => fut.await.ok().map(|vars| (vars, r)),
                None => None,
            };
            // A caller's arguments are a garnish: a failed read leaves the
            // names alone rather than failing the stop.
            let (vars, reference) = match early {
                Some(read) => read,
                None => frame_locals(&client, id).await.ok()?,
            };
            Some(CallerLocals {
                frame_id: id,
                reference,
                vars,
            })
        }
    });
    join_all(reads).await.into_iter().flatten().collect()
}

fn takes_parameters(f: &Frame, sources: &SharedSourceCache) -> bool {
    !f.name.starts_with('<')
        && f.file
            .as_deref()
            .and_then(|p| SourceCache::get(sources, p))
            .and_then(|src| parameters(&src, &f.name, f.line))
            .is_some_and(|p| !p.is_empty())
}

/// A caller's argument is often the very object a local of the top frame
/// holds (debugpy gives one object one reference): it borrows the children
/// read for that local, so both render alike at no cost.
pub fn share_previews(mut callers: Vec<CallerLocals>, top: &[Var]) -> Vec<CallerLocals> {
    for v in callers.iter_mut().flat_map(|c| c.vars.iter_mut()) {
        if v.children.is_none()
            && v.reference > 0
            && let Some(t) = top
                .iter()
                .find(|t| t.reference == v.reference && t.children.is_some())
        {
            v.children = t.children.clone();
        }
    }
    callers
}
