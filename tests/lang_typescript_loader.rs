//! TypeScript run by a loader (`node --import tsx`), with no compiled
//! `.js`: js-debug binds the `.ts` breakpoint through tsx's source maps,
//! and every stop and frame reads in the `.ts`.

mod common;

use std::path::Path;
use std::time::Duration;

use common::typescript::{demo_for_tsx, tsx_modules};
use common::*;
use serde_json::json;

async fn scenario(mcp: &Mcp, ws: &Path, env: serde_json::Value) {
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.ts", "env": env,
                   "breakpoints": [{"file": "prog.ts", "line": 19}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at prog.ts:19 (main) ──"), "{v}");
    // The loader runs the .ts: no note that Node cannot.
    assert!(!v.contains("strips types"), "{v}");
    assert!(
        !node_running(ws, "prog.ts").is_empty(),
        "node runs the .ts itself"
    );
    // The program's frames, and tsx's and Node's counted apart.
    assert!(
        v.contains("Call Stack:\n  → prog.ts:19  main()\n    prog.ts:25  <anonymous>\n    ("),
        "{v}"
    );
    assert!(v.contains("frames not user code: debug_stack)"), "{v}");
    assert!(
        !v.contains("node_modules") && !v.contains("<unknown>"),
        "{v}"
    );
    assert!(v.contains(" →19│     info.n = x + items.length;"), "{v}");
    assert_eq!(local(&v, "items").as_deref(), Some("[1, 2, 3]"), "{v}");
    let stack = mcp.ok("debug_stack", json!({})).await;
    assert!(
        stack.contains("/tsx/dist/") && stack.contains("(not user code)"),
        "{stack}"
    );
    mcp.ok("breakpoint_remove", json!({"file": "prog.ts", "line": 19}))
        .await;
    mcp.ok("breakpoint_set", json!({"file": "prog.ts", "line": 17}))
        .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── STOPPED at prog.ts:17 (main) ──"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "into"})).await;
    assert!(v.contains("── STOPPED at prog.ts:7 (add) ──"), "{v}");
    mcp.ok("breakpoint_remove", json!({"file": "prog.ts", "line": 17}))
        .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 0 ──"), "{v}");
    let out = mcp.output_containing("total 499500").await;
    assert!(out.contains("total 499500"), "{out}");
    let left = poll(
        || node_running(ws, "prog.ts"),
        |p| p.is_empty(),
        Duration::from_secs(10),
    )
    .await;
    assert!(left.is_empty(), "still running: {left:?}");
}

/// As an agent says it: NODE_OPTIONS in the launch's `env`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ts_program_under_tsx_stops_in_the_ts() {
    let (Some(data), Some(modules)) = (js_debug_available(), tsx_modules()) else {
        return;
    };
    let ws = demo_for_tsx(&modules);
    let mcp = mcp_with_env(ws.path(), &[], &[("XDG_DATA_HOME", &data)]).await;
    scenario(&mcp, ws.path(), json!({"NODE_OPTIONS": "--import tsx"})).await;
    mcp.close().await;
}

/// As a person says it in a shell: `NODE_OPTIONS="--import tsx" pairdbg`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shells_node_options_reach_the_program() {
    let (Some(data), Some(modules)) = (js_debug_available(), tsx_modules()) else {
        return;
    };
    let ws = demo_for_tsx(&modules);
    let env = [
        ("XDG_DATA_HOME", data.as_path()),
        ("NODE_OPTIONS", Path::new("--import tsx")),
    ];
    let mcp = mcp_with_env(ws.path(), &[], &env).await;
    scenario(&mcp, ws.path(), json!({})).await;
    mcp.close().await;
}
