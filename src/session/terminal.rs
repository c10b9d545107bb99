//! The program's own terminal: pseudo-terminals owned by the session, one
//! for the program's stdin and stdout and one for its stderr, so the two
//! streams stay apart while each is still a terminal to the program.

use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::pty::{PtyMaster, grantpt, posix_openpt, ptsname_r, unlockpt};
use nix::sys::termios::{OutputFlags, SetArg, tcgetattr, tcsetattr};
use tokio::io::Interest;
use tokio::io::unix::AsyncFd;
use tokio_util::sync::CancellationToken;

use super::output::{OutputBuffer, Stream};
use crate::adapters::{AdapterRef, ProgramStdio};

/// The size the program is told its terminal has.
const COLUMNS: u16 = 120;
const ROWS: u16 = 40;

/// The most input taken at once: a line, or a paste.
pub const MAX_INPUT_BYTES: usize = 64 * 1024;

/// How long the reader keeps trying a hung-up terminal for the program's
/// last output: 20 tries, 25 ms apart.
const END_TRIES: u32 = 20;
const END_TRY_EVERY: std::time::Duration = std::time::Duration::from_millis(25);

struct Pty {
    /// Shared with the task that forwards its output, which must not keep
    /// the terminal (and so its slave, which keeps it from hanging up).
    master: Arc<AsyncFd<PtyMaster>>,
    /// Held open so the master never reads end-of-file before the program
    /// opens its side, or after it ends.
    _slave: std::fs::File,
    path: PathBuf,
    stream: Stream,
    /// Bytes of a character cut by a read, kept for the next.
    partial: Mutex<Vec<u8>>,
}

pub struct ProgramTerminal {
    out: Pty,
    err: Pty,
    /// Reading and pushing to the output buffer is one step under this
    /// lock, so a drain at the program's exit keeps the order of output.
    reading: Mutex<()>,
    /// Cancelled when the terminal drops: its forwarding tasks end then.
    closed: CancellationToken,
}

impl Drop for ProgramTerminal {
    fn drop(&mut self) {
        self.closed.cancel();
    }
}

impl ProgramTerminal {
    /// Opens both terminals; needs a tokio runtime.
    pub fn open() -> io::Result<ProgramTerminal> {
        Ok(ProgramTerminal {
            out: Pty::open(Stream::Stdout)?,
            err: Pty::open(Stream::Stderr)?,
            reading: Mutex::new(()),
            closed: CancellationToken::new(),
        })
    }

    pub fn stdio(&self) -> ProgramStdio {
        ProgramStdio {
            terminal: self.out.path.clone(),
            stderr: self.err.path.clone(),
        }
    }

