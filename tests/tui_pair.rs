//! Pair debugging: the TUI runs in a terminal, and a real MCP client joins
//! its live session through `pairdbg mcp`, as an agent would.

mod common;

use std::time::Duration;

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agent_joins_the_persons_session() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start(
        "pair",
        ws.path(),
        &["--break", "prog.py:2", "--", "prog.py"],
    );
    t.wait_for("the first stop", |s| {
        s.contains("stopped: breakpoint") && s.contains("MCP 127.0.0.1:")
    })
    .await;
    let tree = descendants(t.pane_pid().expect("pane"));

    // The agent's usual command joins the running TUI instead of starting anew.
    let agent = mcp_in(ws.path()).await;
    let v = agent.ok("debug_status", json!({})).await;
    assert!(v.contains("── STOPPED at prog.py:2 (total) ──"), "{v}");

    // The agent steps: the person's screen moves, and the call shows.
    let v = agent.ok("debug_step", json!({})).await;
    assert_eq!(stopped_line(&v), Some(3), "{v}");
    t.wait_for("the agent's step on screen", |s| current_line(s) == Some(3))
        .await;
    t.wait_for("the call in the activity pane", |s| {
        s.contains("step  → STOPPED at prog.py:3")
    })
    .await;
    agent
        .ok("debug_note", json!({"text": "watching subtotal grow"}))
        .await;
    t.wait_for("the agent's note", |s| {
        s.contains("✎ watching subtotal grow")
    })
    .await;

    // The person takes the wheel: the agent may read, not move.
    t.keys(&["T"]);
    t.wait_for("person-only mode", |s| s.contains("drives: person only"))
        .await;
    let refused = agent.fails("debug_step", json!({})).await;
    assert!(
        refused.contains("the person has taken control")
            && refused.contains("T in the terminal UI"),
        "{refused}"
    );
    // The change of control is session state: the agent's next result says so.
    let e = agent
        .ok("debug_evaluate", json!({"expression": "subtotal"}))
        .await;
    assert!(
        e.starts_with("Since your last call") && e.contains("the person took control"),
        "{e}"
    );
    assert!(e.contains("\nsubtotal = 0"), "{e}");

    // The person steps twice and hands back; the agent hears why the epoch moved.
    t.keys(&["n"]);
    t.wait_for("the person's first step", |s| current_line(s) == Some(4))
        .await;
    t.keys(&["n"]);
    t.wait_for("the person's second step", |s| current_line(s) == Some(3))
        .await;
    t.keys(&["T"]);
    t.wait_for("shared mode", |s| s.contains("drives: person + agent"))
        .await;

    // A note from the person reaches the agent's next viewport.
    t.keys(&["a", "check the loop bound", "Enter"]);
    t.wait_for("the note sent", |s| s.contains("note sent"))
        .await;
    let v = agent.ok("debug_status", json!({})).await;
    assert!(
        v.contains("Since your last call")
            && v.contains("the person stepped over (2 times)")
            && v.contains("the person handed control back"),
        "{v}"
    );
    assert!(v.contains("Human notes:\n  - check the loop bound"), "{v}");
    // Once seen, a note is not repeated.
    let v = agent.ok("debug_status", json!({})).await;
    assert!(!v.contains("check the loop bound"), "{v}");

    agent.close().await;
    t.keys(&["q", "y"]);
    let left = wait_dead(&tree, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "survivors: {left:?}");
}

