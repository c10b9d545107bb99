//! A method pairdbg runs in the program (a `toString()` for a preview, a
//! call in an expression) that never returns: its value reads "not read"
//! with the deadline it missed, and the stop, its stack and the next step
//! stay usable.

mod common;

use common::*;
use serde_json::json;

const SPIN: &str = "public class Spin {
    int turns;

    @Override
    public String toString() {
        while (true) {
            turns++;
        }
    }

    public static void main(String[] args) {
        Spin spin = new Spin();
        int count = 41;
        count += 1;
        System.out.println(\"count \" + count);
    }
}
";

const HUNG: &str = "<not read: toString() did not return within 1000 ms>";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tostring_that_never_returns_does_not_hang_the_stop() {
    if !java_available() {
        return;
    }
    let ws = workspace(&[("Spin.java", SPIN)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "Spin.java", "timeout_ms": 60000,
                   "breakpoints": [{"file": "Spin.java", "line": 14}]}),
        )
        .await;
    assert!(
        v.contains("── STOPPED at Spin.java:14 (Spin.main) ──"),
        "{v}"
    );
    assert_eq!(local(&v, "spin").as_deref(), Some(HUNG), "{v}");
    assert_eq!(local(&v, "count").as_deref(), Some("41"), "{v}");

    // The thread came back from the call: its frame and the object read.
    let st = mcp.ok("debug_stack", json!({})).await;
    assert!(st.contains("Spin.main"), "{st}");
    let fields = mcp.ok("debug_variables", json!({"expand": "spin"})).await;
    // An int the JIT-compiled loop may have wrapped past 2^31 in a second.
    let turns: i64 = fields
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("turns = ")?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("turns read: {fields}"));
    assert!(turns != 0, "the loop ran before it was stopped: {fields}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "count + 1"}))
        .await;
    assert!(e.contains("= 42"), "{e}");
    // The same call again at this stop is not run again.
    let err = mcp
        .fails("debug_evaluate", json!({"expression": "spin.toString()"}))
        .await;
    assert!(
        err.contains("toString() did not return within 1000 ms"),
        "{err}"
    );

    let v = mcp.ok("debug_step", json!({"kind": "over"})).await;
    assert_eq!(stopped_line(&v), Some(15), "{v}");
    assert_eq!(local(&v, "count").as_deref(), Some("42"), "{v}");
    assert_eq!(local(&v, "spin").as_deref(), Some(HUNG), "{v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 0 ──"), "{v}");
    let out = mcp.output_containing("count 42").await;
    assert!(out.contains("count 42"), "{out}");
    mcp.close().await;
}
