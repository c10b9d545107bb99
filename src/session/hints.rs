//! What one stop reveals that lets the next one send its reads early.
//!
//! Some adapters (see `Quirks::stable_frame_references`) derive a frame's
//! id and its locals reference from the frame itself and never hand them to
//! another frame, and an object keeps its reference while it lives. So the frames and values read at one stop are
//! asked for again at the next in the same batch as the stack, and each early
//! answer counts only if the new stack shows the same frame (or the new
//! locals the same reference). Stepping within a frame then needs no
//! `scopes` round trip at all.

use std::future::Future;
use std::pin::Pin;

use super::link::Link;
use super::reads::variables;
use super::types::{StopInfo, Var};
use crate::dap::DapError;

pub type VarsFuture = Pin<Box<dyn Future<Output = Result<Vec<Var>, DapError>> + Send>>;

#[derive(Debug, Clone, Default)]
pub struct StopHints {
    /// (frame id, locals reference) of every frame whose locals were read,
    /// the top frame first.
    pub frames: Vec<(i64, i64)>,
    /// (name, variablesReference) of the top frame's locals read for previews.
    pub previews: Vec<(String, i64)>,
}

/// A frame's locals, asked for before the stack says the frame is there.
pub struct EarlyLocals {
    pub frame_id: i64,
    pub reference: i64,
    pub vars: VarsFuture,
}

/// The early reads of a stop, all on the wire.
pub struct Early {
    pub locals: Vec<EarlyLocals>,
    /// (name, reference, children) for the previews.
    pub previews: Vec<(String, i64, VarsFuture)>,
}

impl Early {
    /// The early read of `frame_id`'s locals, if one was sent.
    pub fn take_locals(&mut self, frame_id: i64) -> Option<EarlyLocals> {
        let k = self.locals.iter().position(|e| e.frame_id == frame_id)?;
        Some(self.locals.swap_remove(k))
    }
}

impl StopHints {
    /// Nothing, where the adapter does not promise stable references: an
    /// early read could then show another frame's values.
    pub fn from_stop(stop: &StopInfo, stable_references: bool) -> Self {
        if !stable_references {
            return StopHints::default();
        }
        let top = stop
            .frames
            .first()
            .map(|f| f.id)
            .zip(Some(stop.locals_reference).filter(|r| *r > 0));
        StopHints {
            frames: top
                .into_iter()
                .chain(stop.callers.iter().map(|c| (c.frame_id, c.reference)))
                .collect(),
            previews: stop
                .locals
                .iter()
                .filter(|v| v.children.is_some())
                .map(|v| (v.name.clone(), v.reference))
                .collect(),
        }
    }

    /// Sends the early reads: the top frame's locals, its previews, then the
    /// callers' locals, in that order, since some adapters answer one at a time
    /// and the top frame matters most.
    pub fn send(&self, client: &Link) -> Early {
        let read = |&(frame_id, reference): &(i64, i64)| EarlyLocals {
            frame_id,
            reference,
            vars: Box::pin(variables(client, reference)),
        };
        // The top frame's listing goes first, to stand in for a scope that
        // misses its deadline.
        let top = |&(frame_id, reference): &(i64, i64)| {
            let listing = super::listed_locals::send(client, frame_id);
            let vars = variables(client, reference);
            EarlyLocals {
                frame_id,
                reference,
                vars: Box::pin(async move { listing.or_listed(vars.await).await }),
            }
        };
        let mut locals: Vec<EarlyLocals> = self.frames.first().map(top).into_iter().collect();
        let previews = self
            .previews
            .iter()
            .map(|(name, r)| {
                (
                    name.clone(),
                    *r,
                    Box::pin(variables(client, *r)) as VarsFuture,
                )
            })
            .collect();
        locals.extend(self.frames.iter().skip(1).map(read));
        Early { locals, previews }
    }
}