const OTHER: &str = "\
value = 41
value += 1
print(value)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_shows_a_program_the_agent_launches() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG), ("other.py", OTHER)]);
    let t = Tmux::start(
        "follow",
        ws.path(),
        &["--break", "prog.py:2", "--", "prog.py"],
    );
    t.wait_for("the first stop", |s| {
        s.contains("stopped: breakpoint") && s.contains("MCP 127.0.0.1:")
    })
    .await;
    let agent = mcp_in(ws.path()).await;
    let v = agent
        .ok(
            "debug_launch",
            json!({"program": "other.py", "breakpoints": [{"file": "other.py", "line": 2}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at other.py:2"), "{v}");
    let s = t
        .wait_for("the agent's program on screen", |s| {
            s.contains("now showing session s2") && current_line(s) == Some(2)
        })
        .await;
    assert!(s.contains("value = 41"), "its locals show: {s}");
    agent.ok("debug_step", json!({})).await;
    t.wait_for("the agent's step", |s| {
        current_line(s) == Some(3) && s.contains("value = 42")
    })
    .await;
    assert!(
        t.screen().contains("session s2 of 2 (S switches)"),
        "the status bar counts the sessions: {}",
        t.screen()
    );

    // The person goes back to their own program, where they left it; the
    // agent's next call without a session id follows them there.
    t.keys(&["S"]);
    let s = t
        .wait_for("the person's session again", |s| {
            s.contains("now showing session s1")
                && s.contains("session s1 of 2")
                && current_line(s) == Some(2)
        })
        .await;
    assert!(s.contains("prices = [3, 4, 5]"), "{s}");
    let v = agent.ok("debug_status", json!({})).await;
    assert!(
        v.contains("[session s1 ") && v.contains("── STOPPED at prog.py:2"),
        "{v}"
    );
    assert!(
        v.starts_with(
            "This result is about session s1 (prog.py); your previous one was about session s2."
        ),
        "the agent is told the session changed under it: {v}"
    );
    // And forth again.
    t.keys(&["S"]);
    t.wait_for("the agent's session again", |s| {
        s.contains("session s2 of 2") && current_line(s) == Some(3)
    })
    .await;
    // Both programs and their adapters run under the TUI; quitting ends all.
    let tree = descendants(t.pane_pid().expect("pane"));
    let programs = tree
        .iter()
        .filter(|p| {
            std::fs::read_to_string(format!("/proc/{p}/cmdline"))
                .is_ok_and(|c| c.contains("prog.py") || c.contains("other.py"))
        })
        .count();
    assert!(programs >= 2, "both sessions' processes: {tree:?}");
    agent.close().await;
    t.keys(&["q", "y"]);
    assert!(
        wait_dead(&tree, Duration::from_secs(10)).await.is_empty(),
        "no process of either session survives the quit"
    );
}

/// An agent joining the person's session through `pairdbg mcp` is pushed
/// what a direct client is: hits, state changes and resource updates.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_joined_agent_is_pushed_hits_and_reads_resources() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start(
        "pairpush",
        ws.path(),
        &["--break", "prog.py:4", "--", "prog.py"],
    );
    t.wait_for("the first stop", |s| {
        s.contains("stopped: breakpoint") && s.contains("MCP 127.0.0.1:")
    })
    .await;
    let agent = common::listener::listen_in(ws.path(), &[]).await;
    let list = agent.client.list_resources(None).await.expect("resources");
    assert!(
        list.resources
            .iter()
            .any(|r| r.uri == "debugger://session/s1"),
        "{list:?}"
    );
    #[allow(deprecated)]
    agent
        .client
        .subscribe(rmcp::model::SubscribeRequestParams::new(
            "debugger://session/s1",
        ))
        .await
        .expect("subscribe through the proxy");
    let mark = agent.pushed.mark();
    // The person continues; the agent hears of the next hit.
    t.keys(&["c"]);
    let hit = agent
        .pushed
        .custom(mark, "debugger/breakpointHit", |p| p["hitCount"] == 2)
        .await;
    assert_eq!(hit["location"]["line"], 4, "{hit}");
    agent
        .pushed
        .custom(mark, "debugger/sessionStateChanged", |p| {
            p["state"] == "stopped"
        })
        .await;
    agent
        .pushed
        .wait_for(mark, 30, "the viewport's update", |p| {
            matches!(p, common::listener::Pushed::ResourceUpdated(u) if u == "debugger://session/s1")
        })
        .await;
    agent.close().await;
}
