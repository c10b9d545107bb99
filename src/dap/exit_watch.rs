//! Seeing a program end that its adapter does not report: one stopped
//! under ptrace and killed from outside dies while its debugger waits for
//! nothing, and the debugger says nothing.
//!
//! /proc is read at an interval: a pidfd does not help, as it reads ready
//! only once every thread is reaped, which the debugger does not do for a
//! program it believes stopped.

use std::time::Duration;

/// How often a watched program is looked at.
const LOOK_EVERY: Duration = Duration::from_millis(50);

/// How a process ended, as `waitpid` would give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Code(i32),
    Signal(i32),
    /// Reaped before its status was read.
    Unread,
}

/// Resolves once `pid` has ended, with how, read from /proc while it is a
/// zombie.
pub async fn ended(pid: u32) -> Ended {
    let mut every = tokio::time::interval(LOOK_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if let Some(ended) = look(pid) {
            return ended;
        }
    }
}

/// Whether `pid` has ended (reaped, or a zombie waiting to be).
pub fn gone(pid: u32) -> bool {
    look(pid).is_some()
}

/// None while `pid` runs (or is stopped); how it ended once it is a zombie,
/// from the wait status in /proc/PID/stat's 52nd field.
fn look(pid: u32) -> Option<Ended> {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Some(Ended::Unread);
    };
    let after = stat.rfind(')').map(|i| &stat[i + 1..])?;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // Field 3 (the state) is the first after `(comm)`.
    if fields.first() != Some(&"Z") {
        return None;
    }
    let Some(Ok(status)) = fields.get(52 - 3).map(|f| f.parse::<i32>()) else {
        return Some(Ended::Unread);
    };
    Some(if libc::WIFSIGNALED(status) {
        Ended::Signal(libc::WTERMSIG(status))
    } else {
        Ended::Code(libc::WEXITSTATUS(status))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn reads_a_killed_childs_signal() {
        let mut child = std::process::Command::new("sleep")
            .arg("60")
            .spawn()
            .unwrap();
        let pid = child.id();
        assert_eq!(look(pid), None);
        child.kill().unwrap();
        assert_eq!(ended(pid).await, Ended::Signal(libc::SIGKILL));
        child.wait().unwrap();
        assert_eq!(look(pid), Some(Ended::Unread));
    }
}
