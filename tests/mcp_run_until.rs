//! debug_run_until through a real MCP client on debugpy: the program runs
//! until a watched expression changes or becomes true, and says why when
//! something else stopped it first.

mod common;

use common::*;
use serde_json::json;

const PROG: &str = "\
def work():
    total = 0
    for i in range(10):
        note = i * 2
        if i % 4 == 3:
            total += i
        check(i)
    return total


def check(i):
    return i >= 0


print(work())
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_until_a_value_changes_or_a_condition_holds() {
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
    // total first changes when i == 3, at the line after `total += i`.
    let r = mcp
        .ok("debug_run_until", json!({"expression": "total"}))
        .await;
    assert!(r.starts_with("total: 0 → 3 after "), "{r}");
    assert_eq!(local(&r, "i").as_deref(), Some("3"), "{r}");
    assert_eq!(local(&r, "total").as_deref(), Some("3"), "{r}");
    let r = mcp
        .ok(
            "debug_run_until",
            json!({"expression": "note >= 14", "until": "becomes_true"}),
        )
        .await;
    assert!(r.starts_with("note >= 14: False → True after "), "{r}");
    assert_eq!(local(&r, "note").as_deref(), Some("14"), "{r}");
    // The cap ends a run whose condition does not hold, and says so.
    let r = mcp
        .ok(
            "debug_run_until",
            json!({"expression": "i == 9", "until": "becomes_true", "max_steps": 2}),
        )
        .await;
    assert!(
        r.starts_with("i == 9 still False after 2 steps (max_steps)"),
        "{r}"
    );
    // A breakpoint met on the way, inside a call, wins, and the result says
    // it came first; one on a line the step lands on anyway does not.
    mcp.ok("breakpoint_set", json!({"file": "p.py", "line": 12}))
        .await;
    let r = mcp
        .ok(
            "debug_run_until",
            json!({"expression": "i == 9", "until": "becomes_true"}),
        )
        .await;
    assert!(r.starts_with("Stopped by a breakpoint after "), "{r}");
    assert_eq!(stopped_line(&r), Some(12), "{r}");
    let msg = mcp
        .fails(
            "debug_run_until",
            json!({"expression": "i >= 0", "until": "becomes_true"}),
        )
        .await;
    assert!(msg.contains("already true"), "{msg}");
    let msg = mcp
        .fails("debug_run_until", json!({"expression": "nope"}))
        .await;
    assert!(msg.contains("expression") && msg.contains("nope"), "{msg}");
    let msg = mcp
        .fails(
            "debug_run_until",
            json!({"expression": "i", "max_steps": 0}),
        )
        .await;
    assert!(msg.contains("max_steps") && msg.contains("10000"), "{msg}");
    mcp.close().await;
}
