//! The agent's other tools on C (lldb-dap) and Go (delve), at a real stop:
//! each answers with content, or with an error that says why.

mod common;

use common::native::{build_c_demo, lldb_available};
use common::*;
use serde_json::json;

/// Every tool the language scenarios do not already call.
async fn every_other_tool(mcp: &Mcp, file: &str, struct_local: &str, line: u64) {
    let v = mcp.ok("debug_status", json!({})).await;
    assert!(v.contains("── STOPPED at"), "{v}");
    let j = mcp.ok("debug_status", json!({"format": "json"})).await;
    assert!(j.contains("\"locals\""), "{j}");
    let s = mcp.ok("debug_stack", json!({})).await;
    assert!(s.contains("Call Stack (") && s.contains(file), "{s}");
    let t = mcp.ok("debug_threads", json!({})).await;
    assert!(t.contains("Threads:") && t.contains('→'), "{t}");
    let l = mcp.ok("debug_variables", json!({})).await;
    assert!(l.contains(struct_local), "{l}");
    let e = mcp
        .ok("debug_variables", json!({"expand": struct_local}))
        .await;
    assert!(e.contains(&format!("{struct_local} (")), "{e}");
    let w = mcp.ok("debug_watch", json!({"add": ["1 + 1"]})).await;
    assert!(w.contains("1 + 1"), "{w}");
    let v = mcp.ok("debug_status", json!({})).await;
    assert!(
        v.lines()
            .any(|l| l.trim_start().starts_with("1 + 1") && l.ends_with("= 2")),
        "the watch's value: {v}"
    );
    let src = mcp
        .ok("debug_source", json!({"file": file, "line": line}))
        .await;
    assert!(src.contains(&format!("{line}│")), "{src}");
    mcp.ok("debug_output", json!({})).await;
    mcp.ok("debug_note", json!({"text": "checking the loop"}))
        .await;
    let b = mcp
        .ok("breakpoint_set", json!({"file": file, "line": line + 1}))
        .await;
    assert!(b.contains(&format!("{file}:{}", line + 1)), "{b}");
    let list = mcp.ok("breakpoint_list", json!({})).await;
    assert!(list.contains(&format!(":{line}")), "{list}");
    mcp.ok("breakpoint_remove", json!({"file": file, "line": line + 1}))
        .await;
    // Filters the adapter has are taken; one it lacks is named in the error.
    let msg = mcp
        .fails(
            "breakpoint_set_exception",
            json!({"filters": ["no-such-filter"]}),
        )
        .await;
    assert!(msg.contains("no-such-filter"), "{msg}");
    let s = mcp.ok("debug_sessions", json!({})).await;
    assert!(s.contains("* s1"), "{s}");
    // Restart runs to the same breakpoint.
    let v = mcp.ok("debug_restart", json!({})).await;
    assert_eq!(stopped_line(&v), Some(line), "{v}");
    mcp.ok("debug_terminate", json!({})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_answers_on_c() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_c_demo(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "inventory", "breakpoints": [{"file": "inventory.c", "line": 53}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(53), "{v}");
    every_other_tool(&mcp, "inventory.c", "shelf", 53).await;
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_tool_answers_on_go() {
    if !go_available() {
        return;
    }
    let mcp = mcp_in(&repo_root()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "assets/demo/go", "breakpoints": [{"file": "assets/demo/go/main.go", "line": 41}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(41), "{v}");
    every_other_tool(&mcp, "assets/demo/go/main.go", "user", 41).await;
    mcp.close().await;
}

/// debug_run_until on a native adapter: the expression is the language's
/// own, and the stop is where its value changed.
async fn runs_until(mcp: &Mcp, file: &str, line: u64, changing: &str, condition: &str, how: &str) {
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": if file.ends_with(".go") { "assets/demo/go" } else { "inventory" },
                   "breakpoints": [{"file": file, "line": line}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(line), "{v}");
    let r = mcp
        .ok("debug_run_until", json!({"expression": changing}))
        .await;
    assert!(r.starts_with(&format!("{changing}: 0 → ")), "{r}");
    // Where the adapter watches memory, the run stops at the write itself.
    let first = r.lines().next().unwrap_or_default();
    assert!(first.ends_with(how), "{first}");
    let r = mcp
        .ok(
            "debug_run_until",
            json!({"expression": condition, "until": "becomes_true"}),
        )
        .await;
    assert!(r.starts_with(&format!("{condition}: ")), "{r}");
    assert!(r.contains(" after ") && r.contains("── STOPPED at"), "{r}");
    mcp.ok("debug_terminate", json!({})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_until_a_value_changes_on_c_and_go() {
    if lldb_available() {
        let ws = workspace(&[]);
        build_c_demo(ws.path());
        let mcp = mcp_in(ws.path()).await;
        // At the loop, total is 0; it grows by each item's stock.
        // lldb-dap watches total's memory: one write, not steps.
        runs_until(
            &mcp,
            "inventory.c",
            46,
            "total",
            "total > 20",
            "after 1 write (data breakpoint).",
        )
        .await;
        mcp.close().await;
    }
    if go_available() {
        let mcp = mcp_in(&repo_root()).await;
        runs_until(
            &mcp,
            "assets/demo/go/main.go",
            42,
            "subtotal",
            "subtotal > 10000",
            // delve (1.22 and later) watches memory: the run stops at the write.
            "(data breakpoint).",
        )
        .await;
        mcp.close().await;
    }
}
