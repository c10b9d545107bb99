//! A long investigation stays cheap and readable: diff mode turns itself on
//! after the 20th call unless the agent chose, and `debug_action_log` gives
//! the investigation so far, one line per action. Real debugpy, real client.

mod common;

use common::*;
use serde_json::json;

const LOOP: &str = "\
total = 0
for i in range(100):
    total += i
print(total)
";

const AUTO_NOTE: &str = "Diff mode is now on";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diff_mode_turns_on_after_the_20th_call_and_says_so_once() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("loop.py", LOOP)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "loop.py", "breakpoints": [{"file": "loop.py", "line": 3}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at loop.py:3"), "{v}");
    // Calls 2 to 19: full viewports, nothing said.
    for n in 2..20 {
        let v = mcp.ok("debug_continue", json!({})).await;
        assert!(!v.contains(AUTO_NOTE), "call {n}: {v}");
        assert!(
            v.contains("Call Stack") && !v.contains("(same frame)"),
            "call {n}: {v}"
        );
    }
    // The 20th says diff mode is on; the next stop is a diff.
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.starts_with(AUTO_NOTE), "{v}");
    assert!(
        v.contains("diff_mode: false"),
        "it says how to undo it: {v}"
    );
    let v = mcp.ok("debug_continue", json!({})).await;
    eprintln!("{v}");
    assert!(!v.contains(AUTO_NOTE), "said once: {v}");
    assert!(v.contains("(same frame)") && v.contains("Changed:"), "{v}");
    assert!(v.contains("total") && !v.contains("Source ("), "{v}");

    // Choosing afterwards wins: full viewports again, and they stay.
    mcp.ok(
        "debug_status",
        json!({"viewport_config": {"diff_mode": false}}),
    )
    .await;
    for _ in 0..3 {
        let v = mcp.ok("debug_continue", json!({})).await;
        assert!(
            v.contains("Call Stack") && !v.contains("(same frame)"),
            "{v}"
        );
    }
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_that_chose_full_viewports_keeps_them() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("loop.py", LOOP)]);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({
            "program": "loop.py",
            "breakpoints": [{"file": "loop.py", "line": 3}],
            "viewport_config": {"diff_mode": false}
        }),
    )
    .await;
    for n in 2..26 {
        let v = mcp.ok("debug_continue", json!({})).await;
        assert!(!v.contains(AUTO_NOTE), "call {n}: {v}");
        assert!(!v.contains("(same frame)"), "call {n}: {v}");
    }
    mcp.close().await;
}

/// `(epoch, line)` of each entry of the log.
fn entries(log: &str) -> Vec<(u64, String)> {
    log.lines()
        .filter_map(|l| l.trim_start().strip_prefix('e'))
        .filter_map(|l| {
            let (e, rest) = l.split_once(' ')?;
            Some((e.parse().ok()?, rest.trim().to_string()))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_action_log_tells_the_investigation_so_far() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("loop.py", LOOP)]);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": "loop.py", "breakpoints": [{"file": "loop.py", "line": 3}]}),
    )
    .await;
    mcp.ok("debug_continue", json!({})).await;
    mcp.ok("debug_evaluate", json!({"expression": "total + 1000"}))
        .await;
    mcp.ok(
        "debug_note",
        json!({"text": "hypothesis: total grows by i each pass"}),
    )
    .await;
    mcp.fails("debug_evaluate", json!({"expression": "nosuch"}))
        .await;
    mcp.ok("debug_step", json!({})).await;

    let log = mcp.ok("debug_action_log", json!({})).await;
    eprintln!("{log}");
    assert!(
        log.contains("5 agent calls") && log.contains("1 notes"),
        "{log}"
    );
    let e = entries(&log);
    let lines: Vec<&str> = e.iter().map(|(_, l)| l.as_str()).collect();
    let find = |needle: &str| {
        lines
            .iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no {needle:?} in {log}"))
    };
    let launch = find("debug_launch breakpoints=");
    assert!(
        lines[launch].contains("program=loop.py → STOPPED at loop.py:3 (<module>)"),
        "{log}"
    );
    let cont = find("debug_continue → STOPPED at loop.py:3");
    let eval = find("debug_evaluate expression=total + 1000 → total + 1000 = 1000");
    let note = find("note (agent): hypothesis: total grows by i each pass");
    let bad = find("debug_evaluate expression=nosuch → error:");
    assert!(lines[bad].contains("nosuch"), "{log}");
    let step = find("debug_step → ");
    assert!(lines[step].contains("loop.py:"), "{log}");
    assert!(
        launch < cont && cont < eval && eval <= note && note < step,
        "in the order they happened: {log}"
    );
    // Epochs never go back, and moves advance them.
    assert!(e.windows(2).all(|w| w[0].0 <= w[1].0), "{log}");
    assert!(e[step].0 > e[cont].0 && e[cont].0 > e[launch].0, "{log}");
    assert!(
        !log.contains("debug_action_log"),
        "the log leaves itself out: {log}"
    );
    mcp.close().await;
}
