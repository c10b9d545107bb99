//! lldb-dap's remote attach: the halt that connecting causes is reported as
//! a `signal SIGSTOP` stop before `configurationDone` is answered, and the
//! program then runs on. That stop is never read as the program's, even
//! when the engine is still busy with earlier events (module loads) as the
//! answer comes in: reading it would ask a running program for its stack
//! ("invalid thread"). Played by a scripted adapter over an in-memory pipe.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use pairdbg::dap::codec::DapCodec;
use pairdbg::session::handle::WaitOutcome;
use pairdbg::session::remote::RemoteRequest;
use pairdbg::session::validate::Workspace;
use pairdbg::session::{BreakpointRequest, LaunchRequest, SessionHandle};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio_util::codec::FramedRead;

/// Module events ahead of the halt: enough to keep the engine busy while
/// `configurationDone`'s answer is read behind them.
const MODULES: usize = 400;

const THREAD: i64 = 26185;

/// lldb-dap 22's order, as recorded: `attach` is answered after
/// `configurationDone`; the halt comes before that answer, then
/// `continued`, then the breakpoint's stop at line 6.
async fn run_fake(io: tokio::io::DuplexStream, log: Arc<Mutex<Vec<Value>>>, program: String) {
    let (r, mut w) = tokio::io::split(io);
    let mut frames = FramedRead::new(r, DapCodec::default());
    let mut outbox = common::scripted::Outbox::default();
    let mut send = |msg: Value| outbox.frame(msg);
    let mut attach_seq = Value::Null;
    let mut stopped = false;
    while let Some(Ok(bytes)) = frames.next().await {
        let req: Value = serde_json::from_slice(&bytes).expect("JSON");
        let cmd = req["command"].as_str().unwrap_or_default().to_string();
        log.lock().unwrap().push(req.clone());
        let answer = |request_seq: &Value, command: &str, body: Value| json!({"type":"response","request_seq":request_seq,"success":true,"command":command,"body":body});
        let ok = |body: Value| answer(&req["seq"], &cmd, body);
        let event = |name: &str, body: Value| json!({"type":"event","event":name,"body":body});
        let mut out = vec![];
        match cmd.as_str() {
            "initialize" => out.push(ok(json!({"supportsConfigurationDoneRequest": true}))),
            "attach" => {
                attach_seq = req["seq"].clone();
                out.push(event("initialized", json!({})));
            }
            "setBreakpoints" => {
                let bps: Vec<Value> = req["arguments"]["breakpoints"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                    .map(|(i, b)| json!({"id": i + 1, "verified": true, "line": b["line"]}))
                    .collect();
                out.push(ok(json!({"breakpoints": bps})));
            }
            "configurationDone" => {
                for i in 0..MODULES {
                    out.push(event(
                        "module",
                        json!({"reason": "new", "module": {"id": format!("m{i}"), "name": format!("lib{i}.so")}}),
                    ));
                }
                out.push(event(
                    "stopped",
                    json!({"reason": "exception", "description": "signal SIGSTOP",
                           "threadId": THREAD, "allThreadsStopped": true}),
                ));
                out.push(ok(Value::Null));
                out.push(answer(&attach_seq, "attach", Value::Null));
                out.push(event(
                    "continued",
                    json!({"threadId": THREAD, "allThreadsContinued": true}),
                ));
                out.push(event(
                    "stopped",
                    json!({"reason": "breakpoint", "description": "breakpoint 1.1",
                           "hitBreakpointIds": [1], "threadId": THREAD, "allThreadsStopped": true}),
                ));
                stopped = true;
            }
            "threads" => out.push(ok(json!({"threads": [{"id": THREAD, "name": "prog"}]}))),
            "stackTrace" if !stopped => out.push(json!({"type":"response","request_seq":req["seq"],
                "success":false,"command":cmd,"body":{"error":{"format":"invalid thread","id":3}}})),
            "stackTrace" => out.push(ok(json!({"stackFrames": [{"id": 524288, "name": "main",
                "line": 6, "column": 15, "source": {"name": "prog.c", "path": program}}], "totalFrames": 1}))),
            "scopes" => out.push(ok(json!({"scopes": [{"name": "Locals",
                "presentationHint": "locals", "variablesReference": 1, "expensive": false}]}))),
            "variables" => out.push(ok(json!({"variables": [
                {"name": "count", "value": "0", "type": "int", "variablesReference": 0}]}))),
            "disconnect" => {
                out.push(ok(Value::Null));
                for m in out {
                    let _ = w.write_all(&send(m)).await;
                }
                return;
            }
            _ => out.push(ok(json!({}))),
        }
        // One write, as an adapter flushing what it queued: the answer is
        // read right behind the events before it.
        let bytes: Vec<u8> = out.into_iter().flat_map(&mut send).collect();
        let _ = w.write_all(&bytes).await;
    }
}

#[tokio::test]
async fn the_attach_halt_is_not_read_as_a_stop_even_behind_a_busy_engine() {
    let ws = common::workspace(&[(
        "prog.c",
        "#include <unistd.h>\n\nint main(void) {\n    int count = 0;\n    for (;;) {\n        count += 1;\n        usleep(10000);\n    }\n}\n",
    )]);
    let workspace = Workspace::new(ws.path(), false);
    let config = LaunchRequest {
        language: Some("c".into()),
        remote: RemoteRequest {
            host: Some("127.0.0.1".into()),
            port: Some(7000),
            path_mappings: vec![],
        },
        breakpoints: vec![BreakpointRequest {
            file: "prog.c".into(),
            line: 6,
            ..Default::default()
        }],
        ..Default::default()
    }
    .validate(&workspace, Duration::from_secs(10))
    .expect("valid attach");
    let log = Arc::new(Mutex::new(vec![]));
    let program = workspace.root.join("prog.c").display().to_string();
    let fake = common::scripted::Scripted {
        start: (
            "attach",
            json!({"gdb-remote-hostname": "127.0.0.1", "gdb-remote-port": 7000}),
        ),
        run: {
            let log = log.clone();
            move |io| run_fake(io, log.clone(), program.clone())
        },
    };
    let s = SessionHandle::launch_with("t1".into(), config, Arc::new(fake));
    let commands = || -> Vec<String> {
        log.lock()
            .unwrap()
            .iter()
            .map(|r| r["command"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let WaitOutcome::Stopped(snap) = s.wait_for_stop(0, Duration::from_secs(15)).await else {
        panic!("no stop: {:?}", commands())
    };
    let stop = snap.stop.as_ref().expect("a stop");
    assert_eq!(
        (
            stop.reason.as_str(),
            stop.frames.first().map(|f| f.line),
            snap.stop_seq
        ),
        ("breakpoint", Some(6), 1),
        "the first stop is the breakpoint's: {stop:?}"
    );
    // The breakpoint's stop is read once; the halt never is.
    let stacks = commands().iter().filter(|c| *c == "stackTrace").count();
    assert_eq!(stacks, 1, "{:?}", commands());
}
