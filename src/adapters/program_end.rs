//! How a program ended, as each adapter's number tells it: an exit code, a
//! signal, or a number that could be either.

/// The program's end as read from what the adapter reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgramEnd {
    Code(i64),
    /// Killed by this signal.
    Signal(i32),
    /// A number the adapter gives alike for an exit code and a signal.
    CodeOrSignal(i64),
    /// The adapter's number says nothing true (lldb's -1 for a status it
    /// did not get).
    Unread,
}

/// `SIGKILL` for 9; None for a number that is no signal here.
pub fn signal_name(signal: i32) -> Option<&'static str> {
    nix::sys::signal::Signal::try_from(signal)
        .ok()
        .map(|s| s.as_str())
}

/// A signal's number when `n` is one.
pub fn is_signal(n: i64) -> Option<i32> {
    i32::try_from(n).ok().filter(|s| signal_name(*s).is_some())
}

/// `Program terminated with signal 9.`: what pairdbg's hooks in gdb and in
/// debugpy's launcher write on the console for a program a signal killed.
pub fn signal_line(line: &str) -> Option<i32> {
    let n = line
        .trim()
        .strip_prefix("Program terminated with signal ")?
        .strip_suffix('.')?;
    is_signal(n.parse().ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_signals() {
        assert_eq!(signal_name(9), Some("SIGKILL"));
        assert_eq!(signal_name(15), Some("SIGTERM"));
        assert_eq!(signal_name(0), None);
        assert_eq!(is_signal(300), None);
        assert_eq!(signal_line("Program terminated with signal 9.\n"), Some(9));
        assert_eq!(signal_line("Program terminated with signal 99.\n"), None);
    }
}
