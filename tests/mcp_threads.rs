//! Switching threads while stopped: the agent looks at, evaluates in and
//! steps another thread, then comes back to the one that hit the breakpoint.

mod common;

use common::*;
use serde_json::json;

const PROG: &str = "\
import threading

release = threading.Event()
ready = threading.Event()


def worker(label, limit):
    count = 0
    ready.set()
    while not release.is_set():
        count = (count + 1) % limit
    return count


t = threading.Thread(target=worker, args=('w1', 7), name='worker-1')
t.start()
ready.wait()
marker = 'main'
release.set()
t.join()
print('done', flush=True)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_switches_threads_and_steps_the_other_one() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("threads.py", PROG)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "threads.py", "breakpoints": [{"file": "threads.py", "line": 18}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(18), "{v}");
    assert!(
        !v.contains("Thread:"),
        "the stopping thread needs no note: {v}"
    );

    let list = mcp.ok("debug_threads", json!({})).await;
    let worker_id: i64 = list
        .lines()
        .find(|l| l.contains("worker-1"))
        .and_then(|l| l.trim_start_matches([' ', '→']).split(':').next())
        .and_then(|id| id.trim().parse().ok())
        .unwrap_or_else(|| panic!("no worker thread listed: {list}"));
    let main_line = list
        .lines()
        .find(|l| l.contains("MainThread"))
        .unwrap_or_else(|| panic!("no main thread listed: {list}"));
    assert!(
        main_line.contains('→'),
        "the stopped thread is current: {list}"
    );
    let main_id: i64 = main_line
        .trim_start_matches([' ', '→'])
        .split(':')
        .next()
        .and_then(|id| id.trim().parse().ok())
        .expect("main thread id");

    // The worker's own stack, locals and evaluation context.
    let v = mcp.ok("debug_threads", json!({"select": worker_id})).await;
    assert_eq!(stopped_function(&v).as_deref(), Some("worker"), "{v}");
    assert!(v.contains("Reason: pause"), "{v}");
    assert!(
        v.contains("Thread: thread")
            && v.contains("(worker-1) selected")
            && v.contains("(MainThread) stopped (breakpoint)"),
        "{v}"
    );
    assert!(v.contains("worker(label=\"w1\", limit=7)"), "{v}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "label * 2"}))
        .await;
    assert!(e.starts_with("label * 2 = ") && e.contains("w1w1"), "{e}");
    let list = mcp.ok("debug_threads", json!({})).await;
    assert!(
        list.lines()
            .any(|l| l.contains("worker-1") && l.contains('→')),
        "{list}"
    );

    // Back to the thread that stopped: its reason comes back with it.
    let v = mcp.ok("debug_threads", json!({"select": main_id})).await;
    assert_eq!(stopped_line(&v), Some(18), "{v}");
    assert!(v.contains("Reason: breakpoint"), "{v}");
    assert!(!v.contains("Thread:"), "{v}");
    assert_eq!(local(&v, "marker"), None, "line 18 has not run: {v}");

    // Steps move the selected thread.
    mcp.ok("debug_threads", json!({"select": worker_id})).await;
    let v = mcp.ok("debug_step", json!({})).await;
    assert_eq!(stopped_function(&v).as_deref(), Some("worker"), "{v}");
    assert!(v.contains("Reason: step"), "{v}");

    let bad = mcp.fails("debug_threads", json!({"select": 999_999})).await;
    assert!(
        bad.contains("thread_id") && bad.contains("no thread 999999") && bad.contains("worker-1"),
        "{bad}"
    );

    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED with code 0"), "{v}");
    assert!(v.contains("done"), "{v}");
    let after = mcp.fails("debug_threads", json!({"select": main_id})).await;
    assert!(after.contains("cannot switch threads"), "{after}");
    mcp.close().await;
}

const FORKS: &str = "\
import os
import time

kids = []
for i in range(30):
    pid = os.fork()
    if pid == 0:
        time.sleep(120)
        os._exit(0)
    kids.append(pid)
print(len(kids), flush=True)
";

/// Thirty forked children, each a process of the session: listing the
/// threads answers promptly, with the stopped process first, however many
/// children are still starting or busy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn threads_answer_promptly_with_thirty_children() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("forks.py", FORKS)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "forks.py", "timeout_ms": 60000,
                   "breakpoints": [{"file": "forks.py", "line": 11}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(11), "{v}");
    // Each answer comes in tens of milliseconds here; a child that is slow
    // to answer once held every listing for the 20 s request deadline.
    for _ in 0..3 {
        let started = std::time::Instant::now();
        let threads = mcp.ok("debug_threads", json!({})).await;
        let took = started.elapsed();
        assert!(
            took < std::time::Duration::from_secs(5),
            "{took:?}: {threads}"
        );
        assert!(
            threads.contains("process 0: main (pid ")
                && threads.contains("→ 1: MainThread")
                && threads.contains("process 1: Subprocess "),
            "{threads}"
        );
    }
    let r = mcp.ok("debug_terminate", json!({})).await;
    assert!(r.contains("ended"), "{r}");
    let dir = ws.path().display().to_string();
    let left = wait_gone(&dir, std::time::Duration::from_secs(15)).await;
    assert!(left.is_empty(), "children outlived the session: {left:?}");
    mcp.close().await;
}
