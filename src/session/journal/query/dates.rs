//! Dates as `--since` and `--until` take them and as lists print them:
//! UTC, `YYYY-MM-DD` with an optional `THH:MM[:SS]` (or a space).

/// Milliseconds since 1970 as `YYYY-MM-DD HH:MM UTC`.
pub fn utc(ms: u64) -> String {
    let secs = ms / 1000;
    let days = (secs / 86_400) as i64;
    let (h, m) = ((secs % 86_400) / 3600, (secs % 3600) / 60);
    let (y, mo, d) = civil_from_days(days);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{m:02} UTC")
}

/// Which end of a day a date alone stands for.
#[derive(Clone, Copy, PartialEq)]
pub enum DayEnd {
    Start,
    End,
}

/// `text` as milliseconds since 1970; a date alone is its day's start or
/// end. The error names `arg` and the forms it takes.
pub fn parse(arg: &str, text: &str, end: DayEnd) -> Result<u64, String> {
    let bad =
        || format!("{arg} {text:?}: expected a UTC date YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS]");
    let t = text.trim().trim_end_matches('Z');
    let (date, time) = match t.split_once(['T', ' ']) {
        Some((d, t)) => (d, Some(t)),
        None => (t, None),
    };
    let nums = |s: &str, sep: char| -> Option<Vec<u32>> {
        s.split(sep).map(|p| p.parse::<u32>().ok()).collect()
    };
    let ymd = nums(date, '-').filter(|v| v.len() == 3).ok_or_else(bad)?;
    let (y, mo, d) = (ymd[0], ymd[1], ymd[2]);
    if !(1970..=9999).contains(&y) || !(1..=12).contains(&mo) || d < 1 || d > days_in(y, mo) {
        return Err(bad());
    }
    let secs_of_day = match time {
        Some(t) => {
            let hms = nums(t, ':')
                .filter(|v| v.len() == 2 || v.len() == 3)
                .ok_or_else(bad)?;
            let (h, m, s) = (hms[0], hms[1], hms.get(2).copied().unwrap_or(0));
            if h > 23 || m > 59 || s > 59 {
                return Err(bad());
            }
            u64::from(h * 3600 + m * 60 + s)
        }
        None if end == DayEnd::End => 86_399,
        None => 0,
    };
    let days = days_from_civil(i64::from(y), mo, d) as u64;
    let ms = (days * 86_400 + secs_of_day) * 1000;
    Ok(if end == DayEnd::End && time.is_none() {
        ms + 999
    } else {
        ms
    })
}

fn days_in(y: u32, mo: u32) -> u32 {
    match mo {
        2 if (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

// Howard Hinnant's civil calendar algorithms.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mo = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(mo <= 2), mo, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_back_as_written() {
        let ms = parse("--since", "2026-11-28T03:45", DayEnd::Start).unwrap();
        assert_eq!(utc(ms), "2026-11-28 03:45 UTC");
        let end = parse("--until", "2024-02-29", DayEnd::End).unwrap();
        assert_eq!(utc(end), "2024-02-29 23:59 UTC");
        let e = parse("--since", "2023-02-29", DayEnd::Start).unwrap_err();
        assert!(e.starts_with("--since \"2023-02-29\": expected"), "{e}");
        assert!(parse("--until", "yesterday", DayEnd::End).is_err());
        assert!(parse("--until", "2026-01-01T25:00", DayEnd::End).is_err());
    }
}
