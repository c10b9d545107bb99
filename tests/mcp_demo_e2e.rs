//! The demo, debugged end to end by a real MCP client over stdio, through the
//! real binary and a real debugpy.

mod common;

use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agent_debugs_the_demo_end_to_end() {
    if !debugpy_available() {
        return;
    }
    let mcp = mcp_in(&repo_root()).await;
    let tools = mcp.client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for t in [
        "debug_launch",
        "debug_step",
        "debug_evaluate",
        "breakpoint_set",
        "debug_output",
    ] {
        assert!(names.contains(&t), "missing tool {t}: {names:?}");
    }
    let info = mcp.client.peer_info().expect("server info");
    let instructions = info.instructions.as_deref().unwrap_or("");
    assert!(instructions.contains("debug_launch"), "{instructions}");
    // An agent reads these first: a language left out reads as unsupported.
    for language in [
        "Python",
        "C++",
        "Rust",
        "Go",
        "Java",
        "Node.js",
        "TypeScript",
    ] {
        assert!(
            instructions.contains(language),
            "{language}: {instructions}"
        );
    }

    let v = mcp
        .ok("debug_launch", json!({"program": "assets/demo/order.py", "breakpoints": [{"file": "assets/demo/order.py", "line": 41}]}))
        .await;
    assert!(
        v.contains("── STOPPED at assets/demo/order.py:41 (process_order) ──"),
        "{v}"
    );
    assert!(v.contains("Reason: breakpoint"), "{v}");
    assert!(v.contains(" →41│     subtotal = 0.0"), "{v}");
    assert_eq!(
        local(&v, "user").as_deref(),
        Some("<User: id=482, tier=\"gold\">"),
        "{v}"
    );
    assert_eq!(local(&v, "tax_rate").as_deref(), Some("0.08"), "{v}");
    assert!(v.contains("Call Stack"), "{v}");
    assert!(v.contains("main"), "{v}");
    assert!(v.contains("[session s1 · epoch "), "{v}");

    let e = mcp
        .ok("debug_evaluate", json!({"expression": "len(cart.items)"}))
        .await;
    assert!(e.starts_with("len(cart.items) = 3"), "{e}");
    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "cart.items[1].price * cart.items[1].quantity"}),
        )
        .await;
    assert!(e.contains("= 39.98"), "{e}");

    // Five steps over: 41 → 42 → 43 → 42 → 43 → 42.
    let mut lines = vec![];
    let mut last = String::new();
    for _ in 0..5 {
        last = mcp.ok("debug_step", json!({"kind": "over"})).await;
        lines.push(stopped_line(&last).expect("a stop line"));
    }
    assert_eq!(lines, vec![42, 43, 42, 43, 42], "{last}");
    assert_eq!(local(&last, "subtotal").as_deref(), Some("89.97"), "{last}");
    assert!(last.contains("Reason: step"), "{last}");

    // Run to the discount call and step into it.
    let v = mcp
        .ok(
            "debug_run_to",
            json!({"file": "assets/demo/order.py", "line": 44}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(44), "{v}");
    assert_eq!(local(&v, "subtotal").as_deref(), Some("119.94"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "into"})).await;
    assert_eq!(
        stopped_function(&v).as_deref(),
        Some("calculate_discount"),
        "{v}"
    );
    assert_eq!(stopped_line(&v), Some(35), "{v}");
    // The caller's line carries the values of its arguments, read from its
    // own frame; the module frame stays bare.
    let caller = v
        .lines()
        .find(|l| l.contains("order.py:44"))
        .unwrap_or_else(|| panic!("no caller line: {v}"));
    assert!(
        caller.contains("process_order(cart=") && caller.contains("tax_rate=0.08)"),
        "{v}"
    );
    assert!(v.contains("calculate_discount(user="), "{v}");
    assert!(v.contains("subtotal=119.94)"), "{v}");
    let v = mcp
        .ok("debug_step", json!({"kind": "over", "count": 2}))
        .await;
    // Still in the same frames: the caller's values come from the early read.
    assert!(v.contains("tax_rate=0.08)"), "{v}");
    assert_eq!(stopped_line(&v), Some(37), "{v}");
    // The bug: the discount is negative, so subtracting it adds to the total.
    assert_eq!(local(&v, "discount").as_deref(), Some("-11.994"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "out"})).await;
    assert_eq!(
        stopped_function(&v).as_deref(),
        Some("process_order"),
        "{v}"
    );
    assert_eq!(stopped_line(&v), Some(44), "{v}");

    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 0 ──"), "{v}");
    assert!(v.contains("Order total for user 482: 141.53"), "{v}");

    let out = mcp.output_containing("Order total").await;
    assert!(out.contains("Order total for user 482: 141.53"), "{out}");

    let err = mcp.fails("debug_step", json!({})).await;
    assert!(err.contains("exited"), "{err}");
    mcp.close().await;
}
