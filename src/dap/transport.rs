//! TCP transports: a free loopback port (for scripted adapters in tests;
//! a real adapter picks its own and announces it, see `announced`), and a
//! connection that retries until the adapter is up or the time runs out.

use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::time::Duration;

use tokio::net::TcpStream;

/// A loopback port free now. Whatever binds it a moment later may find it
/// taken by another process first: adapters are not given one of these.
pub fn free_loopback_port() -> std::io::Result<SocketAddr> {
    let l = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
    l.local_addr()
}

/// Retries this often at first: an adapter process listens some 5–15 ms
/// after its spawn, and a refused loopback connect costs microseconds,
/// whereas a back-off from the start added ~10 ms to a launch on average.
const FINE_PAUSE: Duration = Duration::from_millis(2);
/// After this long the adapter is slow to start (a cold interpreter, a
/// loaded machine), and the pauses grow.
const FINE_FOR: Duration = Duration::from_millis(500);

/// Connects to `addr`, retrying while nothing listens there yet.
pub async fn connect_with_retry(addr: SocketAddr, timeout: Duration) -> std::io::Result<TcpStream> {
    let start = tokio::time::Instant::now();
    let deadline = start + timeout;
    let mut pause = FINE_PAUSE;
    loop {
        match TcpStream::connect(addr).await {
            Ok(s) => {
                let _ = s.set_nodelay(true);
                return Ok(s);
            }
            Err(e) if tokio::time::Instant::now() + pause >= deadline => {
                return Err(std::io::Error::new(
                    e.kind(),
                    format!(
                        "the adapter did not listen on {addr} within {:.1} s: {e}",
                        timeout.as_secs_f64()
                    ),
                ));
            }
            Err(_) => {
                tokio::time::sleep(pause).await;
                if start.elapsed() >= FINE_FOR {
                    pause = (pause * 2).min(Duration::from_millis(100));
                }
            }
        }
    }
}

/// Connects once to a debug server that should listen already (a remote
/// attach): a refusal is the answer, not a reason to wait.
pub async fn connect_once(addr: SocketAddr, timeout: Duration) -> std::io::Result<TcpStream> {
    let s = tokio::time::timeout(timeout, TcpStream::connect(addr))
        .await
        .map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("no answer within {:.0} s", timeout.as_secs_f64()),
            )
        })??;
    let _ = s.set_nodelay(true);
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn connects_once_the_listener_appears() {
        let addr = free_loopback_port().unwrap();
        let late = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(60)).await;
            let l = tokio::net::TcpListener::bind(addr).await.unwrap();
            l.accept().await.unwrap();
        });
        connect_with_retry(addr, Duration::from_secs(5))
            .await
            .expect("connected after retries");
        late.await.unwrap();
    }

    #[tokio::test]
    async fn gives_up_with_the_address_and_the_limit() {
        let addr = free_loopback_port().unwrap();
        let err = connect_with_retry(addr, Duration::from_millis(200))
            .await
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&addr.to_string()) && err.contains("0.2 s"),
            "{err}"
        );
    }
}
