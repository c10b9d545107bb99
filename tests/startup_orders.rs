//! The start-up sequence against a scripted adapter over an in-memory pipe,
//! in each of the three message orders real adapters use (see the recorded
//! transcripts): delve's, lldb-dap's and debugpy's. Real debugpy covers its
//! own order in the end-to-end tests.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::BytesMut;
use futures::StreamExt;
use pairdbg::dap::codec::{DapCodec, frame};
use pairdbg::session::connector::{Connector, Spawned, Transport};
use pairdbg::session::handle::WaitOutcome;
use pairdbg::session::validate::Workspace;
use pairdbg::session::{
    BreakpointRequest, BreakpointSelector, LaunchRequest, Origin, SessionError, SessionEvent,
    SessionHandle,
};
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio_util::codec::FramedRead;

#[derive(Clone, Copy, Debug)]
enum Order {
    /// delve: `initialized` before the launch response.
    InitializedFirst,
    /// lldb-dap: the launch response, then `initialized`.
    LaunchResponseFirst,
    /// debugpy: `initialized`, and the launch response held until configurationDone.
    LaunchHeld,
    /// As delve's, but the first stop comes before configurationDone's
    /// answer, as the reader may hand it over first.
    StopOvertakes,
    /// As delve's, but a change of breakpoints after the start is answered
    /// late, as an adapter that handles requests concurrently may.
    SlowChanges,
}

struct Fake {
    order: Order,
    log: Arc<Mutex<Vec<String>>>,
    program: String,
    garbage: bool,
    tcp: bool,
    /// Over TCP, on a port the fake picks and prints on its stdout.
    announced: bool,
}

/// How the fake announces its port, after a line of its own chatter.
fn announced_at(line: &str) -> Option<std::net::SocketAddr> {
    line.strip_prefix("fake listening at ")?.parse().ok()
}

impl Connector for Fake {
    fn connect(&self, _config: &pairdbg::session::LaunchConfig) -> Result<Spawned, SessionError> {
        let transport = if self.announced {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
            l.set_nonblocking(true).expect("nonblocking");
            let addr = l.local_addr().expect("addr");
            let (mut stdout, theirs) = tokio::io::duplex(1024);
            let (order, log, program) = (self.order, self.log.clone(), self.program.clone());
            tokio::spawn(async move {
                let line = format!("fake adapter 1.0\nfake listening at {addr}\n");
                stdout.write_all(line.as_bytes()).await.expect("stdout");
                let l = tokio::net::TcpListener::from_std(l).expect("listener");
                let (sock, _) = l.accept().await.expect("the engine connects");
                // What the adapter prints later is drained, never blocking it.
                for _ in 0..200 {
                    let _ = stdout.write_all(b"more adapter output\n").await;
                }
                run_fake(sock, order, log, program, false).await;
            });
            Transport::Announced {
                stdout: Box::pin(theirs),
                parse: announced_at,
                who: "fake",
            }
        } else if self.tcp {
            // The fake listens only a while after the engine starts to
            // connect, as a TCP adapter does while it starts up.
            let addr = pairdbg::dap::transport::free_loopback_port().expect("a port");
            let (order, log, program) = (self.order, self.log.clone(), self.program.clone());
            tokio::spawn(async move {
                let _ =
                    tokio::time::timeout(Duration::from_millis(150), std::future::pending::<()>())
                        .await;
                let l = tokio::net::TcpListener::bind(addr).await.expect("bind");
                let (sock, _) = l.accept().await.expect("the engine connects");
                run_fake(sock, order, log, program, false).await;
            });
            Transport::Tcp(addr)
        } else {
            let (ours, theirs) = tokio::io::duplex(64 * 1024);
            let (r, w) = tokio::io::split(ours);
            tokio::spawn(run_fake(
                theirs,
                self.order,
                self.log.clone(),
                self.program.clone(),
                self.garbage,
            ));
            Transport::Stdio {
                reader: Box::pin(r),
                writer: Box::pin(w),
            }
        };
        Ok(Spawned {
            process: None,
            transport,
            program_output: None,
            on_terminal: false,
            start: ("launch", json!({"program": self.program})),
            exit_code_file: None,
            notes: vec![],
        })
    }
}

/// An adapter that starts, talks, and never says its port.
struct Silent;

