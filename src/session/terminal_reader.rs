//! One thread reads both of the program's terminals, each in the order its
//! output arrived. A terminal keeps one stream; two terminals keep none
//! between them, and two readers woken by the scheduler would each take a
//! stream's pending lines in one go, passing the other stream's lines
//! written in between. The kernel's ready list (epoll) hands back the
//! terminals in the order they became readable, so a line of stdout and
//! then one of stderr are read in that order even when both wait.

use std::io;
use std::os::fd::{AsFd, BorrowedFd};
use std::sync::{Arc, Weak};

use nix::errno::Errno;
use nix::sys::epoll::{Epoll, EpollCreateFlags, EpollEvent, EpollFlags, EpollTimeout};
use nix::sys::eventfd::{EfdFlags, EventFd};

/// How long a hung-up terminal is tried again for the program's last
/// output: 20 tries, 25 ms apart (the kernel passes the last writes on a
/// moment after the hangup).
const END_TRIES: u32 = 20;
const END_TRY_EVERY: std::time::Duration = std::time::Duration::from_millis(25);

/// What the reader asks of its owner.
pub trait Sides: Send + Sync + 'static {
    /// The terminal of side `side`: 0 stdout's, 1 stderr's.
    fn fd(&self, side: usize) -> BorrowedFd<'_>;
    /// Reads what side `side` (0 or 1) holds into the output; `WouldBlock`
    /// when nothing waits, another error when the terminal hung up.
    fn read_side(&self, side: usize) -> io::Result<usize>;
}

/// Wakes the reader to end; written when the terminal drops.
pub struct Stop(EventFd);

impl Stop {
    pub fn stop(&self) {
        let _ = self.0.write(1);
    }
}

const STOP: u64 = 2;

/// Makes the ready list for both of `owner`'s terminals, and the stop
/// that ends the reading.
pub fn prepare(owner: &impl Sides) -> io::Result<(Epoll, Arc<Stop>)> {
    let epoll = Epoll::new(EpollCreateFlags::EPOLL_CLOEXEC)?;
    // Kept from the adapter and the program, which inherit what is open.
    let stop = Arc::new(Stop(EventFd::from_flags(EfdFlags::EFD_CLOEXEC)?));
    for side in 0..2 {
        epoll.add(
            owner.fd(side),
            EpollEvent::new(EpollFlags::EPOLLIN, side as u64),
        )?;
    }
    epoll.add(stop.0.as_fd(), EpollEvent::new(EpollFlags::EPOLLIN, STOP))?;
    Ok((epoll, stop))
}

/// Starts the thread reading `owner`'s terminals on `epoll` as long as it
/// lives and is not stopped, calling `notify` after each piece read.
pub fn start<S: Sides>(
    (epoll, stop): (Epoll, Arc<Stop>),
    owner: Weak<S>,
    notify: impl Fn() -> bool + Send + 'static,
) -> io::Result<()> {
    std::thread::Builder::new()
        .name("program-terminal".into())
        .spawn(move || {
            // Held open here: a stop closed with its owner would leave the
            // ready list and never wake the thread.
            let _stop = stop;
            run(epoll, owner, notify)
        })?;
    Ok(())
}

fn run(epoll: Epoll, owner: Weak<impl Sides>, notify: impl Fn() -> bool) {
    let mut tries_after_end = [0u32; 2];
    let mut events = [EpollEvent::empty(); 3];
    while tries_after_end.iter().any(|t| *t <= END_TRIES) {
        let n = match epoll.wait(&mut events, EpollTimeout::NONE) {
            Ok(n) => n,
            Err(Errno::EINTR) => continue,
            Err(_) => return,
        };
        let mut hung_up = false;
        for e in &events[..n] {
            let side = e.data();
            if side == STOP {
                return;
            }
            let side = side as usize;
            if tries_after_end[side] > END_TRIES {
                continue;
            }
            let Some(t) = owner.upgrade() else { return };
            // This side to its end before the next: what it holds arrived
            // before the other side's first byte.
            loop {
                match t.read_side(side) {
                    Ok(_) => {
                        if !notify() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => {
                        tries_after_end[side] += 1;
                        hung_up = true;
                        if tries_after_end[side] > END_TRIES {
                            // Its hangup stays readable: it would wake
                            // the thread for nothing from now on.
                            let _ = epoll.delete(t.fd(side));
                        }
                        break;
                    }
                }
            }
        }
        if hung_up {
            std::thread::sleep(END_TRY_EVERY);
        }
    }
}
