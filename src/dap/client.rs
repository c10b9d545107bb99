//! Request/response correlation over one adapter connection.
//!
//! Requests are written the moment `request` is called, so callers can send
//! several (after a stop, say) before awaiting any of them.

use crate::sync::Locked;
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

/// What the DAP trace writes in place of a message: the session's secrets
/// masked, since the log outlives the session.
pub type TraceMask = Arc<dyn Fn(&str) -> String + Send + Sync>;

/// How a client runs: how long a request may take, who answers the
/// adapter's reverse requests, and what the DAP trace masks.
pub struct Settings {
    pub timeout: Duration,
    pub reverse: ReverseHandler,
    pub trace_mask: Option<TraceMask>,
}

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
    /// The requests still unanswered when the adapter closed, so the end
    /// can say what the adapter was doing when it went.
    in_flight_at_close: Mutex<Vec<String>>,
    trace_mask: Option<TraceMask>,
}

impl Inner {
    /// Writes a message to the DAP trace, masked. Nothing is formatted
    /// or masked unless the trace is on.
    fn trace(&self, arrow: &str, body: &[u8]) {
        if !tracing::enabled!(target: "dap", tracing::Level::TRACE) {
            return;
        }
        let text = String::from_utf8_lossy(body);
        let text = match &self.trace_mask {
            Some(mask) => mask(&text),
            None => text.into_owned(),
        };
        tracing::trace!(target: "dap", "{arrow} {text}");
    }
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
        let (event_tx, event_rx) = mpsc::unbounded_channel();
        let settings = Settings {
            timeout,
            reverse,
            trace_mask: None,
        };
        let client = Self::start_tagged(reader, writer, settings, event_tx, |ev| ev, None);
        (client, event_rx)
    }

    /// Like `start`, with the events put on a channel several connections
    /// share, each made a `T` by `tag`, and `closed` sent when the adapter
    /// closes. They go straight from the reader: an event the adapter sent
    /// before a response is on the channel before that response is seen.
    pub fn start_tagged<R, W, T>(
        reader: R,
        writer: W,
        settings: Settings,
        events: mpsc::UnboundedSender<T>,
        tag: impl Fn(Event) -> T + Send + 'static,
        closed: Option<T>,
    ) -> DapClient
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
        T: Send + 'static,
    {
        let (write_tx, write_rx) = mpsc::unbounded_channel::<Vec<u8>>();
        let inner = Arc::new(Inner {
            seq: AtomicI64::new(1),
            pending: Mutex::new(HashMap::new()),
            writer: write_tx,
            closed: AtomicBool::new(false),
            timeout: settings.timeout,
            in_flight_at_close: Mutex::new(vec![]),
            trace_mask: settings.trace_mask,
        });
        tokio::spawn(write_loop(writer, write_rx));
        let sink = Sink {
            events,
            tag: Box::new(tag),
            closed,
        };
        tokio::spawn(read_loop(reader, inner.clone(), sink, settings.reverse));
        DapClient { inner }
    }

    pub fn is_closed(&self) -> bool {
        self.inner.closed.load(Ordering::SeqCst)
    }

    pub fn timeout(&self) -> Duration {
        self.inner.timeout
    }

    /// The commands that were awaiting an answer when the adapter closed,
    /// oldest first; empty while it is open.
    pub fn in_flight_at_close(&self) -> Vec<String> {
        self.inner.in_flight_at_close.locked().clone()
    }

    /// Why the adapter is gone, for a session or a request it ends: what it
    /// was asked and never answered. A `cancel` is about a request already
    /// given up on, not work the adapter was doing.
    pub fn gone_reason(&self) -> String {
        let mut in_flight = self.in_flight_at_close();
        let mut seen = std::collections::HashSet::new();
        in_flight.retain(|c| c != "cancel" && seen.insert(c.clone()));
        match in_flight.as_slice() {
            [] => "the debug adapter exited unexpectedly".into(),
            [one] => format!("the debug adapter exited while `{one}` was in flight"),
            many => format!(
                "the debug adapter exited while {} were in flight",
                many.iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
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
        self.request_or_cancel(command, arguments, timeout, false)
    }

    /// Like `request_with_timeout`; when the time is up and `cancel` is
    /// set (the adapter said `supportsCancelRequest`), the adapter is told
    /// with `cancel` to stop working on it.
    pub fn request_or_cancel(
        &self,
        command: &str,
        arguments: Option<Value>,
        timeout: Duration,
        cancel: bool,
    ) -> impl Future<Output = Result<Value, DapError>> + Send + 'static {
        let command = command.to_string();
        let sent = self.send(&command, arguments);
        let client = self.clone();
        async move {
            let (seq, rx) = sent?;
            let resp = match tokio::time::timeout(timeout, rx).await {
                Err(_) => {
                    // A late answer has nobody to go to.
                    client.inner.pending.locked().remove(&seq);
                    if cancel {
                        // Its answer matters to nobody; waiting for it
                        // only clears its entry.
                        let told = client.request_with_timeout(
                            "cancel",
                            Some(serde_json::json!({"requestId": seq})),
                            timeout,
                        );
                        tokio::spawn(told);
                    }
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
    ) -> Result<(i64, oneshot::Receiver<Response>), DapError> {
        if self.is_closed() {
            return Err(DapError::Closed);
        }
        let seq = self.inner.seq.fetch_add(1, Ordering::SeqCst);
        let (tx, rx) = oneshot::channel();
        self.inner
            .pending
            .locked()
            .insert(seq, (command.to_string(), tx));
        let msg = Message::Request(Request {
            seq,
            command: command.to_string(),
            arguments,
        });
        let body = serde_json::to_vec(&msg).unwrap_or_default();
        self.inner.trace("->", &body);
        if self.inner.writer.send(frame(&body)).is_err() {
            self.inner.pending.locked().remove(&seq);
            return Err(DapError::Closed);
        }
        Ok((seq, rx))
    }
}

/// Parses a response body into a dap-types struct.
pub fn body_as<T: serde::de::DeserializeOwned>(command: &str, body: Value) -> Result<T, DapError> {
    serde_json::from_value(body).map_err(|e| DapError::BadBody {
        command: command.to_string(),
        message: e.to_string(),
    })
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

/// Where a reader puts its events.
struct Sink<T> {
    events: mpsc::UnboundedSender<T>,
    tag: Box<dyn Fn(Event) -> T + Send>,
    closed: Option<T>,
}

async fn read_loop<R: AsyncRead + Unpin, T>(
    reader: R,
    inner: Arc<Inner>,
    sink: Sink<T>,
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
        inner.trace("<-", &bytes);
        match envelope::parse(&bytes) {
            Ok(Message::Response(resp)) => {
                let waiter = inner.pending.locked().remove(&resp.request_seq);
                if let Some((_, tx)) = waiter {
                    let _ = tx.send(resp);
                }
            }
            Ok(Message::Event(ev)) => {
                let _ = sink.events.send((sink.tag)(ev));
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
    let mut pending: Vec<(i64, String)> = inner
        .pending
        .locked()
        .iter()
        .map(|(seq, (command, _))| (*seq, command.clone()))
        .collect();
    pending.sort();
    *inner.in_flight_at_close.locked() = pending.into_iter().map(|(_, c)| c).collect();
    // The news goes out first: a waiter woken by the close may look for it.
    if let Some(closed) = sink.closed {
        let _ = sink.events.send(closed);
    }
    // Dropping the senders wakes every waiter with `Closed`.
    inner.pending.locked().clear();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dap::codec::DapCodec;
    use serde_json::json;
    use tokio::io::AsyncWriteExt;

    /// A client wired to the test's end of an in-memory pipe.
    fn pair(
        timeout_ms: u64,
    ) -> (
        DapClient,
        mpsc::UnboundedReceiver<Event>,
        tokio::io::DuplexStream,
    ) {
        let (ours, theirs) = tokio::io::duplex(64 * 1024);
        let (r, w) = tokio::io::split(ours);
        let (c, ev) = DapClient::start(
            r,
            w,
            Duration::from_millis(timeout_ms),
            default_reverse_handler(),
        );
        (c, ev, theirs)
    }

    async fn next_message(
        frames: &mut FramedRead<tokio::io::ReadHalf<tokio::io::DuplexStream>, DapCodec>,
    ) -> Value {
        let bytes = tokio::time::timeout(Duration::from_secs(5), frames.next())
            .await
            .expect("a message in time")
            .expect("stream open")
            .expect("a frame");
        serde_json::from_slice(&bytes).expect("JSON")
    }

    #[tokio::test]
    async fn responses_are_matched_by_request_seq_in_any_order() {
        let (c, _ev, adapter) = pair(5_000);
        let (r, mut w) = tokio::io::split(adapter);
        let mut frames = FramedRead::new(r, DapCodec::default());
        let a = c.request("threads", None);
        let b = c.request("scopes", Some(json!({"frameId": 1})));
        let ra = next_message(&mut frames).await;
        let rb = next_message(&mut frames).await;
        // Answer the second request first.
        for (req, body) in [
            (rb, json!({"scopes": []})),
            (ra, json!({"threads": [{"id": 1, "name": "main"}]})),
        ] {
            let resp = json!({"seq": 9, "type": "response", "request_seq": req["seq"], "success": true, "command": req["command"], "body": body});
            w.write_all(&frame(resp.to_string().as_bytes()))
                .await
                .unwrap();
        }
        assert_eq!(a.await.unwrap()["threads"][0]["name"], "main");
        assert_eq!(b.await.unwrap()["scopes"], json!([]));
    }

    #[tokio::test]
    async fn a_silent_adapter_times_out_and_a_closed_one_says_so() {
        let (c, _ev, adapter) = pair(50);
        let err = c.request("threads", None).await.unwrap_err();
        assert!(
            matches!(err, DapError::Timeout { ref command, timeout_ms: 50 } if command == "threads"),
            "{err}"
        );
        assert!(err.to_string().contains("within 50 ms"));
        assert!(
            c.inner.pending.locked().is_empty(),
            "a timed-out request leaves no waiter behind"
        );
        let pending = c.request_with_timeout("threads", None, Duration::from_secs(5));
        drop(adapter);
        assert!(matches!(pending.await.unwrap_err(), DapError::Closed));
        assert!(matches!(
            c.request("threads", None).await.unwrap_err(),
            DapError::Closed
        ));
    }

    #[tokio::test]
    async fn a_read_given_up_is_cancelled_and_a_close_names_what_was_pending() {
        let (c, _ev, adapter) = pair(5_000);
        let (r, w) = tokio::io::split(adapter);
        let mut frames = FramedRead::new(r, DapCodec::default());
        let slow = c.request_or_cancel("variables", None, Duration::from_millis(50), true);
        let sent = next_message(&mut frames).await;
        assert!(matches!(slow.await, Err(DapError::Timeout { .. })));
        let cancel = next_message(&mut frames).await;
        assert_eq!(cancel["command"], "cancel");
        assert_eq!(cancel["arguments"]["requestId"], sent["seq"]);

        assert!(c.in_flight_at_close().is_empty());
        let pending = c.request_with_timeout("stackTrace", None, Duration::from_secs(5));
        next_message(&mut frames).await;
        drop((frames, w));
        assert!(matches!(pending.await, Err(DapError::Closed)));
        // The cancel, unanswered too, was still pending.
        assert_eq!(c.in_flight_at_close(), ["cancel", "stackTrace"]);
    }

    #[tokio::test]
    async fn reverse_requests_are_answered() {
        let (_c, _ev, adapter) = pair(5_000);
        let (r, mut w) = tokio::io::split(adapter);
        let mut frames = FramedRead::new(r, DapCodec::default());
        for (seq, command) in [
            (40, "runInTerminal"),
            (41, "startDebugging"),
            (42, "somethingNew"),
        ] {
            let req = json!({"seq": seq, "type": "request", "command": command, "arguments": {}});
            w.write_all(&frame(req.to_string().as_bytes()))
                .await
                .unwrap();
            let resp = next_message(&mut frames).await;
            assert_eq!(resp["type"], "response");
            assert_eq!(resp["request_seq"], seq);
            assert_eq!(resp["command"], command);
            assert_eq!(resp["success"], false, "{resp}");
            assert!(resp["message"].as_str().unwrap().len() > 10, "{resp}");
        }
    }

    #[tokio::test]
    async fn events_arrive_in_order_and_garbage_bodies_are_skipped() {
        let (_c, mut ev, adapter) = pair(5_000);
        let (_r, mut w) = tokio::io::split(adapter);
        w.write_all(&frame(
            br#"{"seq":1,"type":"event","event":"output","body":{"output":"a"}}"#,
        ))
        .await
        .unwrap();
        w.write_all(&frame(b"not json")).await.unwrap();
        w.write_all(&frame(
            br#"{"seq":2,"type":"event","event":"vendorSockets"}"#,
        ))
        .await
        .unwrap();
        assert_eq!(ev.recv().await.unwrap().event, "output");
        assert_eq!(ev.recv().await.unwrap().event, "vendorSockets");
    }
}
