//! How an adapter records the program's execution so that it can run
//! backwards: the console commands that start and end a recording, move
//! back through it and tell what it holds.

/// A debugger's recording, driven through its console (`repl` evaluate).
#[derive(Debug)]
pub struct Recorder {
    /// What the session calls the recording, as in `yes (gdb record)`.
    pub method: &'static str,
    pub start: &'static str,
    pub stop: &'static str,
    /// Sets the most instructions the recording keeps, given after it.
    pub limit: &'static str,
    /// Tells how many instructions the recording holds; read by `read_info`;
    /// empty where the recorder cannot tell.
    pub info: &'static str,
    /// Each move back, as a console command that returns at once and
    /// reports its stop as an event: back over, into, out, and continue.
    pub back_over: &'static str,
    pub back_into: &'static str,
    pub back_out: &'static str,
    pub back_continue: &'static str,
    /// The start of the console lines that say the recording could not
    /// follow the program (an instruction it cannot record): the stop that
    /// follows is the recording's, with that line as its reason.
    pub failure_lines: &'static [&'static str],
    /// The stop reason of a move back that reached the start of the
    /// recording.
    pub history_start: &'static str,
    /// The stop reason of a move forward through the recording that
    /// reached its end, where the debugger stops short of the move's goal.
    pub history_end: &'static str,
    /// A request (with no arguments) that reports the stop a failed
    /// recording left unreported, where the adapter may leave one so.
    pub halt_request: Option<&'static str>,
}

/// What `Recorder::info` answered, each part only where it was said.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RecordInfo {
    /// Instructions the recording holds.
    pub instructions: Option<u64>,
    /// The most it keeps before dropping the oldest.
    pub limit: Option<u64>,
    /// The number of the oldest instruction kept: above 1, older ones were
    /// dropped to stay within the limit.
    pub lowest: Option<u64>,
}

impl Recorder {
    /// The failure a console line tells, if it is one.
    pub fn failure(&self, line: &str) -> Option<String> {
        let line = line.trim().trim_start_matches('\u{274c}').trim();
        self.failure_lines
            .iter()
            .any(|p| line.starts_with(p))
            .then(|| line.to_string())
    }
}

/// Reads gdb's `info record`: `Log contains 7023 instructions.`, `Max
/// logged instructions is 200000.`, `Lowest recorded instruction number
/// is 1.`
pub fn read_info(text: &str) -> RecordInfo {
    let number = |prefix: &str| {
        text.lines().find_map(|l| {
            let rest = l.trim().strip_prefix(prefix)?;
            rest.split_whitespace()
                .next()?
                .trim_end_matches('.')
                .parse()
                .ok()
        })
    };
    RecordInfo {
        instructions: number("Log contains "),
        limit: number("Max logged instructions is "),
        lowest: number("Lowest recorded instruction number is "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_record_is_read_by_its_lines() {
        let text = "Active record target: record-full\nRecord mode:\nLowest recorded instruction number is 6825.\nHighest recorded instruction number is 7023.\nLog contains 199 instructions.\nMax logged instructions is 200.\n";
        assert_eq!(
            read_info(text),
            RecordInfo {
                instructions: Some(199),
                limit: Some(200),
                lowest: Some(6825),
            }
        );
        assert_eq!(
            read_info("No recording is currently active.\n"),
            RecordInfo::default()
        );
    }
}
