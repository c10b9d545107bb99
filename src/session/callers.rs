//! The arguments of caller frames, for the call stack's `f(a=1)` lines. A
//! frame seen at an earlier stop has its locals read early (see hints.rs);
//! frames whose `def` has no parameters cost nothing.

use futures::future::join_all;

use super::hints::Early;
use super::link::Link;
use super::reads::frame_locals;
use super::types::{CallerLocals, Frame, Var};

/// Caller frames read per stop: the viewport shows five frames by default.
pub const CALLER_FRAMES: usize = 4;

/// The locals of the callers among the first frames whose functions take
/// parameters, all read at once.
pub async fn read(client: &Link, frames: &[Frame], mut early: Early) -> Vec<CallerLocals> {
    let wanted: Vec<&Frame> = frames
        .iter()
        .skip(1)
        .take(CALLER_FRAMES)
        .filter(|f| f.params.as_ref().is_some_and(|p| !p.is_empty()))
        .collect();
    let reads = wanted.iter().map(|f| {
        let ready = early.take_locals(f.id);
        let client = client.clone();
        let id = f.id;
        let function = f.name.clone();
        let params = f.params.clone().unwrap_or_default();
        async move {
            let early = match ready {
                Some(e) => e.vars.await.ok().map(|vars| (vars, e.reference)),
                None => None,
            };
            // A caller's arguments are a garnish: a failed read leaves the
            // names alone rather than failing the stop.
            let (mut vars, reference) = match early {
                Some(read) => read,
                None => frame_locals(&client, id).await.ok()?,
            };
            super::reads::declared_in(&client, &function, &mut vars);
            let vars = compose_params(&client, vars, &params).await;
            Some(CallerLocals {
                frame_id: id,
                reference,
                vars,
            })
        }
    });
    join_all(reads).await.into_iter().flatten().collect()
}

/// The parameters among a caller's locals, with their text composed where
/// the adapter sends them as a shell around their parts.
async fn compose_params(client: &Link, vars: Vec<Var>, params: &[String]) -> Vec<Var> {
    let (mut shown, rest): (Vec<Var>, Vec<Var>) =
        vars.into_iter().partition(|v| params.contains(&v.name));
    super::compose::compose(client, &mut shown).await;
    shown.extend(rest);
    shown
}

/// A caller's argument is often the very object a local of the top frame
/// holds (an adapter that gives one object one reference): it borrows the children
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
