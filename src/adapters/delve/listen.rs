//! How dlv tells its port: it listens on one it picks itself (a port we
//! picked could be taken by another process before dlv binds it) and
//! writes `DAP server listening at: 127.0.0.1:38517` where its log goes.
//! The log goes to a pipe of its own, not stdout: on the session's
//! terminal the program shares dlv's stdout, where we cannot read it.

use std::net::SocketAddr;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

use nix::fcntl::OFlag;
use tokio::net::unix::pipe;

use crate::adapters::Transport;

pub const ANY_LOOPBACK_PORT: &str = "127.0.0.1:0";

/// The pipe dlv logs to; its write end is let through to dlv alone.
pub struct LogPipe {
    read: OwnedFd,
    write: OwnedFd,
}

impl LogPipe {
    pub fn new() -> std::io::Result<LogPipe> {
        let (read, write) = nix::unistd::pipe2(OFlag::O_CLOEXEC)?;
        Ok(LogPipe { read, write })
    }

    /// The descriptor dlv inherits, for `AdapterProcess`'s `keep`.
    pub fn fd(&self) -> RawFd {
        self.write.as_raw_fd()
    }

    /// `--log-dest N` takes a descriptor number as well as a file name.
    pub fn arguments(&self) -> [String; 2] {
        ["--log-dest".into(), self.fd().to_string()]
    }

    /// Once dlv is spawned: our copy of the write end closes, so the read
    /// end ends when dlv does.
    pub fn announced(self) -> std::io::Result<Transport> {
        let LogPipe { read, write } = self;
        drop(write);
        let log = pipe::Receiver::from_owned_fd(read)?;
        Ok(Transport::Announced {
            stdout: Box::pin(log),
            parse: listening_at,
            who: "dlv",
        })
    }
}

fn listening_at(line: &str) -> Option<SocketAddr> {
    line.trim()
        .strip_prefix("DAP server listening at:")?
        .trim()
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_address_dlv_announces() {
        let addr = listening_at("DAP server listening at: 127.0.0.1:38517\n");
        assert_eq!(addr, Some("127.0.0.1:38517".parse().unwrap()));
        assert_eq!(listening_at("2026-11-22T15:05:41Z error layer=dap x"), None);
    }
}
