//! A Node.js program debugged end to end through js-debug's two
//! connections: steps into and out of a call, an uncaught exception stopped
//! with its type and message, and the exit code the preload reports.

mod common;

use common::*;
use serde_json::json;

const DEMO: &str = "assets/demo/node/prog.js";

fn demo_workspace() -> tempfile::TempDir {
    workspace(&[(
        "prog.js",
        &std::fs::read_to_string(repo_root().join(DEMO)).unwrap(),
    )])
}

#[tokio::test(flavor = "multi_thread")]
async fn steps_go_into_and_out_of_a_call_and_the_exit_code_is_reported() {
    let Some(data) = js_debug_available() else {
        return;
    };
    let ws = demo_workspace();
    let mcp = mcp_with_env(ws.path(), &[], &[("XDG_DATA_HOME", &data)]).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.js", "breakpoints": [{"file": "prog.js", "line": 12}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at prog.js:12 (main) ──"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "into"})).await;
    assert!(v.contains("── STOPPED at prog.js:2 (add) ──"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "out"})).await;
    assert!(v.contains("── STOPPED at prog.js:13 (main) ──"), "{v}");
    mcp.ok("breakpoint_remove", json!({"file": "prog.js", "line": 12}))
        .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 3 ──"), "{v}");
    let out = mcp.output_containing("total").await;
    assert!(out.contains("start 3 spike"), "{out}");
    assert!(!out.contains("Debugger attached"), "{out}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_uncaught_exception_stops_with_its_type_and_message() {
    let Some(data) = js_debug_available() else {
        return;
    };
    let ws = demo_workspace();
    let mcp = mcp_with_env(ws.path(), &[], &[("XDG_DATA_HOME", &data)]).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.js", "args": ["--crash"]}),
        )
        .await;
    assert!(v.contains("── STOPPED at prog.js:25 (inventory) ──"), "{v}");
    assert!(v.contains("Exception: RangeError: bad size"), "{v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 1 ──"), "{v}");
    mcp.close().await;
}
