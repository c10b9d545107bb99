//! A Python program's subprocesses are debugged as child sessions: a
//! breakpoint in worker code stops each worker, the threads listing shows
//! every process, and terminate leaves none of them.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::remote::runs_freely;
use common::workers::{LOOPER, LOOPERS};
use common::*;
use serde_json::json;

const MAIN: &str = "\
import multiprocessing, os, subprocess, sys
import work

# By its full path, so the test finds every process of the demo in /proc.
WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'worker.py')

if __name__ == '__main__':
    procs = [subprocess.Popen([sys.executable, WORKER, name]) for name in ('a', 'b')]
    m = multiprocessing.Process(target=work.job, args=('m',))
    m.start()
    for p in procs:
        p.wait()
    m.join()
    print('all done', flush=True)
";

const WORKER: &str = "\
import sys
import work
work.job(sys.argv[1])
";

const WORK: &str = "\
def job(name):
    total = len(name) * 2
    print('worker', name, total, flush=True)
";

/// TCP_NODELAY on the stopped process's connection to the adapter.
const NODELAY: &str = "__import__('pydevd').get_global_debugger().writer.sock.getsockopt(6, 1)";

const USER_SITE: &str = "import builtins\nbuiltins.USER_SITE_RAN = True\n";

const READS_USER_SITE: &str = "\
import builtins
ran = getattr(builtins, 'USER_SITE_RAN', False)
print(ran)
";

/// The session's sitecustomize runs the user's own, which it hides.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_users_sitecustomize_still_runs() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[
        ("site/sitecustomize.py", USER_SITE),
        ("p.py", READS_USER_SITE),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let site = ws.path().join("site").display().to_string();
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "p.py", "env": {"PYTHONPATH": site}, "breakpoints": [{"file": "p.py", "line": 3}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(3), "{v}");
    assert_eq!(local(&v, "ran").as_deref(), Some("True"), "{v}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_breakpoint_in_worker_code_stops_every_worker_process() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("main.py", MAIN), ("worker.py", WORKER), ("work.py", WORK)]);
    let mcp = mcp_in(ws.path()).await;
    let mut v = mcp
        .ok(
            "debug_launch",
            json!({"program": "main.py", "breakpoints": [{"file": "work.py", "line": 2}], "timeout_ms": 30000}),
        )
        .await;
    let mut seen = BTreeSet::new();
    let mut processes = BTreeSet::new();
    for _ in 0..8 {
        assert_eq!(stopped_line(&v), Some(2), "each stop is in the worker: {v}");
        let process = v
            .lines()
            .find_map(|l| l.strip_prefix("Process: "))
            .unwrap_or_else(|| panic!("the viewport names the stopped process: {v}"))
            .to_string();
        let name = local(&v, "name").expect("the worker's name");
        seen.insert(name.clone());
        processes.insert(process.clone());
        let threads = mcp.ok("debug_threads", json!({})).await;
        assert!(threads.contains("process 0: main"), "{threads}");
        let child = process
            .rsplit("child=")
            .next()
            .and_then(|s| s.trim_end_matches(')').parse::<u32>().ok())
            .expect("the process's number");
        assert!(
            threads.contains(&format!("process {child}: ")),
            "the stopped process is listed: {threads}"
        );
        // Children get the main program's latency fix too (TCP_NODELAY on
        // pydevd's socket), through the session's sitecustomize.
        let nodelay = mcp
            .ok(
                "debug_evaluate",
                json!({"expression": NODELAY, "allow_side_effects": true}),
            )
            .await;
        assert!(
            nodelay.contains("= 1") && !nodelay.contains("= 0"),
            "{process} has TCP_NODELAY on its debug connection: {nodelay}"
        );
        if seen.len() == 3 {
            break;
        }
        v = mcp.ok("debug_continue", json!({"timeout_ms": 30000})).await;
    }
    assert_eq!(
        seen,
        ["\"a\"", "\"b\"", "\"m\""].map(String::from).into(),
        "both Popen workers and the multiprocessing one stopped"
    );
    assert_eq!(processes.len(), 3, "three processes stopped: {processes:?}");
    let r = mcp.ok("debug_terminate", json!({})).await;
    assert!(r.contains("ended"), "{r}");
    let dir = ws.path().display().to_string();
    let left = wait_gone(&dir, Duration::from_secs(15)).await;
    assert!(
        left.is_empty(),
        "processes of the demo survive terminate: {left:?}"
    );
    mcp.close().await;
}

/// `process N: Subprocess PID` rows of a threads listing: (N, PID).
fn subprocesses(threads: &str) -> Vec<(u32, u32)> {
    threads
        .lines()
        .filter_map(|l| l.trim().strip_prefix("process "))
        .filter_map(|l| {
            let (n, name) = l.split_once(": ")?;
            let pid = name.strip_prefix("Subprocess ")?.split(' ').next()?;
            Some((n.parse().ok()?, pid.parse().ok()?))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pausing_one_child_stops_it_and_leaves_the_other_running() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("main.py", LOOPERS), ("looper.py", LOOPER)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "main.py", "timeout_ms": 300}),
        )
        .await;
    assert!(v.contains("still running"), "{v}");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let workers = loop {
        let threads = mcp.ok("debug_threads", json!({})).await;
        let found = subprocesses(&threads);
        if found.len() == 2 {
            break found;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the two workers never appeared: {threads}"
        );
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    };
    let (paused, paused_pid) = workers[0];
    let (_, other_pid) = workers[1];
    // Both at work in their loops.
    assert!(runs_freely(paused_pid).await && runs_freely(other_pid).await);
    let v = mcp
        .ok("debug_pause", json!({"child": paused, "timeout_ms": 30000}))
        .await;
    assert!(
        v.contains("── STOPPED at looper.py:"),
        "stopped in the worker's code: {v}"
    );
    assert!(
        v.contains(&format!("(child={paused})")),
        "the viewport names the paused process: {v}"
    );
    // Held: its count no longer moves. Only the value's line is compared:
    // a notice may come before it.
    let count = || async {
        let r = mcp
            .ok("debug_evaluate", json!({"expression": "count"}))
            .await;
        let line = r.lines().find(|l| l.starts_with("count = "));
        line.unwrap_or_else(|| panic!("no value: {r}")).to_string()
    };
    let first = count().await;
    assert!(runs_freely(other_pid).await, "the other worker runs on");
    assert_eq!(count().await, first, "the paused worker counted on");
    assert!(alive(paused_pid));
    let threads = mcp.ok("debug_threads", json!({})).await;
    assert_eq!(subprocesses(&threads).len(), 2, "{threads}");
    let r = mcp.ok("debug_terminate", json!({})).await;
    assert!(r.contains("ended"), "{r}");
    let dir = ws.path().display().to_string();
    let left = wait_gone(&dir, Duration::from_secs(15)).await;
    assert!(left.is_empty(), "processes survive terminate: {left:?}");
    mcp.close().await;
}
