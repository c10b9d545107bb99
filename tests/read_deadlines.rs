//! A read at a stop that the adapter never answers (a variable's children,
//! a watch): the stop still shows, well before the session's request
//! timeout, with that value marked not read and the request cancelled; the
//! program still steps. An adapter that dies while a read is pending ends
//! the session naming that read. Played by a scripted adapter over an
//! in-memory pipe.

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::StreamExt;
use pairdbg::dap::codec::{DapCodec, frame};
use pairdbg::session::connector::{Connector, Spawned, Transport};
use pairdbg::session::handle::WaitOutcome;
use pairdbg::session::validate::Workspace;
use pairdbg::session::{LaunchRequest, Origin, SessionError, SessionHandle, StepKind};
use pairdbg::viewport::ViewportConfig;
use pairdbg::viewport::value::render;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio_util::codec::FramedRead;

/// The reference of `item`'s children, which the adapter never answers.
const SLOW: i64 = 7;

#[derive(Clone, Copy)]
enum Fault {
    /// Never answers, as an adapter spinning on one value.
    Hang,
    /// The adapter exits with the read unanswered.
    Die,
    /// Every stackTrace fails.
    StackFails,
    /// Answers every read, and exits when asked to evaluate `exit_now`.
    DieInEvaluate,
}

struct Fake {
    log: Arc<Mutex<Vec<Value>>>,
    program: String,
    on_slow: Fault,
}

impl Connector for Fake {
    fn connect(&self, _config: &pairdbg::session::LaunchConfig) -> Result<Spawned, SessionError> {
        let (ours, theirs) = tokio::io::duplex(64 * 1024);
        let (r, w) = tokio::io::split(ours);
        tokio::spawn(run_fake(
            theirs,
            self.log.clone(),
            self.program.clone(),
            self.on_slow,
        ));
        Ok(Spawned {
            process: None,
            transport: Transport::Stdio {
                reader: Box::pin(r),
                writer: Box::pin(w),
            },
            program_output: None,
            on_terminal: false,
            start: ("launch", json!({"program": self.program})),
            exit_code_file: None,
            notes: vec![],
        })
    }
}

/// Stops at line 2 with locals `count` and `item`; a step goes to line 3.
async fn run_fake(
    io: tokio::io::DuplexStream,
    log: Arc<Mutex<Vec<Value>>>,
    program: String,
    on_slow: Fault,
) {
    let (r, mut w) = tokio::io::split(io);
    let mut frames = FramedRead::new(r, DapCodec::default());
    let mut seq = 0;
    let mut send = |msg: Value| {
        seq += 1;
        let mut msg = msg;
        msg["seq"] = json!(seq);
        frame(msg.to_string().as_bytes())
    };
    let mut line = 2;
    while let Some(Ok(bytes)) = frames.next().await {
        let req: Value = serde_json::from_slice(&bytes).expect("JSON");
        let cmd = req["command"].as_str().unwrap_or_default().to_string();
        log.lock().unwrap().push(req.clone());
        let ok = |body: Value| json!({"type":"response","request_seq":req["seq"],"success":true,"command":cmd,"body":body});
        let stopped = |reason: &str| json!({"type":"event","event":"stopped","body":{"reason":reason,"threadId":1}});
        let mut out = vec![];
        match cmd.as_str() {
            "initialize" => out.push(ok(
                json!({"supportsConfigurationDoneRequest": true, "supportsCancelRequest": true}),
            )),
            "launch" => {
                out.push(ok(Value::Null));
                out.push(json!({"type":"event","event":"initialized"}));
            }
            "configurationDone" => {
                out.push(ok(Value::Null));
                out.push(stopped("entry"));
            }
            "next" => {
                out.push(ok(Value::Null));
                line = 3;
                out.push(stopped("step"));
            }
            "threads" => out.push(ok(json!({"threads": [{"id": 1, "name": "main"}]}))),
            "stackTrace" if matches!(on_slow, Fault::StackFails) => out.push(json!({"type":"response","request_seq":req["seq"],"success":false,"command":cmd,"message":"no frames here"})),
            "stackTrace" => out.push(ok(json!({"stackFrames": [{"id": 1000, "name": "main", "line": line, "column": 1, "source": {"path": program}}], "totalFrames": 1}))),
            "scopes" => out.push(ok(
                json!({"scopes": [{"name": "Locals", "variablesReference": 1, "expensive": false}]}),
            )),
            "variables" if req["arguments"]["variablesReference"] == json!(SLOW) => match on_slow {
                Fault::Hang => continue,
                Fault::Die => return,
                Fault::StackFails => continue,
                Fault::DieInEvaluate => out.push(ok(json!({"variables": []}))),
            },
            "evaluate" if req["arguments"]["expression"] == "exit_now" => return,
            "evaluate" if req["arguments"]["expression"] == "slow_watch" => continue,
            "variables" => out.push(ok(json!({"variables": [
                {"name": "count", "value": "3", "type": "int", "variablesReference": 0},
                {"name": "item", "value": "", "type": "Item", "variablesReference": SLOW}
            ]}))),
            "disconnect" => {
                out.push(ok(Value::Null));
                for m in out {
                    let _ = w.write_all(&send(m)).await;
                }
                return;
            }
            _ => out.push(ok(Value::Null)),
        }
        for m in out {
            let _ = w.write_all(&send(m)).await;
        }
    }
}

