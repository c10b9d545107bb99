//! The process keeper: `pairdbg __keeper -- ADAPTER [ARGS]` stands between
//! pairdbg and an adapter so that nothing the adapter starts outlives
//! pairdbg, however pairdbg ends.
//!
//! PDEATHSIG alone reaches only the adapter: a debuggee that setsid()s or
//! double-forks, a detached watchdog, or a subprocess the adapter started in
//! a group of its own is re-parented to init when pairdbg is SIGKILLed,
//! because pairdbg's own clean-up never runs. The keeper is their subreaper,
//! so orphans come to it, and it holds the read end of a lifeline pipe whose
//! write end exists only in pairdbg: EOF means pairdbg is gone, whatever
//! killed it. Then, or when the adapter exits, it kills every descendant.

use crate::sync::ReadWriteLocked;
use std::ffi::OsString;
use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::RwLock;

use nix::errno::Errno;
use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
use nix::sys::signal::{SigSet, SigmaskHow, Signal, kill, sigprocmask};
use nix::sys::signalfd::{SfdFlags, SignalFd};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;
use tokio::process::{Child, Command};

/// The environment variable naming the keeper's end of the lifeline.
const LIFELINE_FD: &str = "PAIRDBG_LIFELINE_FD";
/// The hidden subcommand that runs [`run`].
pub const SUBCOMMAND: &str = "__keeper";

static EXE: RwLock<Option<PathBuf>> = RwLock::new(None);

/// Called by pairdbg's binary: adapters start through the keeper from now
/// on. Without it (the library in tests) they are spawned directly.
pub fn enable() {
    // The running image itself, even if the file was replaced since.
    let exe = Path::new("/proc/self/exe");
    if exe.exists() {
        set_exe(Some(exe.to_path_buf()));
        super::strays::adopt_orphans();
    }
}

/// The pairdbg executable that runs the keeper, or `None` to spawn adapters
/// directly (benchmarks compare the two).
pub fn set_exe(exe: Option<PathBuf>) {
    *EXE.write_locked() = exe;
}

fn exe() -> Option<PathBuf> {
    EXE.read_locked().clone()
}

