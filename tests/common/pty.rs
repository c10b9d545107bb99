//! The real binary on a pseudo-terminal the test holds the master side of:
//! it can read the screen, stop reading it, read the terminal's modes back
//! and hang the terminal up by closing it.

use std::io::{Error, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;

pub struct Pty {
    master: Option<std::fs::File>,
    pub child: Child,
    seen: Vec<u8>,
}

impl Pty {
    /// pairdbg with `args` on a new 120×36 terminal, as its session's
    /// controlling terminal (so closing it sends the hang-up).
    pub fn start(cwd: &Path, env: &[(&str, &Path)], args: &[&str]) -> Pty {
        let size = libc::winsize {
            ws_row: 36,
            ws_col: 120,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        let (mut master, mut slave) = (-1, -1);
        // SAFETY: out-pointers to two ints and a valid winsize.
        let rc = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                &size,
            )
        };
        assert_eq!(rc, 0, "openpty: {}", Error::last_os_error());
        // SAFETY: openpty just opened both; nothing else owns them.
        let (master, slave) =
            unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        for fd in [master.as_raw_fd(), slave.as_raw_fd()] {
            // Neither descriptor may leak into pairdbg: a master it held
            // itself would keep its terminal from ever hanging up.
            // SAFETY: fcntl on descriptors this function owns.
            unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
        }
        // SAFETY: as above; reads never wait, so a test can stop reading.
        unsafe { libc::fcntl(master.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) };
        let stdio = || Stdio::from(slave.try_clone().expect("dup the terminal"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pairdbg"));
        cmd.args(args)
            .current_dir(cwd)
            .stdin(stdio())
            .stdout(stdio())
            .stderr(stdio());
        for (k, v) in env {
            cmd.env(k, v);
        }
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                    return Err(Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn().expect("start pairdbg");
        Pty {
            master: Some(std::fs::File::from(master)),
            child,
            seen: vec![],
        }
    }

    /// Everything drawn so far, without escape sequences.
    fn text(&mut self) -> String {
        let mut buf = [0u8; 65536];
        if let Some(m) = self.master.as_mut() {
            while let Ok(n) = m.read(&mut buf) {
                if n == 0 {
                    break;
                }
                self.seen.extend_from_slice(&buf[..n]);
            }
        }
        strip_escapes(&String::from_utf8_lossy(&self.seen))
    }

    /// Waits until the screen has drawn `needle` (15 s at most).
    pub async fn wait_for_text(&mut self, needle: &str) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
        loop {
            let text = self.text();
            if text.contains(needle) {
                return;
            }
            if tokio::time::Instant::now() > deadline {
                let tail: String = text.chars().rev().take(2000).collect();
                let tail: String = tail.chars().rev().collect();
                panic!("timed out waiting for {needle:?}; the screen ended with:\n{tail}");
            }
            pause().await;
        }
    }

    /// Types `bytes` as the person would.
    pub fn send(&mut self, bytes: &[u8]) {
        let m = self.master.as_mut().expect("the terminal is open");
        m.write_all(bytes).expect("type to the terminal");
    }

    /// The terminal's local modes (ICANON, ECHO, ...), read through the
    /// master: on Linux it answers for its slave side.
    pub fn local_modes(&self) -> libc::tcflag_t {
        let m = self.master.as_ref().expect("the terminal is open");
        // SAFETY: a zeroed termios is a valid out-parameter.
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: a valid descriptor and out-pointer.
        let rc = unsafe { libc::tcgetattr(m.as_raw_fd(), &mut t) };
        assert_eq!(rc, 0, "tcgetattr: {}", Error::last_os_error());
        t.c_lflag
    }

    /// Closes the terminal: the kernel hangs it up.
    pub fn hang_up(&mut self) {
        self.master.take();
    }

    /// pairdbg's exit status, once it has exited (within `within`).
    pub async fn wait_exit(&mut self, within: Duration) -> Option<ExitStatus> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if tokio::time::Instant::now() > deadline {
                return None;
            }
            pause().await;
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn pause() {
    let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
}

/// `text` without CSI sequences (`ESC [ … final`) and other two-byte escapes.
fn strip_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        if chars.next_if_eq(&'[').is_some() {
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        } else {
            chars.next();
        }
    }
    out
}
