//! No adapter or debuggee outlives its session: not when the MCP client
//! leaves, nor when pairdbg gets SIGTERM or SIGKILL. Also: forking programs
//! and floods of output do not hang the session.

mod common;

use std::time::Duration;

use common::*;
use serde_json::json;

const WAITER: &str = "\
import time
x = 1
time.sleep(600)
";

/// Launches WAITER stopped at line 2 and returns the client with every
/// process pairdbg started (adapter, launcher, debuggee).
async fn stopped_session(ws: &std::path::Path) -> (Mcp, Vec<u32>) {
    let mcp = mcp_in(ws).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "w.py", "breakpoints": [{"file": "w.py", "line": 2}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(2), "{v}");
    let tree = descendants(mcp.pid);
    let debuggee = tree.iter().any(|p| {
        std::fs::read(format!("/proc/{p}/cmdline"))
            .map(|c| String::from_utf8_lossy(&c).contains("w.py"))
            .unwrap_or(false)
    });
    assert!(
        debuggee,
        "the debuggee should be among pairdbg's descendants: {tree:?}"
    );
    assert!(
        tree.len() >= 3,
        "adapter, launcher and debuggee expected: {tree:?}"
    );
    (mcp, tree)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_disconnect_ends_every_process() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("w.py", WAITER)]);
    let (mcp, tree) = stopped_session(ws.path()).await;
    let pid = mcp.pid;
    mcp.close().await;
    let left = wait_dead(&tree, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "survivors after disconnect: {left:?}");
    assert!(
        wait_dead(&[pid], Duration::from_secs(10)).await.is_empty(),
        "pairdbg itself should exit"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_ends_every_process() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("w.py", WAITER)]);
    let (mcp, tree) = stopped_session(ws.path()).await;
    // SAFETY: signalling a child we spawned.
    unsafe { libc::kill(mcp.pid as i32, libc::SIGTERM) };
    let mut all = tree.clone();
    all.push(mcp.pid);
    let left = wait_dead(&all, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "survivors after SIGTERM: {left:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_ends_every_process() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("w.py", WAITER)]);
    let (mcp, tree) = stopped_session(ws.path()).await;
    // SAFETY: signalling a child we spawned.
    unsafe { libc::kill(mcp.pid as i32, libc::SIGKILL) };
    let left = wait_dead(&tree, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "survivors after SIGKILL: {left:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminate_ends_the_debuggee() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("w.py", WAITER)]);
    let (mcp, tree) = stopped_session(ws.path()).await;
    let r = mcp.ok("debug_terminate", json!({})).await;
    assert!(r.contains("Session s1 ended"), "{r}");
    let left = wait_dead(&tree, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "survivors after debug_terminate: {left:?}");
    let s = mcp.ok("debug_sessions", json!({})).await;
    assert!(s.contains("(none"), "{s}");
    mcp.close().await;
}

const FORKS: &str = "\
import os, subprocess, sys
out = subprocess.run([sys.executable, '-c', 'print(\"child ran\")'], capture_output=True, text=True).stdout
pid = os.fork()
if pid == 0:
    os._exit(7)
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
print(out.strip(), code, flush=True)
done = True
";

/// FORKS stopped at its last line, its children debugged or not.
async fn forks_stop(subprocesses: Option<bool>, note: &str) {
    let ws = workspace(&[("f.py", FORKS)]);
    let mcp = mcp_in(ws.path()).await;
    let mut launch = json!({"program": "f.py", "breakpoints": [{"file": "f.py", "line": 9}], "timeout_ms": 20000});
    if let Some(on) = subprocesses {
        launch["subprocesses"] = json!(on);
    }
    let v = mcp.ok("debug_launch", launch).await;
    assert!(v.contains(note), "the launch says {note:?}: {v}");
    assert_eq!(stopped_line(&v), Some(9), "{v}");
    assert_eq!(local(&v, "code").as_deref(), Some("7"), "{v}");
    assert_eq!(local(&v, "out").as_deref(), Some("\"child ran\\n\""), "{v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED with code 0"), "{v}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forks_and_subprocesses_do_not_hang_the_session() {
    if !debugpy_available() {
        return;
    }
    forks_stop(None, "Child Python processes are debugged too").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subprocesses_false_runs_children_without_the_debugger() {
    if !debugpy_available() {
        return;
    }
    forks_stop(Some(false), "Child processes run without the debugger").await;
}

const FLOOD: &str = "\
import sys
chunk = ('y' * 1023 + '\\n') * 64
for i in range(800):
    sys.stdout.write(chunk)
sys.stdout.flush()
finished = True
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_megabytes_of_output_stay_responsive_and_capped() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("flood.py", FLOOD)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok("debug_launch", json!({"program": "flood.py", "breakpoints": [{"file": "flood.py", "line": 6}], "timeout_ms": 500}))
        .await;
    // While the flood runs, every tool still answers at once.
    if v.contains("still running") {
        let s = mcp.ok("debug_status", json!({})).await;
        assert!(
            ["RUNNING", "STARTING", "STOPPED"]
                .iter()
                .any(|w| s.contains(w)),
            "{s}"
        );
        mcp.ok("debug_output", json!({"max_bytes": 100})).await;
    }
    let v = mcp.ok("debug_wait", json!({"timeout_ms": 300000})).await;
    assert_eq!(stopped_line(&v), Some(6), "{v}");
    // Output travels apart from the stop and may trail it: wait until the
    // whole flood has arrived (the dropped count stops short of 40 MiB until then).
    let dropped_in = |out: &str| -> u64 {
        out.split('(')
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    let mut out = mcp.ok("debug_output", json!({"max_bytes": 2048})).await;
    while dropped_in(&out) < 40 * 1024 * 1024 - 64 * 1024 && tokio::time::Instant::now() < deadline
    {
        tokio::task::yield_now().await;
        out = mcp.ok("debug_output", json!({"max_bytes": 2048})).await;
    }
    let dropped = dropped_in(&out);
    // 50 MiB written, 10 MiB kept.
    assert!(dropped >= 40 * 1024 * 1024 - 64 * 1024, "dropped {dropped}");
    let next: u64 = out
        .split("next since=")
        .nth(1)
        .and_then(|s| s.split([',', ')']).next())
        .and_then(|n| n.parse().ok())
        .expect("cursor");
    assert!(
        next - dropped <= 2048,
        "the read starts at the oldest kept byte"
    );
    mcp.close().await;
}
