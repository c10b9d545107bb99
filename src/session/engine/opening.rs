//! Opening a connection's transport, the root's and every child's alike:
//! stdio is there at once; TCP, or a port the adapter announces, is
//! connected to in a task, and the connection begins once it answers.

use std::net::SocketAddr;
use std::pin::Pin;
use std::time::Duration;

use futures::FutureExt;
use futures::future::BoxFuture;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

use super::Engine;
use crate::dap::announced::connect_announced;
use crate::dap::transport::{connect_once, connect_with_retry};
use crate::session::connector::Transport;

pub(super) type Connected = std::io::Result<(SocketAddr, TcpStream)>;

pub(super) enum Opening {
    Ready(
        Pin<Box<dyn AsyncRead + Send>>,
        Pin<Box<dyn AsyncWrite + Send>>,
    ),
    Later(BoxFuture<'static, Connected>),
}

/// A server that is already up (a remote one) gets one try; an adapter
/// that is still starting is tried until `timeout`.
pub(super) fn open(transport: Transport, timeout: Duration, listening: bool) -> Opening {
    match transport {
        Transport::Stdio { reader, writer } => Opening::Ready(reader, writer),
        Transport::Tcp(addr) if listening => {
            Opening::Later(async move { Ok((addr, connect_once(addr, timeout).await?)) }.boxed())
        }
        Transport::Tcp(addr) => Opening::Later(
            async move { Ok((addr, connect_with_retry(addr, timeout).await?)) }.boxed(),
        ),
        Transport::Announced { stdout, parse, who } => Opening::Later(
            async move { connect_announced(stdout, parse, who, timeout).await }.boxed(),
        ),
    }
}

impl Engine {
    /// Connection `id` answered at `addr`: its own children of some
    /// adapters reach the same listener.
    pub(super) fn begin_connected(
        &mut self,
        id: u32,
        addr: SocketAddr,
        stream: TcpStream,
        start: (&'static str, Value),
    ) {
        if let Some(c) = self.conn_by_id_mut(id) {
            c.addr = Some(addr);
        }
        let (r, w) = crate::dap::quick_ack::split(stream);
        self.begin(id, Box::pin(r), Box::pin(w), start);
    }
}
