//! Tracepoints are the adapter's logpoints, each message tagged with its
//! tracepoint's id. The adapter evaluates the message in the program and
//! lets it run on, so a hit costs no round trip (an engine-side breakpoint
//! that evaluates and continues would cost a stop, a stack read, an
//! evaluate and a continue per hit); the tagged lines arrive in the order
//! the program made them, on the adapter's one ordered stream, and are
//! taken out of the program's output into the trace log.

use super::Engine;
use super::breakpoints::{TRACE_CLOSE, TRACE_END, TRACE_OPEN};
use crate::session::SessionEvent;
use crate::session::trace::{TraceRecord, timestamp_now};
use crate::session::types::BreakpointKind;
use crate::sync::Locked;

impl Engine {
    /// Takes the tracepoint hits out of an output event; what is left is
    /// the program's own output (None when there were no hits).
    pub(super) fn take_trace_hits(&mut self, output: &str) -> Option<String> {
        let output = match self.trace_partial.take() {
            Some(partial) => partial + output,
            None if output.contains(TRACE_OPEN) => output.to_string(),
            None => return None,
        };
        let at = output.find(TRACE_OPEN).unwrap_or(output.len());
        let mut program = output[..at].to_string();
        let mut rest = &output[at..];
        while let Some(body) = rest.strip_prefix(TRACE_OPEN) {
            let Some(end) = body.find(TRACE_END) else {
                // The rest of this hit comes in the next output event.
                if body.len() < PARTIAL_HIT_CAP {
                    self.trace_partial = Some(rest.to_string());
                }
                return Some(program);
            };
            self.on_trace_hit(&body[..end]);
            let after = &body[end + TRACE_END.len_utf8()..];
            // The adapter ends each message with a line break of its own.
            let after = after
                .strip_prefix("\r\n")
                .or_else(|| after.strip_prefix('\n'))
                .unwrap_or(after);
            let next = after.find(TRACE_OPEN).unwrap_or(after.len());
            program.push_str(&after[..next]);
            rest = &after[next..];
        }
        Some(program)
    }

    /// One hit: `{id}\u{2}{message}`.
    fn on_trace_hit(&mut self, tagged: &str) {
        let Some((id, message)) = tagged.split_once(TRACE_CLOSE) else {
            return;
        };
        let Ok(id) = id.parse::<u64>() else { return };
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
            message: self.config.adapter.language().trace_record(message),
        };
        let record = self.trace.locked().push(record);
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

/// The most of one hit kept while waiting for its end: past it the hit is
/// dropped rather than held without bound.
const PARTIAL_HIT_CAP: usize = 1 << 20;

const HITS_PUBLISHED_EVERY: std::time::Duration = std::time::Duration::from_millis(100);
