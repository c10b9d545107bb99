//! C through lldb-dap, end to end: a real MCP client over stdio drives the
//! real binary on the C demo: values, steps, evaluation, assignment, a
//! crash, the exit, and attaching to a running process.

mod common;

use common::native::*;
use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agent_debugs_the_c_demo() {
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
    eprintln!("{v}");
    assert!(v.contains("── STOPPED at inventory.c:53 (main) ──"), "{v}");
    assert!(v.contains("Reason: breakpoint"), "{v}");
    assert_eq!(local(&v, "name").as_deref(), Some("\"widget\""), "{v}");
    assert_eq!(
        local(&v, "shelf").as_deref(),
        Some("<point: x=3, y=4>"),
        "{v}"
    );
    assert_eq!(local(&v, "total").as_deref(), Some("53"), "{v}");
    let items = local(&v, "items").expect("items");
    assert!(
        items.starts_with("[<item>, <item>, <item>]") || items.contains("name"),
        "{v}"
    );
    assert!(!v.contains("rip") && !v.contains("Registers"), "{v}");

    let e = mcp
        .ok("debug_evaluate", json!({"expression": "total * 2 + 1"}))
        .await;
    assert!(e.contains("= 107"), "{e}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "items[2].stock"}))
        .await;
    assert!(e.contains("= 1"), "{e}");
    let e = mcp
        .fails("debug_evaluate", json!({"expression": "nosuch + 1"}))
        .await;
    assert!(e.contains("nosuch"), "{e}");

    // Into count_restock, over its first lines, and out again.
    let v = mcp.ok("debug_step", json!({"kind": "into"})).await;
    eprintln!("{v}");
    assert_eq!(
        stopped_function(&v).as_deref(),
        Some("count_restock"),
        "{v}"
    );
    assert!(v.contains("count_restock(items="), "{v}");
    let first = stopped_line(&v).unwrap();
    let v = mcp.ok("debug_step", json!({"kind": "over"})).await;
    let second = stopped_line(&v).unwrap();
    assert!(second > first, "{first} → {second}: {v}");
    let v = mcp.ok("debug_step", json!({"kind": "out"})).await;
    assert_eq!(stopped_function(&v).as_deref(), Some("main"), "{v}");
    assert_eq!(stopped_line(&v), Some(53), "{v}");

    // Set a variable, then read it back.
    let s = mcp
        .ok(
            "debug_set_variable",
            json!({"name": "total", "value": "100 + 7"}),
        )
        .await;
    assert!(s.contains("107"), "{s}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "total"}))
        .await;
    assert!(e.contains("= 107"), "{e}");

    let v = mcp.ok("debug_continue", json!({})).await;
    eprintln!("{v}");
    assert!(v.contains("EXITED with code 0"), "{v}");
    assert!(v.contains("stock 107, restock 0"), "{v}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_null_dereference_stops_at_the_crashing_line() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_c_demo(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "inventory", "args": ["crash"]}),
        )
        .await;
    eprintln!("{v}");
    assert!(v.contains("── STOPPED at inventory.c:51 (main) ──"), "{v}");
    assert!(v.contains("Reason: exception"), "{v}");
    assert!(v.contains("SIGSEGV"), "{v}");
    assert!(v.contains("missing"), "{v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED with code"), "{v}");
    mcp.close().await;
}

/// Attaches by pid to a running program through `debug_attach`, stops at a
/// breakpoint, then detaches and finds the program still running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attach_by_pid_then_detach_leaves_the_process_running() {
    use std::time::Duration;

    if !lldb_available() {
        return;
    }
    let ws = workspace(&[]);
    let looper = start_looper(ws.path());
    let pid = looper.0.id();

    // Through the agent's tool; the language is told from the binary.
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_attach",
            serde_json::json!({"pid": pid, "breakpoints": [{"file": "looper.c", "line": 5}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at looper.c:5 (tick) ──"), "{v}");
    assert!(local(&v, "doubled").is_some(), "{v}");

    let adapters: Vec<u32> = descendants(mcp.pid);
    assert!(!adapters.is_empty(), "the adapter runs under pairdbg");
    let t = mcp
        .ok("debug_terminate", serde_json::json!({"detach": true}))
        .await;
    assert!(t.contains("detached and keeps running"), "{t}");
    // The adapter goes; the looper must still run (not killed, not left stopped).
    let left = wait_dead(&adapters, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "adapter processes left: {left:?}");
    let running = |pid: u32| stat(pid).is_some_and(|(_, state)| matches!(state, 'R' | 'S' | 'D'));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !running(pid) && std::time::Instant::now() < deadline {
        tokio::task::yield_now().await;
    }
    assert!(
        running(pid),
        "the attached process is gone or stopped: {:?}",
        stat(pid)
    );
    mcp.close().await;
    drop(looper);
}

const WATCHED: &str = "\
#include <stdio.h>

struct counter { int hits; int misses; };
int g_total = 0;

static void bump(struct counter *c, int n) {
    for (int i = 0; i < n; i++) {
        if (i % 2) c->misses++;
        else c->hits++;
    }
}

int main(void) {
    struct counter c = {0, 0};
    int spare = 1;
    bump(&c, 1);
    g_total = 7;
    printf(\"%d %d %d\\n\", c.hits, c.misses, g_total + spare);
    return 0;
}
";

/// lldb-dap watches the memory of a struct's field and of a global, not
/// only of a plain local: each run stops at the write, not by stepping.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn data_breakpoints_watch_a_struct_field_and_a_global() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[("watched.c", WATCHED)]);
    build_c(&ws.path().join("watched.c"), &ws.path().join("watched"));
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "watched", "breakpoints": [{"file": "watched.c", "line": 15}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(15), "{v}");
    let r = mcp
        .ok("debug_run_until", json!({"expression": "c.hits"}))
        .await;
    let first = r.lines().next().unwrap_or_default();
    assert_eq!(
        first, "c.hits: 0 → 1 after 1 write (data breakpoint).",
        "{r}"
    );
    assert!(r.contains("── STOPPED at watched.c:"), "{r}");
    assert_eq!(
        stopped_function(&r).as_deref(),
        Some("bump"),
        "at the write: {r}"
    );
    let r = mcp
        .ok("debug_run_until", json!({"expression": "g_total"}))
        .await;
    let first = r.lines().next().unwrap_or_default();
    assert_eq!(
        first, "g_total: 0 → 7 after 1 write (data breakpoint).",
        "{r}"
    );
    assert_eq!(stopped_function(&r).as_deref(), Some("main"), "{r}");
    mcp.close().await;
}
