//! `pairdbg ctl`'s exit codes, told from the session's state rather than
//! from the reply's prose, so a script can branch on them.

pub const STOPPED: u8 = 0;
pub const ERROR: u8 = 1;
/// clap exits with 2 on a command line it cannot parse.
pub const USAGE: u8 = 2;
pub const EXITED: u8 = 3;
pub const RUNNING: u8 = 4;

/// The state a session is in after the call; `ended` when it is gone.
pub fn code(is_error: bool, state: &str) -> u8 {
    if is_error {
        return ERROR;
    }
    match state {
        "stopped" => STOPPED,
        "running" | "starting" => RUNNING,
        "exited" | "ended" => EXITED,
        _ => ERROR,
    }
}

/// The session and epoch a reply ends with: `[session s1 · epoch 7]`.
pub fn footer(text: &str) -> Option<(String, u64)> {
    let last = text.lines().last()?.trim();
    let inner = last.strip_prefix("[session ")?.strip_suffix(']')?;
    let (id, epoch) = inner.split_once(" · epoch ")?;
    Some((id.to_string(), epoch.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_footer_names_session_and_epoch() {
        assert_eq!(
            footer("── STOPPED ──\n[session s2 · epoch 14]"),
            Some(("s2".into(), 14))
        );
        assert_eq!(footer("no footer"), None);
    }

    #[test]
    fn each_state_has_its_code() {
        assert_eq!(code(false, "stopped"), STOPPED);
        assert_eq!(code(false, "running"), RUNNING);
        assert_eq!(code(false, "exited"), EXITED);
        assert_eq!(code(false, "ended"), EXITED);
        assert_eq!(code(true, "stopped"), ERROR);
        assert_eq!(code(false, "error"), ERROR);
    }
}
