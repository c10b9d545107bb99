//! Faults done to the processes under a pairdbg server: finding a
//! session's adapter and debuggee among the server's descendants, and
//! signalling them.

use std::time::Duration;

use super::{descendants, poll};

/// The process's command line, its arguments joined by spaces.
pub fn cmdline(pid: u32) -> String {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .unwrap_or_default()
}

/// Descendants of `root` not in `known`: a session started after `known`
/// was read.
pub fn new_descendants(root: u32, known: &[u32]) -> Vec<u32> {
    descendants(root)
        .into_iter()
        .filter(|p| !known.contains(p))
        .collect()
}

/// Among `pids`, the adapter: its command line names it (`needle`), and it
/// is not the keeper, which is pairdbg itself and names the adapter too.
pub fn adapter_among(pids: &[u32], needle: &str) -> Option<u32> {
    pids.iter().copied().find(|p| {
        let cmd = cmdline(*p);
        cmd.contains(needle) && !is_keeper(&cmd) && !cmd.contains("--version")
    })
}

/// Among `pids`, the program being debugged: its command line names
/// `program`, and it is neither the adapter (`adapter` in its command line),
/// the keeper, nor the adapter's watchdog.
pub fn debuggee_among(pids: &[u32], program: &str, adapter: &str) -> Option<u32> {
    pids.iter().copied().find(|p| {
        let cmd = cmdline(*p);
        cmd.contains(program)
            && !cmd.contains(adapter)
            && !cmd.contains("watchdog")
            && !is_keeper(&cmd)
    })
}

/// pairdbg's process keeper, which names the adapter it runs.
fn is_keeper(cmdline: &str) -> bool {
    cmdline.split(' ').nth(1) == Some("__keeper")
}

/// Waits for a new descendant of `root` (not in `known`) whose command line
/// names the adapter, polling /proc.
pub async fn adapter_appears(root: u32, known: &[u32], needle: &str) -> Option<u32> {
    poll(
        || adapter_among(&new_descendants(root, known), needle),
        |found| found.is_some(),
        Duration::from_secs(60),
    )
    .await
}

pub fn signal(pid: u32, sig: i32) {
    // SAFETY: signalling a process this test's server started, by pid.
    unsafe { libc::kill(pid as i32, sig) };
}

/// The session id a viewport names, e.g. `s2` from `[session s2 …`.
pub fn session_of(viewport: &str) -> Option<String> {
    let at = viewport.find("[session ")? + "[session ".len();
    let id = viewport[at..].split([' ', ']']).next()?;
    Some(id.to_string())
}

/// Whether a message tells of the session or its adapter ending.
pub fn says_ended(text: &str) -> bool {
    let t = text.to_lowercase();
    [
        "exited",
        "ended",
        "failed",
        "terminated",
        "died",
        "lost",
        "killed",
    ]
    .iter()
    .any(|w| t.contains(w))
}

/// Signals every process in group `pgid`.
pub fn signal_group(pgid: u32, sig: i32) {
    // SAFETY: signalling a process group this test's server started.
    unsafe { libc::kill(-(pgid as i32), sig) };
}
