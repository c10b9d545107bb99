//! What a killed keeper leaves behind. The keeper is the subreaper of
//! everything an adapter starts; SIGKILLed, its orphans (a debuggee the
//! adapter's death released from ptrace, a process that left for a session
//! of its own) would go to init and run on. pairdbg is a subreaper too, so
//! they come to it instead, and [`sweep`] ends them.
//!
//! They are told from pairdbg's own children by their session: everything
//! below a keeper is in the keeper's session or one it made, never in
//! pairdbg's, and the processes pairdbg itself starts in sessions of their
//! own (keepers, a daemon) are recorded with [`own`].

use crate::sync::Locked;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;

static OWN: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// How long a sweep keeps looking for processes that are still coming to
/// pairdbg as those above them die.
const SWEEP_LIMIT: Duration = Duration::from_secs(5);
const SWEEP_PAUSE: Duration = Duration::from_millis(20);

/// From now on orphans below pairdbg's children come to pairdbg.
pub fn adopt_orphans() {
    if let Err(e) = nix::sys::prctl::set_child_subreaper(true) {
        tracing::warn!("cannot become a subreaper, a killed keeper's orphans go to init: {e}");
    }
}

/// Runs `spawn`, whose child (`pid` of its result) pairdbg starts in a
/// session of its own: it is recorded as no stray before a sweep can see it.
pub fn own<T>(
    spawn: impl FnOnce() -> std::io::Result<T>,
    pid: impl Fn(&T) -> Option<u32>,
) -> std::io::Result<T> {
    let mut own = OWN.locked();
    let started = spawn()?;
    let me = std::process::id() as i32;
    // Those that ended are no longer children and need no record.
    own.retain(|p| parent_of(*p) == Some(me));
    if let Some(p) = pid(&started) {
        own.push(p as i32);
    }
    Ok(started)
}

/// Ends, on a thread of its own, every stray child of pairdbg and all below
/// it, and reaps them.
pub fn sweep() {
    let _ = std::thread::Builder::new()
        .name("pairdbg-strays".into())
        .spawn(sweep_now);
}

fn sweep_now() {
    let deadline = Instant::now() + SWEEP_LIMIT;
    loop {
        let strays = strays();
        if strays.is_empty() || Instant::now() > deadline {
            return;
        }
        for stray in &strays {
            for pid in super::proc_tree::descendants(*stray) {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
            let _ = kill(Pid::from_raw(*stray), Signal::SIGKILL);
        }
        for stray in &strays {
            let _ = waitpid(Pid::from_raw(*stray), Some(WaitPidFlag::WNOHANG));
        }
        std::thread::sleep(SWEEP_PAUSE);
    }
}

/// pairdbg's children in a session that is neither pairdbg's nor one
/// pairdbg made for a child of its own.
fn strays() -> Vec<i32> {
    let me = std::process::id() as i32;
    let Ok(mine) = nix::unistd::getsid(None) else {
        return vec![];
    };
    // Held while /proc is read, so that no child is started unrecorded.
    let own = OWN.locked();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return vec![];
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_string_lossy().parse::<i32>().ok())
        .filter(|pid| parent_of(*pid) == Some(me) && !own.contains(pid))
        .filter(|pid| nix::unistd::getsid(Some(Pid::from_raw(*pid))).is_ok_and(|s| s != mine))
        .collect()
}

/// The parent in /proc/PID/stat: the second field after the `(comm)`.
fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let i = stat.rfind(')')?;
    stat[i + 1..].split_whitespace().nth(1)?.parse().ok()
}
