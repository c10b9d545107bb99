//! Breakpoints set one after another at a live stop under js-debug, whose
//! child connection can give two breakpoints the same id and then announce
//! one of them by that id: each keeps its own line, verified.

mod common;

use common::*;
use serde_json::json;

const DEMO: &str = "assets/demo/node/prog.js";

/// The list once js-debug's `breakpoint` events for what was just set are
/// in: they come before its answer to a later request on the same
/// connection, and the session takes events before commands.
async fn settled_list(mcp: &Mcp) -> String {
    mcp.ok("debug_evaluate", json!({"expression": "1 + 1"}))
        .await;
    mcp.ok("breakpoint_list", json!({})).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_breakpoints_set_at_a_stop_each_keep_their_own_line() {
    let Some((_ws, mcp)) = js_mcp(&[(
        "prog.js",
        &std::fs::read_to_string(repo_root().join(DEMO)).unwrap(),
    )])
    .await
    else {
        return;
    };
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.js", "breakpoints": [{"file": "prog.js", "line": 14}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at prog.js:14 (main) ──"), "{v}");

    mcp.ok("breakpoint_set", json!({"file": "prog.js", "line": 12}))
        .await;
    let list = settled_list(&mcp).await;
    assert!(
        list.contains("#1 blocking prog.js:14 enabled verified"),
        "{list}"
    );
    assert!(
        list.contains("#2 blocking prog.js:12 enabled verified"),
        "{list}"
    );

    mcp.ok("breakpoint_set", json!({"file": "prog.js", "line": 27}))
        .await;
    let list = settled_list(&mcp).await;
    assert!(!list.contains("moved"), "{list}");
    for line in [
        "#1 blocking prog.js:14 enabled verified",
        "#2 blocking prog.js:12 enabled verified",
        "#3 blocking prog.js:27 enabled verified",
    ] {
        assert!(list.contains(line), "{line}: {list}");
    }
    // The loop's next stop is line 12, and it counts against #2 alone.
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── STOPPED at prog.js:12 (main) ──"), "{v}");
    let list = mcp.ok("breakpoint_list", json!({})).await;
    assert!(
        list.contains("#1 blocking prog.js:14 enabled verified hits 1"),
        "{list}"
    );
    assert!(
        list.contains("#2 blocking prog.js:12 enabled verified hits 1"),
        "{list}"
    );
    mcp.ok("debug_terminate", json!({})).await;
    mcp.close().await;
}