/// pairdbg's end of a lifeline: dropping it (or pairdbg's death) tells the
/// keeper to end everything below it.
pub struct Lifeline(#[allow(dead_code)] OwnedFd);

/// A command about to start, through the keeper when there is one. Set its
/// stdio and `pre_exec` on [`Launch::command`], then [`Launch::spawn`].
pub struct Launch {
    cmd: Command,
    /// (keeper's read end, pairdbg's write end)
    pipe: Option<(OwnedFd, OwnedFd)>,
}

/// `cmd` as it will start: rewritten to run through the keeper when pairdbg's
/// executable is known, else unchanged.
pub fn prepare(cmd: Command) -> io::Result<Launch> {
    let Some(exe) = exe() else {
        return Ok(Launch { cmd, pipe: None });
    };
    let inner = cmd.as_std();
    check_runnable(inner)?;
    let mut kept = Command::new(exe);
    kept.arg0("pairdbg")
        .arg(SUBCOMMAND)
        .arg("--")
        .arg(inner.get_program())
        .args(inner.get_args());
    for (key, value) in inner.get_envs() {
        match value {
            Some(v) => kept.env(key, v),
            None => kept.env_remove(key),
        };
    }
    if let Some(dir) = inner.get_current_dir() {
        kept.current_dir(dir);
    }
    // Both ends close on exec, so no other child of pairdbg holds them; the
    // keeper's end is let through in its own child only.
    let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?;
    let fd = read.as_raw_fd();
    kept.env(LIFELINE_FD, fd.to_string());
    // SAFETY: fcntl is async-signal-safe.
    unsafe {
        kept.pre_exec(move || {
            if libc::fcntl(fd, libc::F_SETFD, 0) < 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    Ok(Launch {
        cmd: kept,
        pipe: Some((read, write)),
    })
}

impl Launch {
    pub fn command(&mut self) -> &mut Command {
        &mut self.cmd
    }

    pub fn spawn(mut self) -> io::Result<(Child, Option<Lifeline>)> {
        if self.pipe.is_none() {
            // Spawned directly, the process dies with pairdbg's spawning
            // thread; the keeper would rather outlive pairdbg to clean up.
            // SAFETY: prctl is async-signal-safe.
            unsafe {
                self.cmd.pre_exec(|| {
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    Ok(())
                });
            }
        }
        let cmd = &mut self.cmd;
        let child = super::strays::own(|| cmd.spawn(), Child::id)?;
        // The keeper's end closes here so that only pairdbg holds the pipe.
        Ok((child, self.pipe.map(|(_, write)| Lifeline(write))))
    }
}

/// Spawn errors (no such program) would otherwise surface in the keeper,
/// after pairdbg believed the adapter started.
fn check_runnable(cmd: &std::process::Command) -> io::Result<()> {
    let program = Path::new(cmd.get_program());
    let runnable = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let found = if program.as_os_str().as_encoded_bytes().contains(&b'/') {
        match cmd.get_current_dir() {
            Some(dir) if program.is_relative() => runnable(&dir.join(program)),
            _ => runnable(program),
        }
    } else {
        let path = cmd
            .get_envs()
            .find(|(k, _)| *k == "PATH")
            .map(|(_, v)| v.map(OsString::from))
            .unwrap_or_else(|| std::env::var_os("PATH"));
        path.is_some_and(|p| std::env::split_paths(&p).any(|d| runnable(&d.join(program))))
    };
    if found {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(libc::ENOENT))
    }
}

/// The keeper's body: starts `argv`, waits for the adapter's exit or
/// pairdbg's, ends every descendant, and returns the adapter's exit code
/// (a signal's death is passed on as such).
pub fn run(argv: &[OsString]) -> i32 {
    let Some((program, args)) = argv.split_first() else {
        eprintln!("pairdbg {SUBCOMMAND}: no command given after --");
        return 2;
    };
    let lifeline = take_lifeline();
    // EPERM when pairdbg already made us a session leader, as it does.
    let _ = nix::unistd::setsid();
    if let Err(e) = nix::sys::prctl::set_child_subreaper(true) {
        eprintln!("pairdbg {SUBCOMMAND}: cannot become a subreaper: {e}");
    }
    // Read as events, not handled: the adapter starts with an empty mask,
    // so it still gets its own SIGINT from a terminal.
    let mut mask = SigSet::empty();
    for s in [
        Signal::SIGCHLD,
        Signal::SIGTERM,
        Signal::SIGHUP,
        Signal::SIGINT,
        Signal::SIGQUIT,
    ] {
        mask.add(s);
    }
    let signals = sigprocmask(SigmaskHow::SIG_BLOCK, Some(&mask), None)
        .and_then(|_| SignalFd::with_flags(&mask, SfdFlags::SFD_CLOEXEC | SfdFlags::SFD_NONBLOCK));
    let signals = match signals {
        Ok(s) => s,
        Err(e) => {
            eprintln!("pairdbg {SUBCOMMAND}: cannot watch signals: {e}");
            return 1;
        }
    };
    let mut cmd = std::process::Command::new(program);
    cmd.args(args).env_remove(LIFELINE_FD);
    // SAFETY: sigprocmask and prctl are async-signal-safe.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            // A blocked mask survives exec, and std leaves it as it is.
            let mut none = std::mem::zeroed::<libc::sigset_t>();
            libc::sigemptyset(&mut none);
            libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
            // The adapter dies with the keeper should the keeper be killed.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let adapter = match cmd.spawn() {
        Ok(c) => Pid::from_raw(c.id() as i32),
        Err(e) => {
            eprintln!(
                "pairdbg {SUBCOMMAND}: cannot start {}: {e}",
                program.to_string_lossy()
            );
            return 127;
        }
    };
    release_stdio();
    let mut status = watch(lifeline.as_ref(), &signals, adapter);
    end_all(&signals, adapter, &mut status);
    pass_on(status)
}

fn take_lifeline() -> Option<OwnedFd> {
    let fd: RawFd = std::env::var(LIFELINE_FD).ok()?.parse().ok()?;
    // SAFETY: pairdbg opened this fd for us alone and named it; nothing
    // else in this process owns it.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    // The adapter must not hold it, or pairdbg's death would go unseen.
    nix::fcntl::fcntl(
        &fd,
        nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::FD_CLOEXEC),
    )
    .ok()?;
    Some(fd)
}

/// The adapter's stdio pipes should close when the adapter's side does,
/// not when the keeper exits.
fn release_stdio() {
    let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    else {
        return;
    };
    for fd in 0..3 {
        // SAFETY: replaces our own stdio, which nothing in the keeper uses.
        unsafe {
            libc::dup2(null.as_raw_fd(), fd);
        }
    }
}

/// Until the adapter exits, pairdbg's end of the lifeline closes, or
/// SIGTERM/SIGHUP arrives. Returns the adapter's status if it was reaped.
fn watch(lifeline: Option<&OwnedFd>, signals: &SignalFd, adapter: Pid) -> Option<WaitStatus> {
    loop {
        let mut fds = vec![PollFd::new(signals.as_fd(), PollFlags::POLLIN)];
        if let Some(l) = lifeline {
            fds.push(PollFd::new(l.as_fd(), PollFlags::POLLIN));
        }
        match poll(&mut fds, PollTimeout::NONE) {
            Ok(_) | Err(Errno::EINTR) => {}
            Err(_) => return None,
        }
        let lifeline_stirred = fds
            .get(1)
            .and_then(|f| f.revents())
            .is_some_and(|r| !r.is_empty());
        let mut ending = false;
        while let Ok(Some(info)) = signals.read_signal() {
            let s = info.ssi_signo as i32;
            ending |= s == libc::SIGTERM || s == libc::SIGHUP;
        }
        let mut status = None;
        reap(adapter, &mut status);
        if status.is_some() || ending {
            return status;
        }
        if let (true, Some(l)) = (lifeline_stirred, lifeline) {
            let mut buf = [0u8; 64];
            match nix::unistd::read(l, &mut buf) {
                Ok(n) if n > 0 => {}
                Err(Errno::EINTR | Errno::EAGAIN) => {}
                _ => return None,
            }
        }
    }
}

/// Reaps every child that has ended, noting the adapter's status.
/// Returns false once the keeper has no children left.
fn reap(adapter: Pid, status: &mut Option<WaitStatus>) -> bool {
    loop {
        match waitpid(None, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) => return true,
            Ok(s) => {
                if s.pid() == Some(adapter) {
                    *status = Some(s);
                }
            }
            Err(Errno::EINTR) => {}
            Err(_) => return false,
        }
    }
}