fn launch(on_slow: Fault) -> (SessionHandle, Arc<Mutex<Vec<Value>>>, tempfile::TempDir) {
    let ws = common::workspace(&[(
        "prog.c",
        "int main(void) {\n  int count = 3;\n  count++;\n}\n",
    )]);
    let workspace = Workspace::new(ws.path(), false);
    let config = LaunchRequest {
        program: Some("prog.c".into()),
        language: Some("c".into()),
        ..Default::default()
    }
    // The session's own timeout: a stop must not wait for it.
    .validate(&workspace, Duration::from_secs(20))
    .expect("valid launch");
    let log = Arc::new(Mutex::new(vec![]));
    let fake = Fake {
        log: log.clone(),
        program: workspace.root.join("prog.c").display().to_string(),
        on_slow,
    };
    let s = SessionHandle::launch_with("t1".into(), config, Arc::new(fake));
    (s, log, ws)
}

fn commands(log: &Mutex<Vec<Value>>) -> Vec<String> {
    log.lock()
        .unwrap()
        .iter()
        .map(|r| r["command"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn a_read_that_never_answers_leaves_the_stop_usable() {
    let (s, log, _ws) = launch(Fault::Hang);
    let started = Instant::now();
    let WaitOutcome::Stopped(snap) = s.wait_for_stop(0, Duration::from_secs(15)).await else {
        panic!("no first stop: {:?}", commands(&log))
    };
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(10),
        "the stop took {waited:?}: it waited for the session's timeout"
    );
    let stop = snap.stop.as_ref().expect("a stop");
    let cfg = ViewportConfig::default();
    let shown: Vec<(String, String)> = stop
        .locals
        .iter()
        .map(|v| (v.name.clone(), render(v, &cfg, 0)))
        .collect();
    assert_eq!(
        shown,
        [
            ("count".to_string(), "3".to_string()),
            (
                "item".to_string(),
                "<not read: the adapter took longer than 3000 ms>".to_string()
            ),
        ]
    );
    let json = serde_json::to_value(&stop.locals[1]).unwrap();
    assert_eq!(
        json["not_read"], "the adapter took longer than 3000 ms",
        "{json}"
    );

    // The request given up on is cancelled, by its sequence number.
    let slow_seq = log
        .lock()
        .unwrap()
        .iter()
        .find(|r| r["command"] == "variables" && r["arguments"]["variablesReference"] == SLOW)
        .map(|r| r["seq"].clone())
        .expect("the slow read was sent");
    let cancelled = common::poll(
        || {
            log.lock()
                .unwrap()
                .iter()
                .any(|r| r["command"] == "cancel" && r["arguments"]["requestId"] == slow_seq)
        },
        |done| *done,
        Duration::from_secs(5),
    )
    .await;
    assert!(
        cancelled,
        "no cancel for request {slow_seq}: {:?}",
        commands(&log)
    );

    s.watch(Origin::Agent, vec!["slow_watch".into()], vec![])
        .await
        .expect("the watch is added");
    let stop_seq = s
        .step(Origin::Agent, StepKind::Over, 1)
        .await
        .expect("the step is taken");
    let WaitOutcome::Stopped(snap) = s.wait_for_stop(stop_seq, Duration::from_secs(15)).await
    else {
        panic!("no stop after the step: {:?}", commands(&log))
    };
    let stop = snap.stop.as_ref().expect("a stop");
    assert_eq!(stop.frames[0].line, 3, "the step landed");
    assert!(snap.error.is_none(), "{:?}", snap.error);
    assert_eq!(render(&stop.locals[0], &cfg, 0), "3");
    let watched: Vec<(String, String)> = snap
        .watches
        .iter()
        .map(|w| {
            let shown = w.value.as_ref().map(|v| render(v, &cfg, 0));
            (w.expression.clone(), shown.unwrap_or_else(|e| e.clone()))
        })
        .collect();
    assert_eq!(
        watched,
        [(
            "slow_watch".to_string(),
            "<not read: the adapter took longer than 3000 ms>".to_string()
        )]
    );
}

#[tokio::test]
async fn an_adapter_that_dies_mid_read_ends_the_session_naming_the_read() {
    let (s, log, _ws) = launch(Fault::Die);
    let outcome = s.wait_for_stop(0, Duration::from_secs(15)).await;
    let WaitOutcome::Failed(snap) = outcome else {
        panic!("the session did not fail: {:?} {outcome:?}", commands(&log))
    };
    let error = snap.error.clone().unwrap_or_default();
    assert!(
        error.contains("the debug adapter exited while `variables` was in flight"),
        "{error}"
    );
}

#[tokio::test]
async fn an_adapter_that_dies_during_an_evaluate_says_so_to_the_evaluate() {
    let (s, log, _ws) = launch(Fault::DieInEvaluate);
    let WaitOutcome::Stopped(_) = s.wait_for_stop(0, Duration::from_secs(15)).await else {
        panic!("no stop: {:?}", commands(&log))
    };
    let error = s
        .evaluate(Origin::Agent, "exit_now".into(), 0)
        .await
        .expect_err("the evaluate cannot succeed");
    assert_eq!(
        error.to_string(),
        "The session failed: the debug adapter exited while `evaluate` was in flight."
    );
    // And so does the session, after.
    let WaitOutcome::Failed(snap) = s.wait_for_stop(0, Duration::from_secs(15)).await else {
        panic!("the session did not fail")
    };
    assert_eq!(
        snap.error.as_deref(),
        Some("the debug adapter exited while `evaluate` was in flight")
    );
}

#[tokio::test]
async fn a_stack_that_cannot_be_read_leaves_a_stop_that_says_so() {
    let (s, log, _ws) = launch(Fault::StackFails);
    let WaitOutcome::Stopped(snap) = s.wait_for_stop(0, Duration::from_secs(15)).await else {
        panic!("no stop: {:?}", commands(&log))
    };
    let stop = snap.stop.as_ref().expect("a stop");
    assert!(stop.frames.is_empty());
    let text =
        pairdbg::viewport::render_text(&snap, &ViewportConfig::default(), Default::default());
    assert!(
        text.contains("the stack was not read: `stackTrace` failed: no frames here"),
        "{text}"
    );
    let stop_seq = s
        .step(Origin::Agent, StepKind::Over, 1)
        .await
        .expect("the step is taken");
    assert!(
        matches!(
            s.wait_for_stop(stop_seq, Duration::from_secs(15)).await,
            WaitOutcome::Stopped(_)
        ),
        "the session lives on: {:?}",
        commands(&log)
    );
}
