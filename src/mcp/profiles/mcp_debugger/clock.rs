//! Timestamps as mcp-debugger writes them: `2025-06-11T04:53:14.762Z`.

use std::time::{SystemTime, UNIX_EPOCH};

pub fn now() -> String {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    iso8601(d.as_secs() as i64, d.subsec_millis())
}

/// UTC time in ISO 8601 with milliseconds.
fn iso8601(secs: i64, millis: u32) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard
/// Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_as_the_reference_shows() {
        // 2025-06-11T04:53:14.762Z, the reference's own example.
        assert_eq!(
            super::iso8601(1_749_617_594, 762),
            "2025-06-11T04:53:14.762Z"
        );
        assert_eq!(super::iso8601(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(super::iso8601(951_782_400, 5), "2000-02-29T00:00:00.005Z");
    }
}
