//! The trace log as `debug_output {stream: "trace"}` reads it.

use rmcp::model::CallToolResult;

use crate::mcp::format::ok;
use crate::mcp::server::PairdbgServer;
use crate::session::SessionHandle;
use crate::session::trace::TRACE_CAP;
use crate::viewport::redact;

impl PairdbgServer {
    /// The trace log from a cursor, one line per record, at most `max_bytes`
    /// (but always one record, so a cursor moves).
    pub(crate) fn trace_output(
        &self,
        s: &SessionHandle,
        since: u64,
        max_bytes: usize,
    ) -> CallToolResult {
        let r = s.read_trace(since, TRACE_CAP);
        let mut body = String::new();
        if r.dropped > 0 {
            body.push_str(&format!(
                "({} older records were dropped: the log keeps the last {TRACE_CAP})\n",
                r.dropped
            ));
        }
        let snap = s.snapshot();
        let template = |id: u64| {
            snap.breakpoints
                .iter()
                .find(|b| b.id == id)
                .and_then(|b| b.log_message.clone())
        };
        let mut next = r.records.first().map(|x| x.seq).unwrap_or(r.next);
        for (taken, t) in r.records.iter().enumerate() {
            let message = if self.views.redacts() {
                redact::trace_message(
                    template(t.breakpoint_id).as_deref(),
                    &t.message,
                    &snap.taint,
                )
            } else {
                t.message.clone()
            };
            let line = format!(
                "[{}] #{} hit {} {}:{} {message}\n",
                t.timestamp, t.breakpoint_id, t.hit, t.file, t.line
            );
            if taken > 0 && body.len() + line.len() > max_bytes {
                break;
            }
            body.push_str(&line);
            next = t.seq + 1;
        }
        let more = next < r.next || r.more;
        body.push_str(&format!(
            "(next since={next}{})",
            if more { ", more available" } else { "" }
        ));
        ok(&self.views, &snap, body)
    }
}
