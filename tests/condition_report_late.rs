//! lldb stops where a breakpoint's condition fails and tells the error as
//! output sent after the stop, from another thread: under load the stop's
//! reads can all be answered first. The stop still reads as the
//! condition's failure, warned of once when the report comes after it.
//! Played by a scripted adapter over an in-memory pipe, which holds the
//! report back until every read of the stop is answered.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use pairdbg::dap::codec::DapCodec;
use pairdbg::session::handle::WaitOutcome;
use pairdbg::session::validate::Workspace;
use pairdbg::session::{BreakpointRequest, LaunchRequest, Origin, SessionHandle};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio_util::codec::FramedRead;

const CONDITION: &str = "nosuch == 3";

/// lldb's answer to an expression naming what is not there.
const CLANG_ERROR: &str = "Expression evaluation in pure C not supported. Ran expression as 'ISO C++'.\nerror: <user expression 1>:1:1: use of undeclared identifier 'nosuch'\n    1 | nosuch == 3\n      | ^~~~~~\n";

/// lldb's report of the failed condition, line by line as lldb-dap sends it.
const REPORT: &[&str] = &[
    "error: stopped due to an error evaluating condition of breakpoint 2.1: \"nosuch == 3\"\n",
    "Couldn't parse conditional expression:\n",
    "Expression evaluation in pure C not supported. Ran expression as 'ISO C++'.\n",
    "error: <user expression 2>:1:1: use of undeclared identifier 'nosuch'\n",
    "    1 | nosuch == 3\n",
    "      | ^~~~~~\n",
];

