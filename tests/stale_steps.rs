//! A step cut short by a breakpoint, which the adapter finishes on the next
//! `continue` as an extra `step` stop (lldb-dap does): the engine resumes
//! that stop unseen, so the continue ends at the stop one expects. Played
//! by a scripted adapter over an in-memory pipe.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use pairdbg::dap::codec::{DapCodec, frame};
use pairdbg::session::connector::{Connector, Spawned, Transport};
use pairdbg::session::handle::WaitOutcome;
use pairdbg::session::validate::Workspace;
use pairdbg::session::{
    BreakpointRequest, LaunchRequest, Origin, SessionError, SessionHandle, StepKind,
};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio_util::codec::FramedRead;

struct Fake {
    log: Arc<Mutex<Vec<String>>>,
    program: String,
}

impl Connector for Fake {
    fn connect(&self, _config: &pairdbg::session::LaunchConfig) -> Result<Spawned, SessionError> {
        let (ours, theirs) = tokio::io::duplex(64 * 1024);
        let (r, w) = tokio::io::split(ours);
        tokio::spawn(run_fake(theirs, self.log.clone(), self.program.clone()));
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

/// main calls helper at line 2; helper has a breakpoint at line 6.
async fn run_fake(io: tokio::io::DuplexStream, log: Arc<Mutex<Vec<String>>>, program: String) {
    let (r, mut w) = tokio::io::split(io);
    let mut frames = FramedRead::new(r, DapCodec::default());
    let mut seq = 0;
    let mut send = |msg: Value| {
        seq += 1;
        let mut msg = msg;
        msg["seq"] = json!(seq);
        frame(msg.to_string().as_bytes())
    };
    let (mut line, mut function) = (2, "main");
    let mut continues = 0;
    while let Some(Ok(bytes)) = frames.next().await {
        let req: Value = serde_json::from_slice(&bytes).expect("JSON");
        let cmd = req["command"].as_str().unwrap_or_default().to_string();
        log.lock().unwrap().push(cmd.clone());
        let ok = |body: Value| json!({"type":"response","request_seq":req["seq"],"success":true,"command":cmd,"body":body});
        let stopped = |reason: &str| json!({"type":"event","event":"stopped","body":{"reason":reason,"threadId":1}});
        let mut out = vec![];
        match cmd.as_str() {
            "initialize" => out.push(ok(json!({"supportsConfigurationDoneRequest": true}))),
            "launch" => {
                out.push(ok(Value::Null));
                out.push(json!({"type":"event","event":"initialized"}));
            }
            "setBreakpoints" => out.push(ok(
                json!({"breakpoints": [{"id": 1, "verified": true, "line": 6}]}),
            )),
            "configurationDone" => {
                out.push(ok(Value::Null));
                out.push(stopped("entry"));
            }
            // Stepping over the call to helper stops at helper's breakpoint.
            "next" => {
                out.push(ok(Value::Null));
                (line, function) = (6, "helper");
                out.push(stopped("breakpoint"));
            }
            "continue" => {
                out.push(ok(json!({"allThreadsContinued": true})));
                continues += 1;
                match continues {
                    // The step over finishes late, back in main.
                    1 => {
                        (line, function) = (3, "main");
                        out.push(stopped("step"));
                    }
                    // helper is called again: its breakpoint.
                    2 => {
                        (line, function) = (6, "helper");
                        out.push(stopped("breakpoint"));
                    }
                    _ => {
                        out.push(json!({"type":"event","event":"exited","body":{"exitCode":0}}));
                        out.push(json!({"type":"event","event":"terminated"}));
                    }
                }
            }
            "stackTrace" => out.push(ok(json!({"stackFrames": [{"id": 1000, "name": function, "line": line, "column": 1, "source": {"path": program}}], "totalFrames": 1}))),
            "scopes" => out.push(ok(json!({"scopes": []}))),
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

#[tokio::test]
async fn a_late_step_stop_after_continue_is_resumed_unseen() {
    let ws = common::workspace(&[(
        "prog.c",
        "int main(void) {\n  helper();\n  helper();\n}\nvoid helper(void) {\n  int x = 1;\n}\n",
    )]);
    let workspace = Workspace::new(ws.path(), false);
    let config = LaunchRequest {
        program: Some("prog.c".into()),
        // The adapter whose quirks say its steps may end late.
        language: Some("c".into()),
        breakpoints: vec![BreakpointRequest {
            file: "prog.c".into(),
            line: 6,
            ..Default::default()
        }],
        ..Default::default()
    }
    .validate(&workspace, Duration::from_secs(5))
    .expect("valid launch");
    let log = Arc::new(Mutex::new(vec![]));
    let fake = Fake {
        log: log.clone(),
        program: workspace.root.join("prog.c").display().to_string(),
    };
    let s = SessionHandle::launch_with("t1".into(), config, Arc::new(fake));
    let wait = |seq| s.wait_for_stop(seq, Duration::from_secs(10));
    let WaitOutcome::Stopped(snap) = wait(0).await else {
        panic!("no first stop: {:?}", log.lock().unwrap())
    };
    assert_eq!(snap.stop.as_ref().unwrap().frames[0].line, 2);

    let stop_seq = s
        .step(Origin::Agent, StepKind::Over, 1)
        .await
        .expect("step");
    let WaitOutcome::Stopped(snap) = wait(stop_seq).await else {
        panic!("no stop after the step")
    };
    let stop = snap.stop.as_ref().unwrap();
    assert_eq!(
        (stop.reason.as_str(), stop.frames[0].line),
        ("breakpoint", 6)
    );

    let stop_seq = s.resume(Origin::Agent).await.expect("continue");
    let WaitOutcome::Stopped(snap) = wait(stop_seq).await else {
        panic!("no stop after the continue")
    };
    let stop = snap.stop.as_ref().unwrap();
    assert_eq!(
        (
            stop.reason.as_str(),
            stop.frames[0].line,
            stop.frames[0].name.as_str()
        ),
        ("breakpoint", 6, "helper"),
        "the late step stop at main:3 must not show"
    );
    let continues = log
        .lock()
        .unwrap()
        .iter()
        .filter(|c| *c == "continue")
        .count();
    assert_eq!(continues, 2, "the engine resumed the late stop itself");

    let stop_seq = s.resume(Origin::Agent).await.expect("continue");
    assert!(matches!(wait(stop_seq).await, WaitOutcome::Exited(_)));
}
