//! Tracepoints are the adapter's logpoints, each message tagged with its
//! tracepoint's id. The adapter evaluates the message in the program and
//! lets it run on, so a hit costs no round trip (an engine-side breakpoint
//! that evaluates and continues would cost a stop, a stack read, an
//! evaluate and a continue per hit); the tagged lines arrive in the order
//! the program made them, on the adapter's one ordered stream, and are
//! taken out of the program's output into the trace log.

use super::breakpoints::{TRACE_CLOSE, TRACE_OPEN};
use super::{Engine, lock};
use crate::session::SessionEvent;
use crate::session::trace::{TraceRecord, timestamp_now};
use crate::session::types::BreakpointKind;

impl Engine {
    /// Takes the tracepoint hits out of an output event; what is left is
    /// the program's own output.
    pub(super) fn take_trace_hits<'a>(&mut self, output: &'a str) -> Option<&'a str> {
        let at = output.find(TRACE_OPEN)?;
        let mut rest = &output[at..];
        while let Some(body) = rest.strip_prefix(TRACE_OPEN) {
            let next = body.find(TRACE_OPEN).unwrap_or(body.len());
            self.on_trace_hit(&body[..next]);
            rest = &body[next..];
        }
        Some(&output[..at])
    }

    /// One hit: `{id}\u{2}{message}\n`.
    fn on_trace_hit(&mut self, tagged: &str) {
        let Some((id, message)) = tagged.split_once(TRACE_CLOSE) else {
            return;
        };
        let Ok(id) = id.parse::<u64>() else { return };
        let message = message
            .strip_suffix('\n')
            .map(|m| m.strip_suffix('\r').unwrap_or(m))
            .unwrap_or(message);
        let Some(i) = self
            .snap
            .breakpoints
            .iter()
            .position(|b| b.id == id && b.kind == BreakpointKind::Tracepoint)
        else {
            return;
        };
        let shown = self.snap.display_path(&self.snap.breakpoints[i].file);
        let b = &mut self.snap.breakpoints[i];
        // Hits already on their way when it was disabled are not its.
        if !b.enabled {
            return;
        }
        b.hits += 1;
        let (hits, line, file) = (b.hits, b.at_line(), b.file.clone());
        let Some(t) = b.trace.as_mut() else {
            self.publish_hits_soon();
            return;
        };
        if hits % t.every.max(1) != 0 {
            self.publish_hits_soon();
            return;
        }
        t.records += 1;
        let records = t.records;
        let used_up = t.max_records > 0 && records >= t.max_records;
        if used_up {
            b.enabled = false;
            b.verified = false;
        }
        let record = TraceRecord {
            seq: 0,
            breakpoint_id: id,
            hit: hits,
            timestamp: timestamp_now(),
            file: shown,
            line,
            message: message.to_string(),
        };
        let record = lock(&self.trace).push(record);
        self.emit(SessionEvent::TraceHit(record));
        self.publish_hits_soon();
        if used_up {
            self.touch(
                None,
                format!("tracepoint #{id} disabled itself after {records} records"),
            );
            self.emit(SessionEvent::BreakpointsChanged);
            self.sync_file(&file, None);
        }
    }

    /// Hit counts reach the snapshot at most every `HITS_PUBLISHED_EVERY`:
    /// each hit is pushed on its own already, and a new epoch per hit would
    /// copy the snapshot and push a state change thousands of times a
    /// second, capping the rate at which a program can be traced.
    fn publish_hits_soon(&mut self) {
        if self.hits_pending {
            return;
        }
        self.hits_pending = true;
        self.spawn(async {
            tokio::time::sleep(HITS_PUBLISHED_EVERY).await;
            Box::new(|e: &mut Engine| {
                e.hits_pending = false;
                e.dirty = true;
            }) as super::Apply
        });
    }
}

const HITS_PUBLISHED_EVERY: std::time::Duration = std::time::Duration::from_millis(100);
