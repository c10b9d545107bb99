//! Bad input gets a clear error naming the field and the limit, as a tool
//! result with isError, and the session stays usable.

mod common;

use common::*;
use serde_json::json;

const PROG: &str = "\
import time
s = 'x' * 10_000_000
n = 3
print('ready', flush=True)
deadline = time.time() + 60
while time.time() < deadline and n > 0:
    time.sleep(0.01)
print('end')
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn launch_inputs_are_checked_before_anything_starts() {
    let ws = workspace(&[
        ("p.py", PROG),
        ("p.pl", "print 1;\n"),
        ("sub/q.py", "x = 1\n"),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let cases = [
        (json!({"program": "../p.py"}), vec!["program", ".."]),
        (
            json!({"program": "/etc/hostname", "language": "python"}),
            vec![
                "program",
                "outside the workspace",
                "--allow-outside-workspace",
            ],
        ),
        (
            json!({"program": "missing.py"}),
            vec!["program", "not a file"],
        ),
        (
            json!({"program": "p.py", "args": vec!["a"; 21]}),
            vec!["args", "21", "limit is 20"],
        ),
        (
            json!({"program": "p.py", "args": ["x".repeat(513)]}),
            vec!["args[0]", "513", "512"],
        ),
        (
            json!({"program": "p.py", "env": (0..51).map(|i| (format!("K{i}"), "v".to_string())).collect::<std::collections::BTreeMap<_, _>>()}),
            vec!["env", "51", "limit is 50"],
        ),
        (
            json!({"program": "p.py", "env": {"K".repeat(65): "v"}}),
            vec!["env key", "65", "64"],
        ),
        (
            json!({"program": "p.py", "env": {"K": "v".repeat(1025)}}),
            vec!["env[K]", "1025", "1024"],
        ),
        (
            json!({"program": "p.py", "breakpoints": [{"file": "p.py", "line": 99}]}),
            vec!["breakpoints[0].line", "past the end", "has 8 lines"],
        ),
        (
            json!({"program": "p.py", "breakpoints": [{"file": "p.py", "line": 0}]}),
            vec!["breakpoints[0].line", "1-based"],
        ),
        (
            json!({"program": "p.py", "breakpoints": [{"file": "../x.py", "line": 1}]}),
            vec!["breakpoints[0].file", ".."],
        ),
        (json!({"program": "p.pl"}), vec!["language", "python"]),
        (
            json!({"program": "p.py", "language": "cobol"}),
            vec!["language", "cobol", "not supported"],
        ),
        (
            json!({"program": "p.py", "timeout_ms": 0}),
            vec!["timeout_ms", "out of range"],
        ),
        (
            json!({"program": "p.py", "viewport_config": {"stack_depth": 0}}),
            vec!["viewport_config.stack_depth", "1 to 100"],
        ),
        (json!({"program": "p.py", "cwd": "../"}), vec!["cwd", ".."]),
        // A misspelt argument is refused, never silently dropped.
        (
            json!({"program": "p.py", "stop_on_entri": true}),
            vec![
                "unknown argument `stop_on_entri`",
                "stop_on_entry",
                "breakpoints",
            ],
        ),
        (
            json!({"program": "p.py", "breakpoints": [{"file": "p.py", "line": 3, "conditon": "n > 1"}]}),
            vec!["`conditon`", "debug_launch.breakpoints[0]", "condition"],
        ),
        (
            json!({"program": "p.py", "viewport_config": {"diff": true}}),
            vec!["`diff`", "viewport_config", "diff_mode"],
        ),
    ];
    for (args, wanted) in cases {
        let msg = mcp.fails("debug_launch", args.clone()).await;
        for w in wanted {
            assert!(msg.contains(w), "{args}: {msg:?} should mention {w:?}");
        }
    }
    let msg = mcp.fails("debug_step", json!({})).await;
    assert!(msg.contains("no session"), "{msg}");
    assert!(msg.contains("debug_launch or debug_attach"), "{msg}");
    let msg = mcp.fails("debug_step", json!({"session_id": "s9"})).await;
    assert!(
        msg.contains("no session s9") && msg.contains("debug_sessions"),
        "{msg}"
    );
    // A bad argument type is a protocol-level invalid params, never a panic.
    let r = mcp
        .client
        .call_tool(
            rmcp::model::CallToolRequestParams::new("debug_step")
                .with_arguments(json!({"count": "x"}).as_object().unwrap().clone()),
        )
        .await;
    assert!(r.is_err() || r.unwrap().is_error == Some(true));
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn running_exited_and_raising_states_give_clear_errors() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("p.py", PROG)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "p.py", "breakpoints": [{"file": "p.py", "line": 3}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(3), "{v}");
    // A 10 MB string costs the viewport no more than the truncation limit.
    // It says it was cut, and how long it is.
    let s = local(&v, "s").expect("s is shown");
    let (quoted, note) = s.split_once("...\" ").expect("a cut string");
    assert!(
        quoted.chars().count() <= 120,
        "{} chars: {s}",
        quoted.chars().count()
    );
    assert!(quoted.starts_with("\"xxx"), "{s}");
    assert_eq!(note, "(10000000 chars)", "{s}");
    assert!(v.len() < 2_000, "viewport is {} bytes", v.len());

    let msg = mcp
        .fails(
            "debug_evaluate",
            json!({"expression": "undefined_name + 1"}),
        )
        .await;
    assert!(
        msg.contains("NameError") && msg.contains("undefined_name"),
        "{msg}"
    );
    assert!(
        msg.contains("stopped at p.py:3"),
        "the error names the state: {msg}"
    );
    let msg = mcp
        .fails("debug_evaluate", json!({"expression": "1/0"}))
        .await;
    assert!(msg.contains("ZeroDivisionError"), "{msg}");
    let msg = mcp
        .fails(
            "debug_evaluate",
            json!({"expression": "n", "frame_index": 7}),
        )
        .await;
    assert!(
        msg.contains("frame_index") && msg.contains("has 1 frame "),
        "{msg}"
    );
    let msg = mcp
        .fails("breakpoint_set", json!({"file": "p.py", "line": 500}))
        .await;
    assert!(
        msg.contains("line 500 is past the end of p.py, which has 8 lines"),
        "{msg}"
    );
    // A breakpoint that is not there is named, with where to look.
    let msg = mcp
        .fails("breakpoint_remove", json!({"file": "p.py", "line": 2}))
        .await;
    assert!(
        msg.contains("no breakpoint at p.py:2") && msg.contains("breakpoint_list"),
        "{msg}"
    );
    let msg = mcp.fails("breakpoint_remove", json!({"id": 99})).await;
    assert!(msg.starts_with("id: no breakpoint #99."), "{msg}");
    let msg = mcp
        .fails("debug_variables", json!({"expand": "nothing.here"}))
        .await;
    assert!(
        msg.contains("expand") && msg.contains("nothing does not exist"),
        "{msg}"
    );

    // Running: the program loops until n is 0.
    let v = mcp.ok("debug_continue", json!({"timeout_ms": 300})).await;
    assert!(v.contains("still running"), "{v}");
    let msg = mcp
        .fails("debug_evaluate", json!({"expression": "n"}))
        .await;
    assert!(msg.contains("running"), "{msg}");
    let msg = mcp.fails("debug_step", json!({})).await;
    assert!(msg.contains("running"), "{msg}");
    let v = mcp.ok("debug_pause", json!({})).await;
    assert!(v.contains("Reason: pause"), "{v}");
    mcp.ok("debug_set_variable", json!({"name": "n", "value": "0"}))
        .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED with code 0"), "{v}");
    assert!(v.contains("end"), "{v}");

    let msg = mcp.fails("debug_step", json!({})).await;
    assert!(msg.contains("The program has exited with code 0"), "{msg}");
    let msg = mcp
        .fails("debug_evaluate", json!({"expression": "1"}))
        .await;
    assert!(msg.contains("exited"), "{msg}");
    mcp.close().await;
}
