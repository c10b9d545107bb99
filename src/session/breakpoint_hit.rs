//! A breakpoint hit as controllers push it (`debugger/breakpointHit`) and
//! wait for it (`breakpoint_wait`): the data alone, which a stop carries.

use std::path::PathBuf;

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HitKind {
    /// A line or function breakpoint: the program is paused.
    Blocking,
    /// Observed without pausing.
    Tracepoint,
    /// An exception breakpoint (filter) fired: the program is paused.
    Exception,
}

#[derive(Debug, Clone, Serialize)]
pub struct HitLocation {
    pub file: Option<PathBuf>,
    pub line: u64,
    #[serde(rename = "functionName")]
    pub function_name: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct HitException {
    #[serde(rename = "type")]
    pub type_name: String,
    pub message: String,
}

/// One hit, with the reference's fields.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BreakpointHit {
    /// None for an exception, which no line breakpoint caused.
    pub breakpoint_id: Option<u64>,
    #[serde(rename = "type")]
    pub kind: HitKind,
    pub location: HitLocation,
    pub thread_id: i64,
    /// RFC 3339, UTC, milliseconds.
    pub timestamp: String,
    pub hit_count: u64,
    pub log_message: Option<String>,
    pub exception_info: Option<HitException>,
}

impl BreakpointHit {
    /// A tracepoint's hit, as the trace log's record of it is pushed to
    /// MCP clients the way a stop's hit is.
    pub fn tracepoint(
        id: u64,
        file: PathBuf,
        line: u64,
        thread_id: i64,
        hit_count: u64,
        log_message: String,
    ) -> Self {
        BreakpointHit {
            breakpoint_id: Some(id),
            kind: HitKind::Tracepoint,
            location: HitLocation {
                file: Some(file),
                line,
                function_name: String::new(),
            },
            thread_id,
            timestamp: now_rfc3339(),
            hit_count,
            log_message: Some(log_message),
            exception_info: None,
        }
    }
}

/// The current time as `2024-01-15T10:30:45.123Z`.
pub fn now_rfc3339() -> String {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    rfc3339(d.as_millis() as i64)
}

fn rfc3339(millis: i64) -> String {
    let secs = millis.div_euclid(1000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days to a civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        millis.rem_euclid(1000)
    )
}

#[cfg(test)]
mod tests {
    use super::rfc3339;

    #[test]
    fn formats_utc_times() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(1_705_314_645_123), "2024-01-15T10:30:45.123Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }
}
