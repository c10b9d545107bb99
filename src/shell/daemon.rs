//! The host `pairdbg ctl` starts when no pairdbg runs in the workspace: a
//! `pairdbg serve --idle-exit 600` in a session of its own, detached from
//! the shell, so consecutive commands reach one debug session. It ends on
//! `pairdbg ctl stop`, or by itself ten minutes after its last session.

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::agent::discovery::{self, Discovery, Publisher};
use crate::session::validate::Workspace;

/// How long the daemon may stay without a session.
pub const IDLE_EXIT_SECS: u64 = 600;
/// How long it may take to publish its discovery file.
const START_LIMIT: Duration = Duration::from_secs(20);

/// The flags the daemon inherits from the `pairdbg ctl` that starts it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Inherited {
    pub no_redact: bool,
    pub allow_outside_workspace: bool,
}

/// The daemon's stderr, for when it cannot start.
fn log_path() -> Option<PathBuf> {
    crate::paths::runtime_dir()
        .ok()
        .map(|d| d.join(format!("serve-{}.log", std::process::id())))
}

/// Starts the daemon and waits until it is published.
pub async fn start(ws: &Workspace, flags: Inherited) -> Result<Discovery, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find pairdbg itself: {e}"))?;
    let mut cmd = Command::new(exe);
    cmd.args(["serve", "--idle-exit", &IDLE_EXIT_SECS.to_string()])
        .arg("--workspace")
        .arg(&ws.root)
        .current_dir(&ws.root)
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    if flags.no_redact {
        cmd.arg("--no-redact");
    }
    if flags.allow_outside_workspace {
        cmd.arg("--allow-outside-workspace");
    }
    let log = log_path();
    match log.as_ref().and_then(|p| std::fs::File::create(p).ok()) {
        Some(f) => cmd.stderr(f),
        None => cmd.stderr(Stdio::null()),
    };
    // SAFETY: setsid is async-signal-safe. A session of its own keeps the
    // daemon out of the shell's job control: the shell's Ctrl-C or hangup
    // does not reach it.
    unsafe {
        cmd.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    // Not a stray to sweep, should this process run sessions too.
    let mut child = crate::dap::strays::own(|| cmd.spawn(), |c| Some(c.id()))
        .map_err(|e| format!("cannot start pairdbg serve: {e}"))?;
    let deadline = tokio::time::Instant::now() + START_LIMIT;
    let result = loop {
        if let Some(d) = discovery::find(&ws.root).filter(|d| d.pid == child.id()) {
            break Ok(d);
        }
        if let Ok(Some(status)) = child.try_wait() {
            let said = log
                .as_ref()
                .and_then(|p| std::fs::read_to_string(p).ok())
                .unwrap_or_default();
            break Err(format!(
                "pairdbg serve ended at start ({status}): {}",
                said.trim()
            ));
        }
        if tokio::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break Err(format!(
                "pairdbg serve did not start within {} s",
                START_LIMIT.as_secs()
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    if let Some(p) = log {
        let _ = std::fs::remove_file(p);
    }
    result
}

/// Whether the process publishing `d` is a `pairdbg serve` host (which
/// `stop` may end) rather than a person's terminal UI (which it must not).
pub fn is_headless(d: &Discovery) -> bool {
    d.publisher == Publisher::Host
}

/// Ends a headless host: it ends its sessions first, then itself.
pub async fn stop(d: &Discovery) -> Result<(), String> {
    // SAFETY: kill only sends a signal.
    if unsafe { libc::kill(d.pid as i32, libc::SIGTERM) } != 0 {
        return Ok(());
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while alive(d.pid) {
        if tokio::time::Instant::now() > deadline {
            return Err(format!(
                "pairdbg serve (pid {}) did not end within 10 s",
                d.pid
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(())
}

/// Alive and not a zombie: an ended daemon whose parent has not reaped it
/// yet has ended all the same.
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            let after = s.get(s.rfind(')')? + 2..)?;
            after.chars().next()
        })
        .is_some_and(|state| state != 'Z' && state != 'X')
}
