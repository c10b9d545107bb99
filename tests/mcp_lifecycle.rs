//! A session's life as the agent sees it: breakpoints and exception filters
//! set after the program exited are used by the restart, a breakpoint on a
//! blank line says where it bound, and a program ended by the agent is said
//! to be terminated, not to have exited.

mod common;

use common::*;
use serde_json::json;

const PROG: &str = "\
def check(n):
    if n > 2:
        raise ValueError(n)
    return n


for i in range(5):
    try:
        check(i)
    except ValueError:
        pass
print('done')
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_the_exit_breakpoints_and_filters_are_set_and_the_restart_uses_them() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let agent = mcp_in(ws.path()).await;
    let v = agent
        .ok("debug_launch", json!({"program": "prog.py"}))
        .await;
    assert!(v.contains("EXITED"), "{v}");
    let b = agent
        .ok(
            "breakpoint_set",
            json!({"file": "prog.py", "line": 4, "condition": "n == 1"}),
        )
        .await;
    assert!(b.contains("prog.py:4"), "{b}");
    agent
        .ok("breakpoint_set_exception", json!({"filters": ["raised"]}))
        .await;
    let v = agent.ok("debug_restart", json!({})).await;
    assert_eq!(
        stopped_line(&v),
        Some(4),
        "the condition holds at n == 1: {v}"
    );
    assert!(local(&v, "n").is_some_and(|n| n.starts_with('1')), "{v}");
    let v = agent.ok("debug_continue", json!({})).await;
    assert!(
        v.contains("ValueError"),
        "the raised filter set after the exit stops at the raise: {v}"
    );
    agent.close().await;
}

const LOOP: &str = "\
import time
count = 0
while True:
    count += 1
    time.sleep(0.01)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminate_says_the_program_was_ended_on_request_not_that_it_exited() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", LOOP)]);
    let agent = mcp_in(ws.path()).await;
    let v = agent
        .ok(
            "debug_launch",
            json!({"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": 4}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(4), "{v}");
    let t = agent.ok("debug_terminate", json!({})).await;
    assert!(
        t.contains("The program was terminated at the agent's request."),
        "{t}"
    );
    assert!(!t.contains("exited"), "{t}");
    agent.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_breakpoint_on_a_blank_line_tells_the_agent_where_it_bound() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let agent = mcp_in(ws.path()).await;
    agent
        .ok(
            "debug_launch",
            json!({"program": "prog.py", "stop_on_entry": true}),
        )
        .await;
    let b = agent
        .ok("breakpoint_set", json!({"file": "prog.py", "line": 5}))
        .await;
    assert!(b.contains("moved to line"), "{b}");
    assert!(!b.contains("moved to line 0"), "{b}");
    agent.close().await;
}

const C_PROG: &str = "\
#include <stdio.h>

int add(int a, int b) {
    int total = a + b;
    return total;
}

int main(void) {
    // a comment
    int x = add(1, 2);
    int y = add(x, 10);
    printf(\"result %d\\n\", y);
    return 0;
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_native_breakpoint_on_a_comment_line_tells_the_agent_where_it_bound() {
    if !common::native::lldb_available() {
        return;
    }
    let ws = workspace(&[("prog.c", C_PROG)]);
    common::native::build_c(&ws.path().join("prog.c"), &ws.path().join("prog"));
    let agent = mcp_in(ws.path()).await;
    let v = agent
        .ok(
            "debug_launch",
            json!({"program": "prog", "breakpoints": [{"file": "prog.c", "line": 9}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(10), "{v}");
    assert!(v.contains("prog.c:9 (moved to line 10)"), "{v}");
    let b = agent
        .ok("breakpoint_set", json!({"file": "prog.c", "line": 7}))
        .await;
    assert!(
        b.contains("moved to line") || b.contains("unverified"),
        "where it bound, or that it did not: {b}"
    );
    assert!(!b.contains("line 0"), "{b}");
    agent.close().await;
}
