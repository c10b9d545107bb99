//! Tracepoint hits reach a client exactly once each and in the order the
//! program made them, read off `pairdbg mcp`'s stdout line by line on a
//! real debugpy.

mod common;

#[path = "common/raw_stdio.rs"]
mod raw_stdio;

use std::time::Duration;

use common::{debugpy_available, workspace};
use raw_stdio::{RawMcp, traced_index};
use serde_json::json;

const HITS: u64 = 2000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_thousand_hits_arrive_once_each_in_order() {
    if !debugpy_available() {
        return;
    }
    let program =
        format!("total = 0\nfor i in range({HITS}):\n    total += i\nprint('end', total)\n");
    let ws = workspace(&[("loop.py", &program)]);
    let mut mcp = RawMcp::start(env!("CARGO_BIN_EXE_pairdbg"), ws.path()).await;
    let launch = json!({"program": "loop.py", "stop_on_entry": true,
        "breakpoints": [{"file": "loop.py", "line": 4}]});
    let v = mcp.call("debug_launch", launch, |_| {}).await;
    assert!(v.contains("loop.py:1"), "{v}");
    let t = mcp
        .call(
            "tracepoint_set",
            json!({"file": "loop.py", "line": 3, "log_message": "{i}"}),
            |_| {},
        )
        .await;
    assert!(t.contains("tracepoint loop.py:3"), "{t}");
    let mut got = vec![];
    let v = mcp
        .call("debug_continue", json!({}), |m| got.extend(traced_index(m)))
        .await;
    assert!(v.contains("loop.py:4"), "{v}");
    // The stop's answer may overtake the last hits' notifications.
    while (got.len() as u64) < HITS {
        match mcp.next(Duration::from_secs(10)).await {
            Some(m) => got.extend(traced_index(&m)),
            None => break,
        }
    }
    let expected: Vec<u64> = (0..HITS).collect();
    if got != expected {
        let first_wrong = got.iter().zip(&expected).position(|(a, b)| a != b);
        panic!(
            "{} hits arrived, expected {HITS} in order; first out of place at {first_wrong:?}: {:?}",
            got.len(),
            &got[first_wrong.unwrap_or(0).saturating_sub(3)
                ..got.len().min(first_wrong.unwrap_or(0) + 5)]
        );
    }
    mcp.close().await;
}