impl Connector for Silent {
    fn connect(&self, _config: &pairdbg::session::LaunchConfig) -> Result<Spawned, SessionError> {
        let (mut stdout, theirs) = tokio::io::duplex(1024);
        tokio::spawn(async move {
            stdout
                .write_all(
                    b"silent adapter 1.0
",
                )
                .await
                .expect("stdout");
            // Still running, so only the deadline can end the wait.
            std::future::pending::<()>().await;
            drop(stdout);
        });
        Ok(Spawned {
            process: None,
            transport: Transport::Announced {
                stdout: Box::pin(theirs),
                parse: announced_at,
                who: "fakedlv",
            },
            program_output: None,
            on_terminal: false,
            start: ("launch", json!({})),
            exit_code_file: None,
            notes: vec![],
        })
    }
}

struct Out<W> {
    w: W,
    seq: i64,
}

impl<W: tokio::io::AsyncWrite + Unpin> Out<W> {
    async fn send(&mut self, mut msg: Value) {
        self.seq += 1;
        msg["seq"] = json!(self.seq);
        let _ = self.w.write_all(&frame(msg.to_string().as_bytes())).await;
    }
    async fn respond(&mut self, req: &Value, body: Value) {
        self.send(json!({"type":"response","request_seq":req["seq"],"success":true,"command":req["command"],"body":body})).await;
    }
    async fn event(&mut self, name: &str, body: Value) {
        self.send(json!({"type":"event","event":name,"body":body}))
            .await;
    }
}

