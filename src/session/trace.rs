//! The trace log: every recorded tracepoint hit, in the order the program
//! made them, in a ring capped by count and read through an absolute cursor
//! like the output, so a reader never sees a record twice.

use std::collections::VecDeque;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

pub const TRACE_CAP: usize = 10_000;

#[derive(Debug, Clone, Serialize)]
pub struct TraceRecord {
    /// Position in the session's log, from 0; the cursor counts these.
    pub seq: u64,
    pub breakpoint_id: u64,
    /// The tracepoint's hit this record is for (1 is its first hit).
    pub hit: u64,
    /// UTC, RFC 3339 with milliseconds.
    pub timestamp: String,
    pub file: String,
    pub line: u64,
    pub message: String,
}

#[derive(Debug)]
pub struct TraceLog {
    records: VecDeque<TraceRecord>,
    end: u64,
    cap: usize,
}

impl Default for TraceLog {
    fn default() -> Self {
        TraceLog::with_cap(TRACE_CAP)
    }
}

/// A read of the log from a cursor.
#[derive(Debug, Clone, Serialize)]
pub struct TraceRead {
    pub records: Vec<TraceRecord>,
    pub next: u64,
    /// Records between the cursor and the oldest kept one that were dropped.
    pub dropped: u64,
    pub more: bool,
}

impl TraceLog {
    pub fn with_cap(cap: usize) -> Self {
        TraceLog {
            records: VecDeque::new(),
            end: 0,
            cap: cap.max(1),
        }
    }

    /// Adds a record, giving it its sequence number; returns it.
    pub fn push(&mut self, mut r: TraceRecord) -> TraceRecord {
        r.seq = self.end;
        self.end += 1;
        self.records.push_back(r.clone());
        while self.records.len() > self.cap {
            self.records.pop_front();
        }
        r
    }

    /// The sequence number the next record will get.
    pub fn end(&self) -> u64 {
        self.end
    }

    pub fn read(&self, since: u64, max: usize) -> TraceRead {
        let start = self.records.front().map(|r| r.seq).unwrap_or(self.end);
        let from = since.max(start);
        let skip = (from - start) as usize;
        let records: Vec<TraceRecord> = self.records.iter().skip(skip).take(max).cloned().collect();
        let next = records.last().map(|r| r.seq + 1).unwrap_or(from);
        TraceRead {
            records,
            next,
            dropped: start.saturating_sub(since),
            more: next < self.end,
        }
    }
}

/// Now, as `2024-01-15T10:30:45.123Z`.
pub fn timestamp_now() -> String {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let secs = d.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, day) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_millis()
    )
}

/// Howard Hinnant's days-to-civil: the proleptic Gregorian date.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: u64) -> TraceRecord {
        TraceRecord {
            seq: 0,
            breakpoint_id: id,
            hit: id,
            timestamp: String::new(),
            file: "a.py".into(),
            line: 1,
            message: format!("m{id}"),
        }
    }

    #[test]
    fn the_ring_drops_the_oldest_and_the_cursor_says_so() {
        let mut log = TraceLog::with_cap(3);
        for i in 0..5 {
            log.push(rec(i));
        }
        let r = log.read(0, 10);
        assert_eq!(r.dropped, 2);
        assert_eq!(
            r.records.iter().map(|r| r.seq).collect::<Vec<_>>(),
            vec![2, 3, 4]
        );
        let r = log.read(3, 1);
        assert_eq!(r.records[0].message, "m3");
        assert!(r.more);
        assert_eq!(log.read(r.next, 10).records.len(), 1);
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_737), (2024, 1, 15));
        assert!(timestamp_now().ends_with('Z'));
    }
}
