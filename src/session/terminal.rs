//! The program's own terminal: pseudo-terminals owned by the session, one
//! for the program's stdin and stdout and one for its stderr, so the two
//! streams stay apart while each is still a terminal to the program. One
//! reader takes both in the order their output arrives (`terminal_reader`).

use crate::sync::Locked;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use super::output::{OutputBuffer, Stream};
use super::terminal_reader::{self, Sides, Stop};
use crate::adapters::{AdapterRef, ProgramStdio};
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::pty::{PtyMaster, grantpt, posix_openpt, ptsname_r, unlockpt};
use nix::sys::termios::{OutputFlags, SetArg, tcgetattr, tcsetattr};

/// The size the program is told its terminal has.
const COLUMNS: u16 = 120;
const ROWS: u16 = 40;

/// The most input taken at once: a line, or a paste.
pub const MAX_INPUT_BYTES: usize = 64 * 1024;

struct Pty {
    master: PtyMaster,
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
    /// Where the reader puts what it reads, once forwarding.
    forwarding: OnceLock<(Arc<Mutex<OutputBuffer>>, AdapterRef)>,
    /// Ends the reader when the terminal drops.
    stop: OnceLock<Arc<Stop>>,
}

impl Drop for ProgramTerminal {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.get() {
            stop.stop();
        }
    }
}

impl Sides for ProgramTerminal {
    fn fd(&self, side: usize) -> BorrowedFd<'_> {
        self.side(side).master.as_fd()
    }

    fn read_side(&self, side: usize) -> io::Result<usize> {
        let Some((output, adapter)) = self.forwarding.get() else {
            return Err(io::ErrorKind::WouldBlock.into());
        };
        let _g = self.reading.locked();
        let pty = self.side(side);
        pty.read_into(&pty.master, output, *adapter)
    }
}

impl ProgramTerminal {
    /// Opens both terminals.
    pub fn open() -> io::Result<ProgramTerminal> {
        Ok(ProgramTerminal {
            out: Pty::open(Stream::Stdout)?,
            err: Pty::open(Stream::Stderr)?,
            reading: Mutex::new(()),
            forwarding: OnceLock::new(),
            stop: OnceLock::new(),
        })
    }

    fn side(&self, side: usize) -> &Pty {
        if side == 0 { &self.out } else { &self.err }
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
            match (&self.out.master).write(rest) {
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
        notify: impl Fn() -> bool + Send + 'static,
    ) -> io::Result<()> {
        let ready = terminal_reader::prepare(self.as_ref())?;
        if self.stop.set(ready.1.clone()).is_err()
            || self.forwarding.set((output, adapter)).is_err()
        {
            return Err(io::Error::other("the terminal is forwarded already"));
        }
        // The reader holds no terminal: one whose program never came (a
        // failed launch) or never hangs up would otherwise live on with it.
        terminal_reader::start(ready, Arc::downgrade(self), notify)
    }

    /// Takes whatever the program wrote that is not read yet: at its exit,
    /// so its last words come before the exit's. Says whether it took any.
    pub fn drain(&self, output: &Mutex<OutputBuffer>, adapter: AdapterRef) -> bool {
        let _g = self.reading.locked();
        let mut took = false;
        for pty in [&self.out, &self.err] {
            while pty.read_into(&pty.master, output, adapter).is_ok() {
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
        Ok(Pty {
            master,
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
        let mut partial = self.partial.locked();
        partial.extend_from_slice(&buf[..n]);
        let text = take_text(&mut partial);
        let mut out = output.locked();
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
        t.forward(out.clone(), adapter, move || tx.send(()).is_ok())
            .unwrap();
        let [_, mut o, _] = t.stdio().open().unwrap();
        o.write_all(b"name? ").unwrap();
        tokio::time::timeout(std::time::Duration::from_secs(5), rx.recv())
            .await
            .unwrap();
        assert_eq!(out.locked().read(0, 100, false).text, "name? ");
    }

    #[tokio::test]
    async fn the_reader_ends_with_the_terminal() {
        let t = Arc::new(ProgramTerminal::open().unwrap());
        let out = Arc::new(Mutex::new(OutputBuffer::default()));
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<()>();
        let adapter = crate::adapters::for_language("c").unwrap();
        t.forward(out, adapter, move || tx.send(()).is_ok())
            .unwrap();
        drop(t);
        // The reader's thread holds the only sender: it closes as it ends.
        let end = tokio::time::timeout(std::time::Duration::from_secs(5), rx.recv()).await;
        assert_eq!(end, Ok(None));
    }
}
