//! A Python local whose `__repr__` takes 40 s, on real debugpy through the
//! real binary: the stop shows within the read deadline, its locals marked
//! not read (debugpy computes every repr in one answer). From then on each
//! stop reads a listing just before the scope, so later stops show every
//! other local and mark that one alone not read. (The listing is not sent
//! before a read has been slow: debugpy sometimes holds the scope's answer
//! some 200 ms behind it.)
//!
//! The next step still waits for the repr: debugpy runs it on the stopped
//! thread, which takes the step only once the repr returns, and its one way
//! to cut an evaluation short (PYDEVD_INTERRUPT_THREAD_TIMEOUT) covers
//! `evaluate` alone and works by sending the program SIGINT, which runs the
//! program's own handler. So the step lands once the program is free, and
//! its stop reads the same way. No python process outlives the session.

mod common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::json;

const PROG: &str = "\
import time


class Slow:
    def __repr__(self):
        time.sleep(40)
        return 'Slow()'


def main():
    count = 3
    slow = Slow()
    print('stop', flush=True)
    count += 1
    return count


main()
";

const STOP_LINE: u64 = 14;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repr_that_sleeps_leaves_the_stop_usable() {
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
    assert_eq!(
        local(&v, "locals").as_deref(),
        Some("<not read: the adapter took longer than 3000 ms>"),
        "{v}"
    );

    // debugpy answers the step once the repr it is computing returns.
    let v = mcp
        .ok("debug_step", json!({"kind": "over", "timeout_ms": 60000}))
        .await;
    assert_eq!(stopped_line(&v), Some(STOP_LINE + 1), "{v}");
    assert!(!v.contains("failed"), "{v}");
    assert_eq!(local(&v, "count").as_deref(), Some("4"), "{v}");
    assert_eq!(local(&v, "time"), None, "a global is not a local: {v}");
    assert_eq!(
        local(&v, "slow").as_deref(),
        Some("<not read: the adapter took longer than 3000 ms>"),
        "{v}"
    );

    mcp.close().await;
    let left = wait_gone(&program, Duration::from_secs(10)).await;
    assert!(
        left.is_empty(),
        "python processes outlived the session: {left:?}"
    );
}
