//! TypeScript through a real js-debug: the demo compiled with source maps,
//! launched as its `.ts`, runs as the `.js` beside it.

mod common;

use std::process::Command;
use std::time::Duration;

use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compiled_ts_program_runs_as_its_javascript() {
    let (Some(data), Some(tsc)) = (js_debug_available(), tsc_available()) else {
        return;
    };
    let demo = repo_root().join("assets/demo/typescript");
    let ws = workspace(&[
        (
            "prog.ts",
            &std::fs::read_to_string(demo.join("prog.ts")).unwrap(),
        ),
        (
            "tsconfig.json",
            &std::fs::read_to_string(demo.join("tsconfig.json")).unwrap(),
        ),
    ]);
    let st = Command::new(&tsc)
        .args(["-p", "."])
        .current_dir(ws.path())
        .status()
        .unwrap();
    assert!(st.success(), "tsc compiles the demo");
    assert!(
        ws.path().join("prog.js.map").is_file(),
        "with its source map"
    );

    let mcp = mcp_with_env(ws.path(), &[], &[("XDG_DATA_HOME", &data)]).await;
    let (text, failed) = mcp
        .call(
            "debug_launch",
            json!({"program": "prog.ts", "breakpoints": [{"file": "prog.ts", "line": 19}],
                   "timeout_ms": 5000}),
        )
        .await;
    assert!(!failed, "{text}");
    let running = || node_running(ws.path(), "prog.js");
    let started = poll(running, |p| !p.is_empty(), Duration::from_secs(20)).await;
    assert!(!started.is_empty(), "node does not run prog.js: {text}");
    assert!(
        node_running(ws.path(), "prog.ts").is_empty(),
        "not the .ts itself"
    );
    mcp.ok("debug_terminate", json!({})).await;
    let left = poll(running, |p| p.is_empty(), Duration::from_secs(10)).await;
    assert!(left.is_empty(), "still running: {left:?}");
    mcp.close().await;
}