async fn run_fake<S: AsyncRead + AsyncWrite + Send + 'static>(
    io: S,
    order: Order,
    log: Arc<Mutex<Vec<String>>>,
    program: String,
    garbage: bool,
) {
    let (r, w) = tokio::io::split(io);
    let mut out = Out { w, seq: 0 };
    let mut frames = FramedRead::new(r, DapCodec::default());
    let mut held_launch: Option<Value> = None;
    while let Some(Ok(bytes)) = frames.next().await {
        let bytes: BytesMut = bytes;
        let req: Value = serde_json::from_slice(&bytes).expect("client sent JSON");
        let cmd = req["command"].as_str().unwrap_or_default().to_string();
        log.lock().unwrap().push(cmd.clone());
        match cmd.as_str() {
            "initialize" => {
                if garbage {
                    let _ = out.w.write_all(b"Content-Length: nope\r\n\r\n{}").await;
                    continue;
                }
                out.respond(&req, json!({"supportsConfigurationDoneRequest": true, "exceptionBreakpointFilters": [{"filter":"uncaught","label":"Uncaught"}]})).await;
            }
            "launch" => match order {
                Order::InitializedFirst | Order::StopOvertakes | Order::SlowChanges => {
                    out.event("initialized", Value::Null).await;
                    out.respond(&req, Value::Null).await;
                }
                Order::LaunchResponseFirst => {
                    out.respond(&req, Value::Null).await;
                    out.event("initialized", Value::Null).await;
                }
                Order::LaunchHeld => {
                    out.event("initialized", Value::Null).await;
                    held_launch = Some(req.clone());
                }
            },
            "setBreakpoints" => {
                let later = log.lock().unwrap().iter().filter(|c| *c == "setBreakpoints").count() > 1;
                if later && matches!(order, Order::SlowChanges) {
                    let _ = tokio::time::timeout(Duration::from_millis(300), std::future::pending::<()>()).await;
                }
                let bps: Vec<Value> = req["arguments"]["breakpoints"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                    .map(|(i, b)| json!({"id": i + 1, "verified": true, "line": b["line"]}))
                    .collect();
                out.respond(&req, json!({"breakpoints": bps})).await;
                log.lock().unwrap().push("answered setBreakpoints".into());
            }
            "setExceptionBreakpoints" => out.respond(&req, Value::Null).await,
            "configurationDone" if matches!(order, Order::StopOvertakes) => {
                // The second breakpoint's, though the frame is on the first's line.
                out.event("stopped", json!({"reason": "breakpoint", "threadId": 1, "hitBreakpointIds": [2]})).await;
                out.respond(&req, Value::Null).await;
            }
            "configurationDone" => {
                out.respond(&req, Value::Null).await;
                if let Some(l) = held_launch.take() {
                    out.respond(&l, Value::Null).await;
                }
                out.event("stopped", json!({"reason": "breakpoint", "threadId": 1})).await;
            }
            "stackTrace" => {
                out.respond(&req, json!({"stackFrames": [{"id": 1000, "name": "work", "line": 2, "column": 1, "source": {"path": program}}], "totalFrames": 1})).await;
            }
            "scopes" => out.respond(&req, json!({"scopes": [{"name": "Locals", "variablesReference": 7, "expensive": false}]})).await,
            "variables" => {
                out.respond(&req, json!({"variables": [{"name": "x", "value": "42", "type": "int", "variablesReference": 0}]})).await
            }
            "evaluate" => out.respond(&req, json!({"result": "43", "type": "int", "variablesReference": 0})).await,
            "continue" => {
                out.respond(&req, json!({"allThreadsContinued": true})).await;
                out.event("exited", json!({"exitCode": -3})).await;
                out.event("terminated", Value::Null).await;
            }
            "disconnect" => {
                out.respond(&req, Value::Null).await;
                return;
            }
            _ => {
                out.send(json!({"type":"response","request_seq":req["seq"],"success":false,"command":cmd,"message":"not scripted"})).await;
            }
        }
    }
}

async fn start(
    order: Order,
    garbage: bool,
    tcp: bool,
    announced: bool,
) -> (SessionHandle, Arc<Mutex<Vec<String>>>, tempfile::TempDir) {
    start_at(order, garbage, tcp, announced, &[2]).await
}

async fn start_at(
    order: Order,
    garbage: bool,
    tcp: bool,
    announced: bool,
    lines: &[i64],
) -> (SessionHandle, Arc<Mutex<Vec<String>>>, tempfile::TempDir) {
    let ws = common::workspace(&[("prog.py", "x = 41\nx += 1\nprint(x)\n")]);
    let workspace = Workspace::new(ws.path(), false);
    let request = LaunchRequest {
        program: Some("prog.py".into()),
        breakpoints: lines
            .iter()
            .map(|&line| BreakpointRequest {
                file: "prog.py".into(),
                line,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    let config = request
        .validate(&workspace, Duration::from_secs(5))
        .expect("valid launch");
    let log = Arc::new(Mutex::new(vec![]));
    let fake = Fake {
        order,
        log: log.clone(),
        program: workspace.root.join("prog.py").display().to_string(),
        garbage,
        tcp,
        announced,
    };
    let handle = SessionHandle::launch_with("t1".into(), config, Arc::new(fake));
    (handle, log, ws)
}

async fn reaches_first_stop(order: Order) {
    reaches_first_stop_over(order, false).await;
}

async fn reaches_first_stop_over(order: Order, tcp: bool) {
    reaches_first_stop_by(order, tcp, false).await;
}

async fn reaches_first_stop_by(order: Order, tcp: bool, announced: bool) {
    let (s, log, _ws) = start(order, false, tcp, announced).await;
    let mut events = s.subscribe();
    let WaitOutcome::Stopped(snap) = s.wait_for_stop(0, Duration::from_secs(10)).await else {
        panic!(
            "{order:?}: no stop; requests were {:?}",
            log.lock().unwrap()
        );
    };
    let stop = snap.stop.as_ref().expect("stop details");
    assert_eq!(stop.frames[0].line, 2);
    assert_eq!(stop.locals[0].value, "42");
    assert!(
        snap.breakpoints[0].verified,
        "{order:?}: {:?}",
        snap.breakpoints
    );
    let seen = log.lock().unwrap().clone();
    let pos = |c: &str| {
        seen.iter()
            .position(|x| x == c)
            .unwrap_or_else(|| panic!("{order:?}: no {c} in {seen:?}"))
    };
    assert!(pos("initialize") < pos("launch"), "{seen:?}");
    assert!(pos("launch") < pos("setBreakpoints"), "{seen:?}");
    assert!(pos("setBreakpoints") < pos("configurationDone"), "{seen:?}");
    assert!(
        pos("setExceptionBreakpoints") < pos("configurationDone"),
        "{seen:?}"
    );

    let v = s
        .evaluate(Origin::Agent, "x + 1".into(), 0)
        .await
        .expect("evaluate");
    assert_eq!(v.value, "43");
    let stop_seq = s.resume(Origin::Agent).await.expect("continue");
    let WaitOutcome::Exited(snap) = s.wait_for_stop(stop_seq, Duration::from_secs(10)).await else {
        panic!("no exit")
    };
    assert_eq!(
        snap.exit.as_ref().and_then(|e| e.exit_code),
        Some(-3),
        "a negative exit code survives"
    );

    // Controllers hear every change on the broadcast channel, in order.
    let mut seen = vec![];
    while let Ok(e) = events.try_recv() {
        seen.push(match e {
            SessionEvent::Stopped { .. } => "stopped",
            SessionEvent::Continued => "continued",
            SessionEvent::Exited { .. } => "exited",
            SessionEvent::BreakpointsChanged => "breakpoints",
            SessionEvent::Command {
                origin: Origin::Agent,
                ..
            } => "agent command",
            _ => "other",
        });
    }
    let at = |w: &str| {
        seen.iter()
            .position(|x| *x == w)
            .unwrap_or_else(|| panic!("no {w} in {seen:?}"))
    };
    assert!(
        at("breakpoints") < at("stopped")
            && at("stopped") < at("continued")
            && at("continued") < at("exited"),
        "{seen:?}"
    );
    assert!(at("agent command") < at("continued"), "{seen:?}");
    assert!(
        snap.epoch > 3,
        "every change raises the epoch: {}",
        snap.epoch
    );
}

#[tokio::test]
async fn delve_order_initialized_before_launch_response() {
    reaches_first_stop(Order::InitializedFirst).await;
}

#[tokio::test]
async fn lldb_order_initialized_after_launch_response() {
    reaches_first_stop(Order::LaunchResponseFirst).await;
}

#[tokio::test]
async fn debugpy_order_launch_response_held_until_configuration_done() {
    reaches_first_stop(Order::LaunchHeld).await;
}

/// The breakpoints' answers are in before the program can stop on them:
/// a stop that overtakes configurationDone's answer still knows which one
/// it hit (delve's entry stop is told apart the same way).
#[tokio::test]
async fn a_stop_before_configuration_done_is_answered_knows_its_breakpoint() {
    let (s, log, _ws) = start_at(Order::StopOvertakes, false, false, false, &[2, 3]).await;
    let WaitOutcome::Stopped(snap) = s.wait_for_stop(0, Duration::from_secs(10)).await else {
        panic!("no stop; requests were {:?}", log.lock().unwrap());
    };
    let hits: Vec<(u64, u64)> = snap.breakpoints.iter().map(|b| (b.line, b.hits)).collect();
    assert_eq!(
        hits,
        [(2, 0), (3, 1)],
        "the hit is the one the adapter named"
    );
}

/// delve's way in: the adapter listens on a loopback port a while after it
/// is spawned, and the engine connects with retry.
#[tokio::test]
async fn a_tcp_adapter_is_connected_to_with_retry() {
    reaches_first_stop_over(Order::InitializedFirst, true).await;
}

/// js-debug's way in: the adapter picks its own port and prints it.
#[tokio::test]
async fn an_adapter_is_reached_on_the_port_it_announces() {
    reaches_first_stop_by(Order::LaunchHeld, false, true).await;
}

#[tokio::test]
async fn a_malformed_frame_fails_the_session_without_a_panic() {
    let (s, _log, _ws) = start(Order::LaunchHeld, true, false, false).await;
    let WaitOutcome::Failed(snap) = s.wait_for_stop(0, Duration::from_secs(10)).await else {
        panic!("a malformed frame should fail the session");
    };
    let msg = snap.error.clone().unwrap_or_default();
    assert!(msg.contains("adapter"), "{msg}");
    let e = s.resume(Origin::Agent).await.unwrap_err().to_string();
    assert!(e.contains("failed"), "the error names the state: {e}");
}

/// A removed breakpoint is answered for once the adapter has it gone, so
/// a continue sent next cannot meet it.
#[tokio::test]
async fn a_removal_is_answered_after_the_adapter_answers_it() {
    let (s, log, _ws) = start(Order::SlowChanges, false, false, false).await;
    let WaitOutcome::Stopped(_) = s.wait_for_stop(0, Duration::from_secs(10)).await else {
        panic!("no stop; requests were {:?}", log.lock().unwrap());
    };
    let (removed, _) = s
        .remove_breakpoint(
            Origin::Agent,
            BreakpointSelector::Location {
                file: "prog.py".into(),
                line: 2,
            },
        )
        .await
        .expect("removed");
    assert_eq!(removed.len(), 1);
    let answered = log
        .lock()
        .unwrap()
        .iter()
        .filter(|c| *c == "answered setBreakpoints")
        .count();
    assert_eq!(
        answered, 2,
        "the removal's setBreakpoints was answered first"
    );
}

/// An adapter that never says which port it listens on fails the session
/// by its deadline, with an error naming it and quoting what it printed.
#[tokio::test]
async fn an_adapter_that_never_announces_its_port_fails_by_name() {
    let ws = common::workspace(&[("prog.py", "x = 1\n")]);
    let workspace = Workspace::new(ws.path(), false);
    let request = LaunchRequest {
        program: Some("prog.py".into()),
        ..Default::default()
    };
    let config = request
        .validate(&workspace, Duration::from_millis(500))
        .expect("valid launch");
    let s = SessionHandle::launch_with("t1".into(), config, Arc::new(Silent));
    let WaitOutcome::Failed(snap) = s.wait_for_stop(0, Duration::from_secs(10)).await else {
        panic!("a silent adapter should fail the session");
    };
    let msg = snap.error.clone().unwrap_or_default();
    assert!(
        msg.contains("fakedlv did not say which port it listens on within 0.5 s")
            && msg.contains("silent adapter 1.0"),
        "{msg}"
    );
}
