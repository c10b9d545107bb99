//! Request/response correlation over one adapter connection.
//!
//! Requests are written the moment `request` is called, so callers can send
//! several (after a stop, say) before awaiting any of them.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};
use tokio_util::codec::FramedRead;

use super::codec::{DapCodec, frame};
use super::envelope::{self, Event, Message, Request, Response};

#[derive(Debug, Clone, thiserror::Error)]
pub enum DapError {
    #[error("the debug adapter did not answer `{command}` within {timeout_ms} ms")]
    Timeout { command: String, timeout_ms: u64 },
    #[error("the debug adapter closed its connection")]
    Closed,
    #[error("`{command}` failed: {message}")]
    Failed { command: String, message: String },
    #[error("the response to `{command}` could not be read: {message}")]
    BadBody { command: String, message: String },
}

/// What the client answers to a reverse request from the adapter.
pub type ReverseHandler = Arc<dyn Fn(&Request) -> Result<Value, String> + Send + Sync>;

/// The answer every client gives unless told otherwise: we have no terminal to
/// run a program in, and child sessions are not debugged.
pub fn default_reverse_handler() -> ReverseHandler {
    Arc::new(|req: &Request| match req.command.as_str() {
        "runInTerminal" => {
            Err("pairdbg has no terminal to run the program in; use console=internalConsole".into())
        }
        "startDebugging" => {
            Err("pairdbg does not debug child processes; they run without the debugger".into())
        }
        other => Err(format!("unsupported reverse request `{other}`")),
    })
}

struct Inner {
    seq: AtomicI64,
    pending: Mutex<HashMap<i64, (String, oneshot::Sender<Response>)>>,
    writer: mpsc::UnboundedSender<Vec<u8>>,
    closed: AtomicBool,
    timeout: Duration,
}

#[derive(Clone)]
pub struct DapClient {
    inner: Arc<Inner>,
}

impl DapClient {
    /// Starts the reader and writer tasks. Events arrive on the returned
    /// receiver in wire order; it closes when the adapter's stream ends.
    pub fn start<R, W>(
        reader: R,
        writer: W,
        timeout: Duration,
        reverse: ReverseHandler,
    ) -> (DapClient, mpsc::UnboundedReceiver<Event>)
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (write_tx, write_rx) = mpsc::unbounded_channel::<Vec<u8>>();
        let (event_tx, event_rx) = mpsc::unbounded_channel();
        let inner = Arc::new(Inner {
            seq: AtomicI64::new(1),
            pending: Mutex::new(HashMap::new()),
            writer: write_tx,
            closed: AtomicBool::new(false),
            timeout,
        });
        tokio::spawn(write_loop(writer, write_rx));
        tokio::spawn(read_loop(reader, inner.clone(), event_tx, reverse));
        (DapClient { inner }, event_rx)
    }

    pub fn is_closed(&self) -> bool {
        self.inner.closed.load(Ordering::SeqCst)
    }

    pub fn timeout(&self) -> Duration {
        self.inner.timeout
    }

    /// Sends now, resolves later: the request is on the wire before the
    /// returned future is first polled.
    pub fn request(
        &self,
        command: &str,
        arguments: Option<Value>,
    ) -> impl Future<Output = Result<Value, DapError>> + Send + 'static {
        self.request_with_timeout(command, arguments, self.inner.timeout)
    }

    pub fn request_with_timeout(
        &self,
        command: &str,
        arguments: Option<Value>,
        timeout: Duration,
    ) -> impl Future<Output = Result<Value, DapError>> + Send + 'static {
        let command = command.to_string();
        let rx = self.send(&command, arguments);
        async move {
            let rx = rx?;
            let resp = match tokio::time::timeout(timeout, rx).await {
                Err(_) => {
                    return Err(DapError::Timeout {
                        command,
                        timeout_ms: timeout.as_millis() as u64,
                    });
                }
                Ok(Err(_)) => return Err(DapError::Closed),
                Ok(Ok(r)) => r,
            };
            if resp.success {
                Ok(resp.body.unwrap_or(Value::Null))
            } else {
                Err(DapError::Failed {
                    command,
                    message: resp.error_text(),
                })
            }
        }
    }

    fn send(
        &self,
        command: &str,
        arguments: Option<Value>,
    ) -> Result<oneshot::Receiver<Response>, DapError> {
        if self.is_closed() {
            return Err(DapError::Closed);
        }
        let seq = self.inner.seq.fetch_add(1, Ordering::SeqCst);
        let (tx, rx) = oneshot::channel();
        lock(&self.inner.pending).insert(seq, (command.to_string(), tx));
        let msg = Message::Request(Request {
            seq,
            command: command.to_string(),
            arguments,
        });
        let body = serde_json::to_vec(&msg).unwrap_or_default();
        tracing::trace!(target: "dap", "-> {}", String::from_utf8_lossy(&body));
        if self.inner.writer.send(frame(&body)).is_err() {
            lock(&self.inner.pending).remove(&seq);
            return Err(DapError::Closed);
        }
        Ok(rx)
    }
}

/// Parses a response body into a dap-types struct.
pub fn body_as<T: serde::de::DeserializeOwned>(command: &str, body: Value) -> Result<T, DapError> {
    serde_json::from_value(body).map_err(|e| DapError::BadBody {
        command: command.to_string(),
        message: e.to_string(),
    })
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

async fn write_loop<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut rx: mpsc::UnboundedReceiver<Vec<u8>>,
) {
    while let Some(first) = rx.recv().await {
        // Coalesce a burst of pipelined requests into one write.
        let mut buf = first;
        while let Ok(more) = rx.try_recv() {
            buf.extend_from_slice(&more);
        }
        if writer.write_all(&buf).await.is_err() || writer.flush().await.is_err() {
            break;
        }
    }
}

async fn read_loop<R: AsyncRead + Unpin>(
    reader: R,
    inner: Arc<Inner>,
    events: mpsc::UnboundedSender<Event>,
    reverse: ReverseHandler,
) {
    let mut frames = FramedRead::new(reader, DapCodec::default());
    while let Some(item) = frames.next().await {
        let bytes = match item {
            Ok(b) => b,
            Err(e) => {
                tracing::warn!("DAP stream error, closing: {e}");
                break;
            }
        };
        tracing::trace!(target: "dap", "<- {}", String::from_utf8_lossy(&bytes));
        match envelope::parse(&bytes) {
            Ok(Message::Response(resp)) => {
                let waiter = lock(&inner.pending).remove(&resp.request_seq);
                if let Some((_, tx)) = waiter {
                    let _ = tx.send(resp);
                }
            }
            Ok(Message::Event(ev)) => {
                let _ = events.send(ev);
            }
            Ok(Message::Request(req)) => {
                let (success, message, body) = match reverse(&req) {
                    Ok(body) => (true, None, Some(body)),
                    Err(msg) => (false, Some(msg), None),
                };
                let resp = Message::Response(Response {
                    seq: inner.seq.fetch_add(1, Ordering::SeqCst),
                    request_seq: req.seq,
                    success,
                    command: req.command.clone(),
                    message,
                    body,
                });
                let _ = inner
                    .writer
                    .send(frame(&serde_json::to_vec(&resp).unwrap_or_default()));
            }
            // A body that is not a DAP message is skipped: the framing is intact.
            Err(e) => tracing::warn!("malformed DAP message skipped: {e}"),
        }
    }
    inner.closed.store(true, Ordering::SeqCst);
    // Dropping the senders wakes every waiter with `Closed`.
    lock(&inner.pending).clear();
}
