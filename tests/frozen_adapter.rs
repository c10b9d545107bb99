//! An adapter that stops answering (stopped with SIGSTOP, or stuck) is told
//! apart from a program that runs: the wait for a stop ends when the
//! request's deadline passes, saying which request went unanswered, and
//! every later wait says the same at once until the adapter speaks again.
//! A launch whose adapter never answers `initialize` fails, naming it.
//! Played by a scripted adapter over an in-memory pipe.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use pairdbg::dap::codec::{DapCodec, frame};
use pairdbg::session::connector::{Connector, Spawned, Transport};
use pairdbg::session::handle::WaitOutcome;
use pairdbg::session::validate::Workspace;
use pairdbg::session::{LaunchRequest, Origin, SessionError, SessionHandle, StepKind};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio_util::codec::FramedRead;

#[derive(Clone, Copy, PartialEq)]
enum Frozen {
    /// Answers until the first `next`, then nothing.
    AtNext,
    /// Never answers `initialize`.
    AtInitialize,
    /// Answers `launch` after 1.5 s, as an adapter on a loaded machine.
    SlowStart,
}

struct Fake {
    program: String,
    frozen: Frozen,
}

impl Connector for Fake {
    fn connect(&self, _config: &pairdbg::session::LaunchConfig) -> Result<Spawned, SessionError> {
        let (ours, theirs) = tokio::io::duplex(64 * 1024);
        let (r, w) = tokio::io::split(ours);
        tokio::spawn(run_fake(theirs, self.program.clone(), self.frozen));
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

async fn run_fake(io: tokio::io::DuplexStream, program: String, frozen: Frozen) {
    let (r, mut w) = tokio::io::split(io);
    let mut frames = FramedRead::new(r, DapCodec::default());
    let mut seq = 0;
    let mut silent = false;
    while let Some(Ok(bytes)) = frames.next().await {
        let req: Value = serde_json::from_slice(&bytes).expect("JSON");
        let cmd = req["command"].as_str().unwrap_or_default().to_string();
        silent |= match frozen {
            Frozen::AtNext => cmd == "next",
            Frozen::AtInitialize => cmd == "initialize",
            Frozen::SlowStart => false,
        };
        if frozen == Frozen::SlowStart && cmd == "launch" {
            // The adapter's own latency, played: nothing waits on it.
            tokio::time::sleep(Duration::from_millis(1500)).await;
        }
        if silent {
            continue;
        }
        let ok = |body: Value| json!({"type":"response","request_seq":req["seq"],"success":true,"command":cmd,"body":body});
        let mut out = vec![];
        match cmd.as_str() {
            "initialize" => out.push(ok(json!({"supportsConfigurationDoneRequest": true}))),
            "launch" => {
                out.push(ok(Value::Null));
                out.push(json!({"type":"event","event":"initialized"}));
            }
            "configurationDone" => {
                out.push(ok(Value::Null));
                out.push(json!({"type":"event","event":"stopped","body":{"reason":"entry","threadId":1}}));
            }
            "threads" => out.push(ok(json!({"threads": [{"id": 1, "name": "main"}]}))),
            "stackTrace" => out.push(ok(json!({"stackFrames": [{"id": 1000, "name": "main", "line": 2, "column": 1, "source": {"path": program}}], "totalFrames": 1}))),
            "scopes" => out.push(ok(json!({"scopes": []}))),
            _ => out.push(ok(Value::Null)),
        }
        for m in out {
            seq += 1;
            let mut m = m;
            m["seq"] = json!(seq);
            let _ = w.write_all(&frame(m.to_string().as_bytes())).await;
        }
    }
}

/// A session on the scripted adapter whose requests may take `deadline`.
fn launch(frozen: Frozen, deadline: Duration) -> (SessionHandle, tempfile::TempDir) {
    launch_within(frozen, deadline, deadline)
}

/// As `launch`, with `start` for the adapter to start in.
fn launch_within(
    frozen: Frozen,
    deadline: Duration,
    start: Duration,
) -> (SessionHandle, tempfile::TempDir) {
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
    .validate(&workspace, deadline)
    .expect("valid launch");
    let config = pairdbg::session::LaunchConfig {
        start_timeout: start,
        ..config
    };
    let fake = Fake {
        program: workspace.root.join("prog.c").display().to_string(),
        frozen,
    };
    let s = SessionHandle::launch_with("t1".into(), config, Arc::new(fake));
    (s, ws)
}

#[tokio::test]
async fn a_step_the_adapter_never_answers_says_the_adapter_stopped_answering() {
    let (s, _ws) = launch(Frozen::AtNext, Duration::from_millis(800));
    let WaitOutcome::Stopped(_) = s.wait_for_stop(0, Duration::from_secs(10)).await else {
        panic!("no first stop")
    };
    let stop_seq = s
        .step(Origin::Agent, StepKind::Over, 1)
        .await
        .expect("the step is sent");
    let started = Instant::now();
    let outcome = s.wait_for_stop(stop_seq, Duration::from_secs(30)).await;
    let WaitOutcome::TimedOut(snap) = outcome else {
        panic!("the wait did not end as not answered")
    };
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the wait ran its whole 30 s: {:?}",
        started.elapsed()
    );
    assert_eq!(
        snap.silent.as_deref(),
        Some("the debug adapter stopped answering (no reply to `next` in 1 s)")
    );
    // A later wait says so at once, not after its own timeout.
    let started = Instant::now();
    let WaitOutcome::TimedOut(snap) = s.wait_for_stop(stop_seq, Duration::from_secs(30)).await
    else {
        panic!("the second wait did not end as not answered")
    };
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(snap.silent.is_some());
}

#[tokio::test]
async fn a_wait_shorter_than_the_request_deadline_names_the_unanswered_step() {
    let (s, _ws) = launch(Frozen::AtNext, Duration::from_secs(20));
    let WaitOutcome::Stopped(_) = s.wait_for_stop(0, Duration::from_secs(10)).await else {
        panic!("no first stop")
    };
    let stop_seq = s
        .step(Origin::Agent, StepKind::Over, 1)
        .await
        .expect("the step is sent");
    let WaitOutcome::TimedOut(snap) = s.wait_for_stop(stop_seq, Duration::from_millis(300)).await
    else {
        panic!("the short wait did not time out")
    };
    // Not yet past its deadline, and not known to run either.
    assert!(snap.silent.is_none());
    assert_eq!(snap.unanswered.as_deref(), Some("next"));
}

#[tokio::test]
async fn a_launch_whose_adapter_never_answers_initialize_fails_naming_it() {
    let (s, _ws) = launch(Frozen::AtInitialize, Duration::from_millis(800));
    let outcome = s.wait_for_stop(0, Duration::from_secs(30)).await;
    let WaitOutcome::Failed(snap) = outcome else {
        panic!("the launch did not fail")
    };
    let error = snap.error.clone().unwrap_or_default();
    assert!(
        error.contains("did not answer `initialize` within 800 ms"),
        "{error}"
    );
}

/// Under load an adapter may take longer to start than any one request may
/// take: the caller's wait (`timeout_ms`) is what a start is allowed.
#[tokio::test]
async fn a_start_slower_than_the_request_deadline_succeeds_within_the_callers_wait() {
    let (s, _ws) = launch_within(
        Frozen::SlowStart,
        Duration::from_millis(500),
        Duration::from_secs(10),
    );
    let outcome = s.wait_for_stop(0, Duration::from_secs(15)).await;
    let WaitOutcome::Stopped(snap) = outcome else {
        panic!("the slow start failed")
    };
    assert!(snap.error.is_none(), "{:?}", snap.error);
}
