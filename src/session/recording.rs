//! Whether a session can run its program backwards, and what its
//! recording holds: the model every front end shows (`can step back`, the
//! status bar's `REC`).

use serde::Serialize;

/// A move back through the recording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackMove {
    /// Back over the previous line.
    Over,
    /// Back into the call the previous line made, at its last line.
    Into,
    /// Back to the call of the current function.
    Out,
    /// Back to the previous breakpoint, or the start of the recording.
    Continue,
}

impl BackMove {
    pub fn verb(self) -> &'static str {
        match self {
            BackMove::Over => "stepped back over",
            BackMove::Into => "stepped back into",
            BackMove::Out => "stepped back out",
            BackMove::Continue => "continued backwards",
        }
    }
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Recording {
    /// The adapter's name for its recording (`gdb record`), where it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// The adapter steps back itself (DAP `supportsStepBack`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub steps_back: bool,
    /// Why this session cannot go back at all (its adapter cannot record).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cannot: Option<String>,
    /// The stop at which recording began; None while not recording.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since_stop: Option<u64>,
    /// What the recording held when last read, at stop `read_at`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Instructions dropped from its start to stay within the limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_at: Option<u64>,
}

impl Recording {
    /// For a session on `adapter`, whose recording `method` is None where
    /// it has none.
    pub fn for_adapter(adapter: &str, method: Option<&str>) -> Recording {
        Recording {
            method: method.map(str::to_string),
            cannot: method.is_none().then(|| format!("{adapter} cannot record")),
            ..Recording::default()
        }
    }

    pub fn is_on(&self) -> bool {
        self.since_stop.is_some()
    }

    /// `yes (gdb record), from stop 14`, or why not.
    pub fn can_step_back(&self) -> Result<String, String> {
        // An adapter that steps back itself but records only when told
        // (its recorder) can go back once recording.
        if self.steps_back && self.method.is_none() {
            return Ok("yes (the debug adapter steps back)".into());
        }
        if let Some(why) = &self.cannot {
            return Err(format!("no: {why}"));
        }
        let method = self.method.as_deref().unwrap_or("recording");
        match self.since_stop {
            Some(n) => Ok(format!("yes ({method}), from stop {n}")),
            None => Err("no: not recording; start recording at a stop".into()),
        }
    }

    /// The line every status shows.
    pub fn sentence(&self) -> String {
        let mut s = match self.can_step_back() {
            Ok(s) | Err(s) => format!("can step back: {s}"),
        };
        if let Some(cost) = self.cost() {
            s.push_str(&format!("; recorded {cost}"));
        }
        s
    }

    /// What the recording holds, as far as the adapter told it.
    pub fn cost(&self) -> Option<String> {
        let n = self.instructions?;
        let mut s = format!(
            "{} instruction{}",
            thousands(n),
            if n == 1 { "" } else { "s" }
        );
        if let Some(limit) = self.limit {
            s.push_str(&format!(" of {}", thousands(limit)));
        }
        if let Some(d) = self.dropped.filter(|d| *d > 0) {
            s.push_str(&format!(", the oldest {} dropped", thousands(d)));
        }
        if let Some(at) = self.read_at {
            s.push_str(&format!(" (read at stop {at})"));
        }
        Some(s)
    }

    /// The status bar's mark while recording: `REC 7,023 insns`.
    pub fn tag(&self) -> Option<String> {
        self.since_stop?;
        Some(match self.instructions {
            Some(n) => format!("REC {} insns", thousands(n)),
            None => "REC".into(),
        })
    }

    /// Forgets what the recording held: it ended.
    pub fn stopped(&mut self) {
        self.since_stop = None;
        self.instructions = None;
        self.limit = None;
        self.dropped = None;
        self.read_at = None;
    }
}

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_says_whether_it_can_step_back_and_why_not() {
        let plain = Recording::for_adapter("plain-dap", None);
        assert_eq!(
            plain.can_step_back(),
            Err("no: plain-dap cannot record".into())
        );
        let mut taped = Recording::for_adapter("taping-dap", Some("tape"));
        assert!(taped.can_step_back().unwrap_err().contains("not recording"));
        taped.since_stop = Some(14);
        assert_eq!(taped.can_step_back(), Ok("yes (tape), from stop 14".into()));
        assert_eq!(taped.tag().as_deref(), Some("REC"));
        taped.instructions = Some(7023);
        taped.limit = Some(200_000);
        taped.read_at = Some(15);
        assert_eq!(taped.tag().as_deref(), Some("REC 7,023 insns"));
        assert_eq!(
            taped.sentence(),
            "can step back: yes (tape), from stop 14; recorded 7,023 instructions of 200,000 (read at stop 15)"
        );
    }
}
