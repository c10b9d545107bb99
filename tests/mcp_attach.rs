//! Attaching to a running Python process by pid (debugpy injects itself
//! with gdb), stopping it at a breakpoint, and detaching so it runs on.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::*;
use serde_json::json;

const LOOP: &str = "\
import time
count = 0
while True:
    count += 1
    time.sleep(0.01)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attach_by_pid_stops_at_a_breakpoint_and_detach_leaves_it_running() {
    if !debugpy_available() || !tool_available("gdb") {
        return;
    }
    let ws = workspace(&[("spin.py", LOOP)]);
    let mut child = Running(
        Command::new("python3")
            .arg("spin.py")
            .current_dir(ws.path())
            .stdout(Stdio::null())
            .spawn()
            .expect("start the program"),
    );
    let pid = child.0.id();
    // A version manager's shim runs first and execs the interpreter.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !std::fs::read_link(format!("/proc/{pid}/exe"))
        .is_ok_and(|e| e.to_string_lossy().contains("python"))
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "python never started"
        );
        let _ = tokio::time::timeout(Duration::from_millis(20), std::future::pending::<()>()).await;
    }
    let mcp = mcp_in(ws.path()).await;

    // The language is told from the process's program.
    let v = mcp
        .ok(
            "debug_attach",
            json!({"pid": pid, "breakpoints": [{"file": "spin.py", "line": 4}], "timeout_ms": 60000}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(4), "{v}");
    let count: u64 = local(&v, "count")
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("count is a number: {v}"));
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "count * 2"}))
        .await;
    assert!(e.starts_with(&format!("count * 2 = {}", count * 2)), "{e}");
    let s = mcp.ok("debug_sessions", json!({})).await;
    assert!(s.contains(&format!("pid {pid}")), "{s}");

    let adapter: Vec<u32> = descendants(mcp.pid);
    assert!(!adapter.is_empty(), "the adapter runs under pairdbg");
    let t = mcp.ok("debug_terminate", json!({"detach": true})).await;
    assert!(t.contains("detached and keeps running"), "{t}");
    mcp.close().await;
    // The adapter is gone, and the program runs on.
    let left = wait_dead(&adapter, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "adapter processes left: {left:?}");
    assert!(alive(pid), "the attached program was killed");
    assert!(
        child.0.try_wait().expect("wait").is_none(),
        "the attached program exited"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attach_errors_name_the_field() {
    let ws = workspace(&[("spin.py", LOOP)]);
    let mcp = mcp_in(ws.path()).await;
    let msg = mcp
        .fails("debug_attach", json!({"pid": 999_999_999u32}))
        .await;
    assert!(
        msg.contains("pid") && msg.contains("no process 999999999"),
        "{msg}"
    );
    let msg = mcp
        .fails(
            "debug_attach",
            json!({"pid": std::process::id(), "language": "cobol"}),
        )
        .await;
    assert!(
        msg.contains("language") && msg.contains("cobol is not supported"),
        "{msg}"
    );
    mcp.close().await;
}

/// A python process running `spin.py` in `ws`, once the interpreter runs.
async fn spin(ws: &std::path::Path) -> Running {
    let child = Running(
        Command::new("python3")
            .arg("spin.py")
            .current_dir(ws)
            .stdout(Stdio::null())
            .spawn()
            .expect("start the program"),
    );
    let pid = child.0.id();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !std::fs::read_link(format!("/proc/{pid}/exe"))
        .is_ok_and(|e| e.to_string_lossy().contains("python"))
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "python never started"
        );
        let _ = tokio::time::timeout(Duration::from_millis(20), std::future::pending::<()>()).await;
    }
    child
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminate_debuggee_ends_an_attached_program_and_plain_terminate_does_not() {
    if !debugpy_available() || !tool_available("gdb") {
        return;
    }
    let ws = workspace(&[("spin.py", LOOP)]);
    let kept = spin(ws.path()).await;
    let ended = spin(ws.path()).await;
    let (kept_pid, ended_pid) = (kept.0.id(), ended.0.id());
    let mcp = mcp_in(ws.path()).await;

    mcp.ok(
        "debug_attach",
        json!({"pid": kept_pid, "timeout_ms": 60000}),
    )
    .await;
    let t = mcp.ok("debug_terminate", json!({})).await;
    assert!(t.contains("detached and keeps running"), "{t}");

    mcp.ok(
        "debug_attach",
        json!({"pid": ended_pid, "timeout_ms": 60000}),
    )
    .await;
    let msg = mcp
        .fails(
            "debug_terminate",
            json!({"detach": true, "terminate_debuggee": true}),
        )
        .await;
    assert!(
        msg.contains("detach") && msg.contains("terminate_debuggee"),
        "{msg}"
    );
    let t = mcp
        .ok("debug_terminate", json!({"terminate_debuggee": true}))
        .await;
    assert!(t.contains("attached program was ended"), "{t}");
    let left = wait_dead(&[ended_pid], Duration::from_secs(10)).await;
    assert!(
        left.is_empty(),
        "terminate_debuggee left the program running"
    );
    assert!(
        alive(kept_pid),
        "a plain terminate ended the attached program"
    );
    mcp.close().await;
}
