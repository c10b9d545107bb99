//! TypeScript through a real js-debug: the demo compiled with source maps,
//! launched as its `.ts`, runs as the `.js` beside it, and every stop,
//! frame and source line the agent reads is the `.ts` one.

mod common;

use std::time::Duration;

use common::typescript::compiled_demo;
use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compiled_ts_program_runs_as_its_javascript() {
    let (Some(data), Some(tsc)) = (js_debug_available(), tsc_available()) else {
        return;
    };
    let ws = compiled_demo(&tsc);
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

/// The MCP scenario of the other languages on the TypeScript demo: the
/// stop, the frames, the steps and the source are all the `.ts` file's,
/// through js-debug's source maps and its provisional breakpoint.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_breakpoint_in_the_ts_stops_and_every_step_reads_in_ts() {
    let (Some(data), Some(tsc)) = (js_debug_available(), tsc_available()) else {
        return;
    };
    let ws = compiled_demo(&tsc);
    let mcp = mcp_with_env(ws.path(), &[], &[("XDG_DATA_HOME", &data)]).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.ts", "breakpoints": [{"file": "prog.ts", "line": 19}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at prog.ts:19 (main) ──"), "{v}");
    assert!(v.contains("→ prog.ts:19  main()"), "{v}");
    assert!(v.contains("prog.ts:25  <anonymous>"), "{v}");
    // The TypeScript line, with its types, not the compiled JavaScript's.
    assert!(
        v.contains(" →19│     info.n = x + items.length;  // line 19: breakpoint"),
        "{v}"
    );
    assert!(v.contains("  16│   for (let i: number = 0;"), "{v}");
    assert_eq!(
        local(&v, "info").as_deref(),
        Some("<Object: name=\"spike\", n=3>"),
        "{v}"
    );
    assert_eq!(local(&v, "items").as_deref(), Some("[1, 2, 3]"), "{v}");
    assert_eq!(local(&v, "x").as_deref(), Some("0"), "{v}");
    assert!(!v.contains("prog.js:"), "no compiled location: {v}");

    // Bound through the source map once the script loaded: no longer
    // provisional.
    let bps = mcp.ok("breakpoint_list", json!({})).await;
    assert!(bps.contains("prog.ts:19 enabled verified hits 1"), "{bps}");
    assert!(!bps.contains("provisional"), "{bps}");

    let stack = mcp.ok("debug_stack", json!({})).await;
    assert!(stack.contains("#0 prog.ts:19 main()"), "{stack}");
    assert!(stack.contains("#1 prog.ts:25 <anonymous>"), "{stack}");

    // Over the loop's end to its head, then to the call.
    let v = mcp.ok("debug_step", json!({"kind": "over"})).await;
    assert!(v.contains("── STOPPED at prog.ts:16 (main) ──"), "{v}");
    assert!(v.contains(" →16│   for (let i: number = 0;"), "{v}");
    let mut v = v;
    for _ in 0..3 {
        if stopped_line(&v) == Some(17) {
            break;
        }
        v = mcp.ok("debug_step", json!({"kind": "over"})).await;
    }
    assert!(v.contains("── STOPPED at prog.ts:17 (main) ──"), "{v}");
    assert_eq!(local(&v, "i").as_deref(), Some("1"), "{v}");

    let v = mcp.ok("debug_step", json!({"kind": "into"})).await;
    assert!(v.contains("── STOPPED at prog.ts:7 (add) ──"), "{v}");
    assert!(v.contains(" → 7│   const c: number = a + b;"), "{v}");
    assert!(v.contains("prog.ts:17  main()"), "{v}");
    assert_eq!(local(&v, "b").as_deref(), Some("1"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "out"})).await;
    assert!(v.contains("── STOPPED at prog.ts:18 (main) ──"), "{v}");
    assert_eq!(local(&v, "total").as_deref(), Some("1"), "{v}");

    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "info.name + ':' + (total + i)"}),
        )
        .await;
    assert!(
        e.starts_with("info.name + ':' + (total + i) = \"spike:2\""),
        "{e}"
    );

    mcp.ok("breakpoint_remove", json!({"file": "prog.ts", "line": 19}))
        .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 0 ──"), "{v}");
    let out = mcp.output_containing("total 499500").await;
    assert!(out.contains("start 3 spike"), "{out}");
    assert!(
        out.contains("total 499500 { name: 'spike', n: 2001 }"),
        "{out}"
    );
    mcp.close().await;
}

/// An uncaught exception in the TypeScript stops where the `.ts` throws,
/// with its type and message, and the program then ends with code 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uncaught_exception_stops_in_the_ts_with_its_message() {
    let (Some(data), Some(tsc)) = (js_debug_available(), tsc_available()) else {
        return;
    };
    let ws = compiled_demo(&tsc);
    let mcp = mcp_with_env(ws.path(), &[], &[("XDG_DATA_HOME", &data)]).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.ts", "args": ["--crash"]}),
        )
        .await;
    assert!(v.contains("── STOPPED at prog.ts:30 (inventory) ──"), "{v}");
    assert!(v.contains("Exception: RangeError: bad size"), "{v}");
    assert!(
        v.contains(" →30│     throw new RangeError(\"bad size\");"),
        "the TypeScript line: {v}"
    );
    assert!(!v.contains("prog.js:"), "no compiled location: {v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 1 ──"), "{v}");
    mcp.close().await;
}
