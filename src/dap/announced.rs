//! Adapters that choose their own port and print it: the port is read from
//! their stdout, and the rest of what they print is drained so a full pipe
//! never blocks them.

use std::net::SocketAddr;
use std::pin::Pin;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::net::TcpStream;

use super::transport::connect_with_retry;

/// Reads a line of the adapter's output into its address.
pub type ParseAnnounced = fn(&str) -> Option<SocketAddr>;

/// Lines of output kept to quote when the adapter never says its port.
const KEPT_LINES: usize = 5;

/// Reads `stdout` until a line `parse` accepts, within `timeout`; then
/// drains the rest to the log in a task of its own. `who` names the
/// adapter's program in the error when it never says.
pub async fn read_announced(
    stdout: Pin<Box<dyn AsyncRead + Send>>,
    parse: ParseAnnounced,
    who: &str,
    timeout: Duration,
) -> std::io::Result<SocketAddr> {
    let mut lines = BufReader::new(stdout).lines();
    let mut seen: Vec<String> = vec![];
    let found = tokio::time::timeout(timeout, async {
        while let Some(line) = lines.next_line().await? {
            if let Some(addr) = parse(&line) {
                return Ok(Some(addr));
            }
            if seen.len() == KEPT_LINES {
                seen.remove(0);
            }
            seen.push(line);
        }
        Ok::<_, std::io::Error>(None)
    })
    .await;
    let printed = || match seen.is_empty() {
        true => "nothing".to_string(),
        false => format!("\"{}\"", seen.join("\\n")),
    };
    match found {
        Ok(Ok(Some(addr))) => {
            tokio::spawn(async move {
                while let Ok(Some(line)) = lines.next_line().await {
                    tracing::debug!(target: "adapter_stdout", "{line}");
                }
            });
            Ok(addr)
        }
        Ok(Ok(None)) => Err(std::io::Error::other(format!(
            "{who} exited before it said which port it listens on; it printed {}",
            printed()
        ))),
        Ok(Err(e)) => Err(e),
        Err(_) => Err(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!(
                "{who} did not say which port it listens on within {:.1} s; it printed {}",
                timeout.as_secs_f64(),
                printed()
            ),
        )),
    }
}

/// The announced address, and a connection to it.
pub async fn connect_announced(
    stdout: Pin<Box<dyn AsyncRead + Send>>,
    parse: ParseAnnounced,
    who: &str,
    timeout: Duration,
) -> std::io::Result<(SocketAddr, TcpStream)> {
    let addr = read_announced(stdout, parse, who, timeout).await?;
    Ok((addr, connect_with_retry(addr, timeout).await?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    fn after_at(line: &str) -> Option<SocketAddr> {
        line.strip_prefix("at ")?.parse().ok()
    }

    #[tokio::test]
    async fn skips_lines_until_the_address_and_keeps_draining() {
        let (mut w, r) = tokio::io::duplex(64);
        w.write_all(b"banner\nat 127.0.0.1:4711\n").await.unwrap();
        let addr = read_announced(Box::pin(r), after_at, "fake", Duration::from_secs(5))
            .await
            .unwrap();
        assert_eq!(addr.port(), 4711);
        // More than the pipe holds: read by the drain, or this would block.
        for _ in 0..100 {
            w.write_all(b"later output line\n").await.unwrap();
        }
    }

    #[tokio::test]
    async fn silence_and_exit_are_errors_that_quote_the_output() {
        let (mut w, r) = tokio::io::duplex(64);
        w.write_all(b"starting\n").await.unwrap();
        let err = read_announced(Box::pin(r), after_at, "fake", Duration::from_millis(200))
            .await
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("fake did not say")
                && err.contains("within 0.2 s")
                && err.contains("\"starting\""),
            "{err}"
        );
        drop(w);

        let (mut w, r) = tokio::io::duplex(64);
        w.write_all(b"Error: cannot find module\n").await.unwrap();
        drop(w);
        let err = read_announced(Box::pin(r), after_at, "fake", Duration::from_secs(5))
            .await
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("fake exited before") && err.contains("cannot find module"),
            "{err}"
        );
    }
}
