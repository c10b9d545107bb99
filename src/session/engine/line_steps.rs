//! A line step that stops again on the line it started from, in the same
//! frame, steps on: a compiler may split a line into several statements
//! (Rust's overflow checks, as gdb steps them: `Quirks::same_line_steps`),
//! and a step over a line whose breakpoint has a location further on in
//! it (Rust's `?` returning early, on lldb-dap) meets that location. One
//! step over a line is one stop past it.

use serde_json::Value;

use super::{Apply, Engine};
use crate::adapters::Language;
use crate::dap::events::{DapEvent, Stopped};
use crate::session::native::parse_address;
use crate::session::types::StopInfo;

/// A step stands after this many stops on its own line: a loop on one
/// line ends somewhere.
const MAX_RESTEPS: u32 = 8;

/// Where a line step started.
#[derive(Debug, Clone)]
pub struct StepFrom {
    function: String,
    line: u64,
    thread_id: i64,
    /// The calling frame's function and line: a recursive call of the
    /// line's function is called from elsewhere.
    caller: Option<(String, u64)>,
    pc: Option<u64>,
    /// A step over, which a breakpoint further on in its line must not end.
    over: bool,
}

impl StepFrom {
    pub fn at(stop: &StopInfo, over: bool) -> Option<StepFrom> {
        let top = stop.frames.first()?;
        Some(StepFrom {
            function: top.name.clone(),
            line: top.line,
            thread_id: stop.thread_id,
            caller: stop.frames.get(1).map(|f| (f.name.clone(), f.line)),
            pc: top.pc,
            over,
        })
    }

    /// Whether `stop` may be on the step's own line and should be checked;
    /// `Some(true)` when only the same frame, further on, will do.
    pub fn steps_on(&self, stop: &Stopped, same_line_steps: bool) -> Option<bool> {
        if same_line_steps && stop.reason == "step" {
            return Some(false);
        }
        let same_thread = stop.thread_id.is_none_or(|t| t == self.thread_id);
        (self.over && same_thread && stop.reason == "breakpoint").then_some(true)
    }

    /// Whether a stackTrace's frames, named as the language reads them,
    /// begin where the step started. `strict`: called from the same place
    /// and at a later address, both as the adapter says them; what cannot
    /// be read is a different place.
    fn same_place(&self, frames: &[(String, u64, Option<u64>)], strict: bool) -> bool {
        let Some((function, line, pc)) = frames.first() else {
            return false;
        };
        if *function != self.function || *line != self.line {
            return false;
        }
        if !strict {
            return true;
        }
        let caller = frames.get(1).map(|(f, l, _)| (f.clone(), *l));
        let further = matches!((self.pc, *pc), (Some(from), Some(now)) if now > from);
        caller == self.caller && further
    }
}

impl Engine {
    /// Steps on from a stop on the step's own line; any other stop stands.
    pub(super) fn step_on_if_same_line(&mut self, from: StepFrom, s: Stopped, strict: bool) {
        let Some(client) = self.conn.client.clone() else {
            return;
        };
        let conn = self.conn.id;
        let thread = s.thread_id.unwrap_or(self.conn.thread_id);
        // The whole stop's stack, not just its top: a stop that stands reads
        // it next, and is spared that round trip.
        let fut = client.request(
            "stackTrace",
            Some(crate::session::fetch::stack_arguments(thread)),
        );
        self.spawn(async move {
            let body = fut.await.ok();
            Box::new(move |e: &mut Engine| {
                let language = e.config.adapter.language();
                let frames = body
                    .as_ref()
                    .map(|b| places(b, language))
                    .unwrap_or_default();
                let same = from.same_place(&frames, strict);
                let Some(c) = e.conn_by_id_mut(conn) else {
                    return;
                };
                if same && c.same_line_resteps < MAX_RESTEPS {
                    c.same_line_resteps += 1;
                    c.step_from = Some(from);
                    let command = c.step_kind.dap_command();
                    e.with_conn(conn, |e| e.send_resume(command));
                    return;
                }
                // As any stop of its connection, now without the check.
                c.stops_seen -= 1;
                c.checked_stack = body;
                e.on_conn_event(conn, DapEvent::Stopped(s));
            }) as Apply
        });
    }
}

/// A stackTrace answer's frames as (function, line, address).
fn places(body: &Value, language: &dyn Language) -> Vec<(String, u64, Option<u64>)> {
    let frames = body.get("stackFrames").and_then(Value::as_array);
    frames
        .into_iter()
        .flatten()
        .map_while(|f| {
            let name = language.frame_name(f.get("name")?.as_str()?);
            let line = f.get("line")?.as_u64()?;
            let pc = f
                .get("instructionPointerReference")
                .and_then(Value::as_str)
                .and_then(parse_address);
            Some((name, line, pc))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(pc: Option<u64>) -> StepFrom {
        StepFrom {
            function: "main::run".into(),
            line: 8,
            thread_id: 1,
            caller: Some(("main::main".into(), 15)),
            pc,
            over: true,
        }
    }

    fn at(pc: Option<u64>, caller: (&str, u64)) -> Vec<(String, u64, Option<u64>)> {
        vec![
            ("main::run".into(), 8, pc),
            (caller.0.into(), caller.1, None),
        ]
    }

    #[test]
    fn only_a_later_address_in_the_same_call_steps_on_strictly() {
        let f = from(Some(0x100));
        assert!(f.same_place(&at(Some(0x180), ("main::main", 15)), true));
        // The line entered again, or the function called from its own line.
        assert!(!f.same_place(&at(Some(0x100), ("main::main", 15)), true));
        assert!(!f.same_place(&at(Some(0x180), ("main::run", 8)), true));
        assert!(!f.same_place(&at(None, ("main::main", 15)), true));
        assert!(!from(None).same_place(&at(Some(0x180), ("main::main", 15)), true));
        // A split line's step stop needs only the line.
        assert!(f.same_place(&at(None, ("main::run", 8)), false));
        assert!(!f.same_place(&[], false));
    }
}
