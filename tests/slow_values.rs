//! A Python local whose `__repr__` takes 40 s, on real debugpy through the
//! real binary: the stop shows at once with every other local read and that
//! one marked not read, the next step lands without waiting for the repr,
//! an evaluation of it answers in bounded time, and the program's own
//! SIGALRM handler and timer (which the deadline borrows) are as it left
//! them. No python process outlives the session.

mod common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::json;

const PROG: &str = "\
import signal
import time


class Slow:
    def __repr__(self):
        time.sleep(40)
        return 'Slow()'


def on_alarm(signum, frame):
    print('alarm', flush=True)


def main():
    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 600)
    count = 3
    slow = Slow()
    pair = [count, Slow()]
    print('stop', flush=True)
    count += 1
    left = signal.getitimer(signal.ITIMER_REAL)[0]
    print('own handler', signal.getsignal(signal.SIGALRM) is on_alarm, flush=True)
    print('own timer', 500 < left <= 600, flush=True)
    return count


main()
";

const STOP_LINE: u64 = 22;
const NOT_READ: &str = "<not read: the repr took longer than ";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repr_that_sleeps_costs_only_its_own_value() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let program = ws.path().join("prog.py").display().to_string();
    let mcp = mcp_in(ws.path()).await;
    let started = Instant::now();
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": STOP_LINE}]}),
        )
        .await;
    let waited = started.elapsed();
    assert_eq!(stopped_line(&v), Some(STOP_LINE), "{v}");
    assert!(
        waited < Duration::from_secs(15),
        "the stop took {waited:?}, as long as the repr or the session's timeout"
    );
    assert_eq!(local(&v, "count").as_deref(), Some("3"), "{v}");
    for name in ["slow", "pair"] {
        let shown = local(&v, name).unwrap_or_default();
        assert!(shown.starts_with(NOT_READ), "{name}: {v}");
    }

    let started = Instant::now();
    let v = mcp
        .ok("debug_step", json!({"kind": "over", "timeout_ms": 60000}))
        .await;
    let waited = started.elapsed();
    assert_eq!(stopped_line(&v), Some(STOP_LINE + 1), "{v}");
    assert!(
        waited < Duration::from_secs(15),
        "the step took {waited:?}: it waited for the repr"
    );
    assert_eq!(local(&v, "count").as_deref(), Some("4"), "{v}");
    assert_eq!(local(&v, "time"), None, "a global is not a local: {v}");
    assert!(
        local(&v, "slow").unwrap_or_default().starts_with(NOT_READ),
        "{v}"
    );

    // Asked for by name it gets longer, and still an answer, not a hang.
    let v = mcp
        .ok("debug_evaluate", json!({"expression": "slow"}))
        .await;
    assert!(v.contains(NOT_READ), "{v}");
    assert!(!v.contains("Slow()"), "{v}");

    let v = mcp.ok("debug_continue", json!({"timeout_ms": 30000})).await;
    assert!(v.contains("EXITED"), "{v}");
    let out = mcp.ok("debug_output", json!({})).await;
    assert!(out.contains("own handler True"), "{out}");
    assert!(out.contains("own timer True"), "{out}");
    assert!(
        !out.contains("alarm\n"),
        "the program's handler ran early: {out}"
    );

    mcp.close().await;
    let left = wait_gone(&program, Duration::from_secs(10)).await;
    assert!(
        left.is_empty(),
        "python processes outlived the session: {left:?}"
    );
}