/// Stops at entry on line 2; `continue` stops at the conditional
/// breakpoint on line 3. The report of its failed condition is sent only
/// when the test evaluates `report_now`, long after the stop was read.
async fn run_fake(io: tokio::io::DuplexStream, log: Arc<Mutex<Vec<Value>>>, program: String) {
    let (r, mut w) = tokio::io::split(io);
    let mut frames = FramedRead::new(r, DapCodec::default());
    let mut outbox = common::scripted::Outbox::default();
    let mut send = |msg: Value| outbox.frame(msg);
    let mut line = 2;
    while let Some(Ok(bytes)) = frames.next().await {
        let req: Value = serde_json::from_slice(&bytes).expect("JSON");
        let cmd = req["command"].as_str().unwrap_or_default().to_string();
        log.lock().unwrap().push(req.clone());
        let ok = |body: Value| json!({"type":"response","request_seq":req["seq"],"success":true,"command":cmd,"body":body});
        let failed = |message: &str| json!({"type":"response","request_seq":req["seq"],"success":false,"command":cmd,"message":message,"body":{"error":{"id":3,"format":message}}});
        let stopped = |reason: &str, hit: Value| json!({"type":"event","event":"stopped","body":{"reason":reason,"threadId":1,"hitBreakpointIds":hit}});
        let mut out = vec![];
        match cmd.as_str() {
            "initialize" => out.push(ok(json!({
                "supportsConfigurationDoneRequest": true,
                "supportsConditionalBreakpoints": true
            }))),
            "launch" => {
                out.push(ok(Value::Null));
                out.push(json!({"type":"event","event":"initialized"}));
            }
            "configurationDone" => {
                out.push(ok(Value::Null));
                out.push(stopped("entry", json!([])));
            }
            "setBreakpoints" => {
                let n = req["arguments"]["breakpoints"]
                    .as_array()
                    .map_or(0, |b| b.len());
                let bps: Vec<Value> = (0..n)
                    .map(|i| json!({"id": i + 1, "verified": true, "line": req["arguments"]["breakpoints"][i]["line"]}))
                    .collect();
                out.push(ok(json!({"breakpoints": bps})));
            }
            "continue" => {
                out.push(ok(json!({"allThreadsContinued": true})));
                line = 3;
                out.push(stopped("breakpoint", json!([2])));
            }
            "threads" => out.push(ok(json!({"threads": [{"id": 1, "name": "main"}]}))),
            "stackTrace" => out.push(ok(json!({"stackFrames": [{"id": 1000, "name": "main", "line": line, "column": 1, "source": {"path": program}}], "totalFrames": 1}))),
            "scopes" => out.push(ok(
                json!({"scopes": [{"name": "Locals", "variablesReference": 1, "expensive": false}]}),
            )),
            "variables" => out.push(ok(json!({"variables": [
                {"name": "count", "value": "3", "type": "int", "variablesReference": 0}
            ]}))),
            "evaluate" if req["arguments"]["expression"] == CONDITION => {
                out.push(failed(CLANG_ERROR))
            }
            "evaluate" if req["arguments"]["expression"] == "report_now" => {
                for line in REPORT {
                    out.push(json!({"type":"event","event":"output","body":{"category":"important","output":line}}));
                }
                out.push(ok(json!({"result": "1", "variablesReference": 0})));
            }
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

fn commands(log: &Mutex<Vec<Value>>) -> Vec<String> {
    log.lock()
        .unwrap()
        .iter()
        .map(|r| r["command"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn condition_warnings(s: &SessionHandle) -> Vec<String> {
    s.snapshot()
        .warnings
        .iter()
        .map(|w| w.text.clone())
        .filter(|t| t.contains(CONDITION))
        .collect()
}

#[tokio::test]
async fn a_condition_reported_after_its_stop_is_told_with_the_stop_once() {
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
    .validate(&workspace, Duration::from_secs(20))
    .expect("valid launch");
    let log = Arc::new(Mutex::new(vec![]));
    let program = workspace.root.join("prog.c").display().to_string();
    let fake = common::scripted::Scripted {
        start: (
            "launch",
            json!({"program": workspace.root.join("prog.c").display().to_string()}),
        ),
        run: {
            let log = log.clone();
            move |io| run_fake(io, log.clone(), program.clone())
        },
    };
    let s = SessionHandle::launch_with("t1".into(), config, Arc::new(fake));
    let WaitOutcome::Stopped(first) = s.wait_for_stop(0, Duration::from_secs(15)).await else {
        panic!("no first stop: {:?}", commands(&log))
    };
    let bp = s
        .set_breakpoint(
            Origin::Agent,
            BreakpointRequest {
                file: "prog.c".into(),
                line: 3,
                condition: Some(CONDITION.into()),
                ..Default::default()
            },
        )
        .await
        .expect("a name unknown here may be known where the breakpoint is");
    let stop_seq = s.resume(Origin::Agent).await.expect("continued");
    let WaitOutcome::Stopped(snap) = s
        .wait_for_stop(stop_seq.max(first.stop_seq), Duration::from_secs(15))
        .await
    else {
        panic!("no stop at the breakpoint: {:?}", commands(&log))
    };
    let stop = snap.stop.as_ref().expect("a stop");
    assert_eq!(stop.frames[0].line, 3);
    assert_eq!(
        stop.condition_error.as_deref(),
        Some("use of undeclared identifier 'nosuch'"),
        "the stop is the condition's failure, told before lldb's report"
    );
    let expected = format!(
        "breakpoint #{}'s condition \"{CONDITION}\" raised use of undeclared identifier 'nosuch'",
        bp.id
    );
    assert_eq!(condition_warnings(&s), std::slice::from_ref(&expected));

    // lldb's own report, come at last, is the same failure: no second warning.
    s.evaluate(Origin::Agent, "report_now".into(), 0)
        .await
        .expect("evaluated");
    let told = common::poll(
        || s.read_debugger_console(0, 64 * 1024).0,
        |console| console.contains("use of undeclared identifier 'nosuch'"),
        Duration::from_secs(5),
    )
    .await;
    assert!(
        told.contains("stopped due to an error evaluating condition"),
        "{told}"
    );
    assert_eq!(condition_warnings(&s), [expected]);
    assert!(
        !s.output_tail(20).iter().any(|l| l.contains("nosuch")),
        "the report is the debugger's, not the program's output"
    );
}