    /// Types `bytes` into the program's terminal, as a keyboard would.
    pub fn write_input(&self, bytes: &[u8]) -> io::Result<()> {
        let mut rest = bytes;
        while !rest.is_empty() {
            match self.out.master.get_ref().write(rest) {
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    return Err(io::Error::other(
                        "the program's input is full: it is not reading",
                    ));
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Copies the terminals' output into `output` as it comes, calling
    /// `notify` after each piece, until the terminal is dropped.
    pub fn forward(
        self: &Arc<Self>,
        output: Arc<Mutex<OutputBuffer>>,
        adapter: AdapterRef,
        notify: impl Fn() -> bool + Send + Sync + Clone + 'static,
    ) {
        for err in [false, true] {
            let weak = Arc::downgrade(self);
            let output = output.clone();
            let notify = notify.clone();
            let master = if err { &self.err } else { &self.out }.master.clone();
            let closed = self.closed.clone();
            tokio::spawn(async move {
                let mut tries_after_end = 0;
                loop {
                    // Waiting holds no terminal: one whose program never
                    // came (a failed launch) or never hangs up would
                    // otherwise live on with this task and its two ptys.
                    let mut ready = tokio::select! {
                        ready = master.readable() => match ready {
                            Ok(ready) => ready,
                            Err(_) => break,
                        },
                        _ = closed.cancelled() => break,
                    };
                    let Some(t) = weak.upgrade() else { break };
                    let pty = if err { &t.err } else { &t.out };
                    let read = {
                        let _g = lock(&t.reading);
                        let r = ready.try_io(|fd| pty.read_into(fd.get_ref(), &output, adapter));
                        match r {
                            Ok(Ok(n)) => Some(n),
                            Ok(Err(_)) => None,
                            // Readiness is cleared: wait for the next write.
                            Err(_would_block) => Some(0),
                        }
                    };
                    drop(t);
                    match read {
                        Some(n) => {
                            if n > 0 && !notify() {
                                break;
                            }
                        }
                        // The terminal was hung up (its controlling process,
                        // the adapter, ended) while the program's last
                        // writes may still be on their way to this side:
                        // the kernel passes them on a moment later.
                        None if tries_after_end < END_TRIES => {
                            tries_after_end += 1;
                            tokio::time::sleep(END_TRY_EVERY).await;
                        }
                        None => break,
                    }
                }
            });
        }
    }

    /// Takes whatever the program wrote that is not read yet: at its exit,
    /// so its last words come before the exit's. Says whether it took any.
    pub fn drain(&self, output: &Mutex<OutputBuffer>, adapter: AdapterRef) -> bool {
        let _g = lock(&self.reading);
        let mut took = false;
        for pty in [&self.out, &self.err] {
            while pty.read_into(pty.master.get_ref(), output, adapter).is_ok() {
                took = true;
            }
        }
        took
    }
}

impl Pty {
    fn open(stream: Stream) -> io::Result<Pty> {
        let master = posix_openpt(OFlag::O_RDWR | OFlag::O_NOCTTY | OFlag::O_CLOEXEC)?;
        grantpt(&master)?;
        unlockpt(&master)?;
        let path = PathBuf::from(ptsname_r(&master)?);
        let slave = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NOCTTY | libc::O_CLOEXEC)
            .open(&path)?;
        // Lines end in `\n` as the program wrote them, not the `\r\n` a
        // screen needs: the output pane is no screen.
        let mut t = tcgetattr(&slave)?;
        t.output_flags.remove(OutputFlags::ONLCR);
        tcsetattr(&slave, SetArg::TCSANOW, &t)?;
        let size = libc::winsize {
            ws_row: ROWS,
            ws_col: COLUMNS,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: TIOCSWINSZ reads one winsize from a valid pointer.
        unsafe { libc::ioctl(slave.as_raw_fd(), libc::TIOCSWINSZ, &size) };
        let flags = OFlag::from_bits_truncate(fcntl(&master, FcntlArg::F_GETFL)?);
        fcntl(&master, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK))?;
        // SAFETY: the PtyMaster owns its descriptor, open until it drops
        // with the AsyncFd.
        let master = unsafe { AsyncFd::register_with_interest(master, Interest::READABLE) }?;
        Ok(Pty {
            master: Arc::new(master),
            _slave: slave,
            path,
            stream,
            partial: Mutex::new(vec![]),
        })
    }

    /// One read into the output buffer; WouldBlock when nothing waits.
    fn read_into(
        &self,
        mut master: &PtyMaster,
        output: &Mutex<OutputBuffer>,
        adapter: AdapterRef,
    ) -> io::Result<usize> {
        let mut buf = [0u8; 16 * 1024];
        let n = loop {
            match master.read(&mut buf) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let mut partial = lock(&self.partial);
        partial.extend_from_slice(&buf[..n]);
        let text = take_text(&mut partial);
        let mut out = lock(output);
        for line in text.split_inclusive('\n') {
            // The adapter's own lines, where the program shares its stdio.
            if line.ends_with('\n') && adapter.is_own_output(line) {
                out.push_debugger(line);
                continue;
            }
            out.push(self.stream, line);
        }
        Ok(n)
    }
}

/// The text in `bytes` up to a character cut at the end, which stays.
fn take_text(bytes: &mut Vec<u8>) -> String {
    let keep = match std::str::from_utf8(bytes) {
        Ok(_) => 0,
        Err(e) if e.error_len().is_none() => bytes.len() - e.valid_up_to(),
        Err(_) => 0,
    };
    let rest = bytes.split_off(bytes.len() - keep);
    let text = String::from_utf8_lossy(bytes).into_owned();
    *bytes = rest;
    text
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_character_waits_for_its_end() {
        let mut b = "ab€".as_bytes().to_vec();
        b.pop();
        assert_eq!(take_text(&mut b), "ab");
        assert_eq!(b.len(), 2);
        b.push(0xac);
        assert_eq!(take_text(&mut b), "€");
        assert!(b.is_empty());
    }
}

#[cfg(test)]
mod live {
    use super::*;

    #[tokio::test]
    async fn what_the_program_writes_reaches_the_buffer() {
        let t = Arc::new(ProgramTerminal::open().unwrap());
        let out = Arc::new(Mutex::new(OutputBuffer::default()));
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let adapter = crate::adapters::for_language("c").unwrap();
        t.forward(out.clone(), adapter, move || tx.send(()).is_ok());
        let [_, mut o, _] = t.stdio().open().unwrap();
        o.write_all(b"name? ").unwrap();
        tokio::time::timeout(std::time::Duration::from_secs(5), rx.recv())
            .await
            .unwrap();
        assert_eq!(lock(&out).read(0, 100, false).text, "name? ");
    }
}