/// SIGKILLs every descendant until none is left. A process forked after a
/// look at /proc is caught on the next look.
fn end_all(signals: &SignalFd, adapter: Pid, status: &mut Option<WaitStatus>) {
    let me = std::process::id() as i32;
    loop {
        for pid in super::proc_tree::descendants(me) {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        if !reap(adapter, status) {
            return;
        }
        let mut fds = [PollFd::new(signals.as_fd(), PollFlags::POLLIN)];
        let _ = poll(&mut fds, PollTimeout::from(20u8));
        while let Ok(Some(_)) = signals.read_signal() {}
    }
}

/// Ends the keeper as the adapter ended: its exit code, or its signal.
fn pass_on(status: Option<WaitStatus>) -> i32 {
    match status {
        Some(WaitStatus::Exited(_, code)) => code,
        Some(WaitStatus::Signaled(_, sig, _)) => {
            // SAFETY: restoring the default action and raising it on ourselves.
            unsafe {
                libc::signal(sig as i32, libc::SIG_DFL);
            }
            let mut one = SigSet::empty();
            one.add(sig);
            let _ = sigprocmask(SigmaskHow::SIG_UNBLOCK, Some(&one), None);
            let _ = nix::sys::signal::raise(sig);
            128 + sig as i32
        }
        _ => 1,
    }
}
