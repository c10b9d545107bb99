//! A TCP connection's read half that acknowledges every read at once.
//!
//! Linux delays an ACK by up to 40 ms in the hope of sending it with data.
//! A DAP server that writes a message in several small segments and waits
//! for the ACK of the first before sending the rest (Nagle's algorithm on
//! its side) then stalls for that long on every message: a full read of a
//! stop cost 135 ms instead of 5–20 ms on a JVM-side server. Quick-ACK
//! mode is cleared by the kernel as it sees fit, so it is set again after
//! each read.

use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

pub struct QuickAck {
    inner: OwnedReadHalf,
}

/// The stream's halves, with the read half acknowledging at once.
pub fn split(stream: TcpStream) -> (QuickAck, OwnedWriteHalf) {
    let (r, w) = stream.into_split();
    (QuickAck { inner: r }, w)
}

impl AsyncRead for QuickAck {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            // Best effort: a socket that refuses it only acknowledges later.
            let _ = socket2::SockRef::from(self.inner.as_ref()).set_tcp_quickack(true);
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    const MESSAGE: &[u8] = b"Content-Length: 2\r\n\r\n{}";

    /// A request and its answer, as a DAP exchange goes: the kernel takes
    /// such a connection for an interactive one and delays its ACKs.
    #[tokio::test]
    async fn a_read_in_an_exchange_leaves_quick_ack_on() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (mut s, _) = listener.accept().await.unwrap();
            for _ in 0..3 {
                s.write_all(MESSAGE).await.unwrap();
                let _ = s.read(&mut [0u8; 1]).await;
            }
        });
        let (mut r, mut w) = split(TcpStream::connect(addr).await.unwrap());
        let mut on = vec![];
        for _ in 0..3 {
            let mut got = [0u8; MESSAGE.len()];
            r.read_exact(&mut got).await.unwrap();
            assert_eq!(&got, MESSAGE);
            on.push(
                socket2::SockRef::from(r.inner.as_ref())
                    .tcp_quickack()
                    .unwrap(),
            );
            w.write_all(b"x").await.unwrap();
        }
        server.await.unwrap();
        assert_eq!(on, [true, true, true], "quick-ACK mode after each read");
    }
}
