//! Adapter processes: each in its own process group, killed with its group
//! when dropped, and, through the keeper, ended with everything it started
//! if pairdbg itself dies.

use crate::sync::Locked;
use std::os::fd::RawFd;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command};

use super::keeper::{self, Lifeline};

pub struct AdapterProcess {
    child: Child,
    pgid: Option<i32>,
    /// Closing it tells the keeper to end the adapter's whole tree.
    lifeline: Option<Lifeline>,
    /// Processes the adapter started that may have left our group (a launcher
    /// launcher puts the debuggee in a group of its own), and those we
    /// started for it (`runInTerminal`).
    extra_pids: PidTracker,
}

/// Processes to end with an adapter, recorded from wherever they start.
#[derive(Clone, Default)]
pub struct PidTracker(Arc<Mutex<Vec<i32>>>);

impl PidTracker {
    pub fn track(&self, pid: i32) {
        let mut pids = self.0.locked();
        if pid > 1 && !pids.contains(&pid) {
            pids.push(pid);
        }
    }

    fn all(&self) -> Vec<i32> {
        self.0.locked().clone()
    }
}

impl AdapterProcess {
    pub fn spawn(cmd: Command) -> std::io::Result<(AdapterProcess, ChildStdin, ChildStdout)> {
        let (process, stdin, stdout, _) =
            Self::spawn_piped(cmd, Stdio::piped(), Stdio::null(), None)?;
        let stdin = stdin.ok_or_else(|| std::io::Error::other("no adapter stdin"))?;
        Ok((process, stdin, stdout))
    }

    /// For adapters reached over TCP whose stdout and stderr carry the
    /// program's own output: both are piped, stdin is closed. `keep` stays
    /// open in the adapter under its own number (see `start`).
    pub fn spawn_with_output(
        cmd: Command,
        keep: Option<RawFd>,
    ) -> std::io::Result<(AdapterProcess, ChildStdout, ChildStderr)> {
        let (process, _, stdout, stderr) =
            Self::spawn_piped(cmd, Stdio::null(), Stdio::piped(), keep)?;
        let stderr = stderr.ok_or_else(|| std::io::Error::other("no adapter stderr"))?;
        Ok((process, stdout, stderr))
    }

    /// For adapters whose program inherits their stdio: all three on the
    /// files given (the program's terminal).
    pub fn spawn_with_stdio(
        cmd: Command,
        stdio: [std::fs::File; 3],
        keep: Option<RawFd>,
    ) -> std::io::Result<AdapterProcess> {
        Self::start(cmd, stdio.map(Stdio::from), true, keep)
    }

    fn spawn_piped(
        cmd: Command,
        stdin: Stdio,
        stderr: Stdio,
        keep: Option<RawFd>,
    ) -> std::io::Result<(
        AdapterProcess,
        Option<ChildStdin>,
        ChildStdout,
        Option<ChildStderr>,
    )> {
        let mut process = Self::start(cmd, [stdin, Stdio::piped(), stderr], false, keep)?;
        let stdin = process.child.stdin.take();
        let stderr = process.child.stderr.take();
        let stdout = process
            .child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no adapter stdout"))?;
        Ok((process, stdin, stdout, stderr))
    }

    /// With `terminal`, stdin (a terminal) becomes the adapter's controlling
    /// terminal, so it can give the program the terminal's foreground, as a
    /// shell would.
    ///
    /// `keep`, a descriptor opened close-on-exec, is let through exec in the
    /// child only (the keeper passes it on), so no other process spawned
    /// meanwhile holds it: the adapter can write to it apart from its stdio,
    /// and its reader sees the end of it when the adapter is gone.
    fn start(
        cmd: Command,
        [stdin, stdout, stderr]: [Stdio; 3],
        terminal: bool,
        keep: Option<RawFd>,
    ) -> std::io::Result<AdapterProcess> {
        let mut launch = keeper::prepare(cmd)?;
        let cmd = launch.command();
        cmd.stdin(stdin)
            .stdout(stdout)
            .stderr(stderr)
            .kill_on_drop(true);
        // A session of its own, so a process group of its own, and no
        // controlling terminal: an adapter's launcher would otherwise make the
        // debuggee the terminal's foreground group and take the keyboard from
        // the TUI.
        // SAFETY: setsid, ioctl and fcntl are async-signal-safe; nothing else runs
        // between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if terminal {
                    libc::ioctl(0, libc::TIOCSCTTY, 0);
                }
                if let Some(fd) = keep
                    && libc::fcntl(fd, libc::F_SETFD, 0) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let (child, lifeline) = launch.spawn()?;
        // Through the keeper, the adapter shares the keeper's group.
        let pgid = child.id().map(|p| p as i32);
        Ok(AdapterProcess {
            child,
            pgid,
            lifeline,
            extra_pids: PidTracker::default(),
        })
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    pub fn track_pid(&mut self, pid: i32) {
        self.extra_pids.track(pid);
    }

    /// Where processes started on the adapter's behalf are recorded, so
    /// they end with it.
    pub fn tracker(&self) -> PidTracker {
        self.extra_pids.clone()
    }

    /// Kills the adapter's group and every tracked process group. Idempotent.
    pub fn kill_all(&mut self) {
        // Children the adapter put in groups of their own (a debuggee it
        // started under ptrace) are found while it still is their parent.
        let roots = self.pgid.into_iter().chain(self.extra_pids.all());
        for child in roots
            .flat_map(super::proc_tree::descendants)
            .collect::<Vec<_>>()
        {
            self.track_pid(child);
        }
        for pid in self.extra_pids.all() {
            // SAFETY: plain syscalls on pids we were told about; errors are ignored.
            unsafe {
                libc::killpg(pid, libc::SIGKILL);
                libc::kill(pid, libc::SIGKILL);
            }
        }
        if let Some(pg) = self.pgid.take() {
            // SAFETY: as above.
            unsafe {
                libc::killpg(pg, libc::SIGKILL);
            }
        }
        let _ = self.child.start_kill();
        self.lifeline = None;
        // A keeper killed from outside left its orphans to pairdbg.
        super::strays::sweep();
    }

    pub async fn wait(&mut self) {
        let _ = self.child.wait().await;
    }

    /// How the process ended (through the keeper, the keeper passes it on).
    pub async fn wait_status(&mut self) -> std::io::Result<std::process::ExitStatus> {
        self.child.wait().await
    }
}

impl Drop for AdapterProcess {
    fn drop(&mut self) {
        self.kill_all();
    }
}
