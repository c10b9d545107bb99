//! Adapter processes: each in its own process group, killed with its group
//! when dropped, and set to die if pairdbg itself dies.

use std::process::Stdio;

use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command};

pub struct AdapterProcess {
    child: Child,
    pgid: Option<i32>,
    /// Processes the adapter started that may have left our group (debugpy's
    /// launcher puts the debuggee in a group of its own).
    extra_pids: Vec<i32>,
}

impl AdapterProcess {
    pub fn spawn(mut cmd: Command) -> std::io::Result<(AdapterProcess, ChildStdin, ChildStdout)> {
        cmd.stdin(Stdio::piped()).stderr(Stdio::null());
        let (process, stdin, stdout, _) = Self::spawn_piped(cmd)?;
        let stdin = stdin.ok_or_else(|| std::io::Error::other("no adapter stdin"))?;
        Ok((process, stdin, stdout))
    }

    /// For adapters reached over TCP whose stdout and stderr carry the
    /// program's own output: both are piped, stdin is closed.
    pub fn spawn_with_output(
        mut cmd: Command,
    ) -> std::io::Result<(AdapterProcess, ChildStdout, ChildStderr)> {
        cmd.stdin(Stdio::null()).stderr(Stdio::piped());
        let (process, _, stdout, stderr) = Self::spawn_piped(cmd)?;
        let stderr = stderr.ok_or_else(|| std::io::Error::other("no adapter stderr"))?;
        Ok((process, stdout, stderr))
    }

    fn spawn_piped(
        mut cmd: Command,
    ) -> std::io::Result<(
        AdapterProcess,
        Option<ChildStdin>,
        ChildStdout,
        Option<ChildStderr>,
    )> {
        cmd.stdout(Stdio::piped()).kill_on_drop(true);
        // A session of its own, so a process group of its own, and no
        // controlling terminal: debugpy's launcher would otherwise make the
        // debuggee the terminal's foreground group and take the keyboard from
        // the TUI.
        // SAFETY: setsid and prctl are async-signal-safe; nothing else runs
        // between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                if libc::setsid() < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take();
        let stderr = child.stderr.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no adapter stdout"))?;
        let pgid = child.id().map(|p| p as i32);
        Ok((
            AdapterProcess {
                child,
                pgid,
                extra_pids: vec![],
            },
            stdin,
            stdout,
            stderr,
        ))
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    pub fn track_pid(&mut self, pid: i32) {
        if pid > 1 && !self.extra_pids.contains(&pid) {
            self.extra_pids.push(pid);
        }
    }

    /// Kills the adapter's group and every tracked process group. Idempotent.
    pub fn kill_all(&mut self) {
        // Children the adapter put in groups of their own (a debuggee it
        // started under ptrace) are found while it still is their parent.
        if let Some(pid) = self.pgid {
            for child in descendants(pid) {
                self.track_pid(child);
            }
        }
        for &pid in &self.extra_pids {
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
    }

    pub async fn wait(&mut self) {
        let _ = self.child.wait().await;
    }
}

impl Drop for AdapterProcess {
    fn drop(&mut self) {
        self.kill_all();
    }
}

/// Every live process below `root`, read from /proc.
fn descendants(root: i32) -> Vec<i32> {
    let mut parents = vec![];
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for e in dir.flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
                continue;
            };
            // The parent is the second field after the `(comm)`.
            let ppid = stat
                .rfind(')')
                .and_then(|i| stat[i + 1..].split_whitespace().nth(1))
                .and_then(|p| p.parse::<i32>().ok());
            if let Some(ppid) = ppid {
                parents.push((pid, ppid));
            }
        }
    }
    let mut out = vec![];
    let mut frontier = vec![root];
    while let Some(p) = frontier.pop() {
        for &(c, pp) in &parents {
            if pp == p && !out.contains(&c) {
                out.push(c);
                frontier.push(c);
            }
        }
    }
    out
}
