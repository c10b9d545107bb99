//! The mcp-debugger profile pairs as the default tools do: its client
//! joins a TUI, drives the person's session and starts its own, and the
//! person sees both on screen.

mod common;

use std::time::Duration;

use common::profile::{profile_in, var};
use common::tmux::{Tmux, current_line};
use common::*;
use serde_json::json;

const PROG: &str = "\
def total(prices):
    subtotal = 0
    for p in prices:
        subtotal += p
    return subtotal


print(total([3, 4, 5]))
";

const OTHER: &str = "\
value = 41
value += 1
print(value)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_of_the_profile_pairs_with_the_person() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG), ("other.py", OTHER)]);
    let t = Tmux::start(
        "profile",
        ws.path(),
        &["--break", "prog.py:2", "--", "prog.py"],
    );
    t.wait_for("the first stop", |s| {
        s.contains("stopped: breakpoint") && s.contains("MCP 127.0.0.1:")
    })
    .await;
    let tree = descendants(t.pane_pid().expect("pane"));

    // The person's session is listed by its pairdbg id, and can be driven.
    let c = profile_in(ws.path(), &[]).await;
    let listed = c.ok("list_debug_sessions", json!({})).await;
    let theirs = &listed["sessions"][0];
    assert_eq!(
        (&theirs["id"], &theirs["state"]),
        (&json!("s1"), &json!("paused")),
        "{listed}"
    );
    c.ok("step_over", json!({"sessionId": "s1"})).await;
    t.wait_for("the client's step on screen", |s| {
        current_line(s) == Some(3)
    })
    .await;
    t.wait_for("the call in the activity pane", |s| {
        s.contains("mcp-debugger step_over")
    })
    .await;

    // A session the client makes shows in the TUI.
    let id = c
        .ok("create_debug_session", json!({"language": "python"}))
        .await["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    c.ok(
        "set_breakpoint",
        json!({"sessionId": id, "file": "other.py", "line": 2}),
    )
    .await;
    let started = c
        .ok(
            "start_debugging",
            json!({"sessionId": id, "scriptPath": "other.py"}),
        )
        .await;
    assert_eq!(started["state"], json!("paused"), "{started}");
    let s = t
        .wait_for("the client's program on screen", |s| {
            s.contains("now showing session s2") && current_line(s) == Some(2)
        })
        .await;
    assert!(s.contains("value = 41"), "its locals show: {s}");
    let locals = c.ok("get_local_variables", json!({"sessionId": id})).await;
    assert_eq!(var(&locals, "value")["value"], json!("41"), "{locals}");

    c.ok("close_debug_session", json!({"sessionId": id})).await;
    c.close().await;
    t.keys(&["q", "y"]);
    let left = wait_dead(&tree, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "survivors: {left:?}");
}
