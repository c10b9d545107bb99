//! The TUI's frame log, as the benchmarks read it: each key it took and each
//! frame it drew, with the time of day the log line carries.

use std::time::{SystemTime, UNIX_EPOCH};

/// A frame the TUI drew: when, the epoch it shows, and what drawing took.
#[derive(Debug, Clone, Copy)]
pub struct Drawn {
    pub at: f64,
    pub epoch: u64,
    /// The stop it shows (0 before the first).
    pub stop: u64,
    pub micros: u64,
}

pub fn seconds_of_day_now() -> f64 {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    (d.as_secs() % 86_400) as f64 + d.subsec_nanos() as f64 / 1e9
}

/// `2026-11-22T03:04:05.123456Z ...` → seconds of the day.
pub fn time_of(line: &str) -> Option<f64> {
    let time = line.split('T').nth(1)?.split('Z').next()?;
    let mut it = time.split(':');
    let (h, m, s): (f64, f64, f64) = (
        it.next()?.parse().ok()?,
        it.next()?.parse().ok()?,
        it.next()?.parse().ok()?,
    );
    Some(h * 3600.0 + m * 60.0 + s)
}

/// `... drawn epoch=N stop=S in Mus`.
pub fn parse_drawn(line: &str) -> Option<Drawn> {
    let rest = line.split("drawn epoch=").nth(1)?;
    let mut words = rest.split_whitespace();
    let epoch = words.next()?.parse().ok()?;
    let stop = words.next()?.strip_prefix("stop=")?.parse().ok()?;
    let micros = words.nth(1)?.strip_suffix("us")?.parse().ok()?;
    Some(Drawn {
        at: time_of(line)?,
        epoch,
        stop,
        micros,
    })
}

/// `... key (a character)` or `... key Enter` → its time.
pub fn parse_key(line: &str) -> Option<f64> {
    line.contains(" key ").then(|| time_of(line))?
}
