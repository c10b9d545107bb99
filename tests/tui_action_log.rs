//! The person's moves in the agent's action log: the person steps and sets
//! a breakpoint with keys in the TUI, the agent joins through `pairdbg mcp`
//! and makes many calls of its own, and `debug_action_log` still lists the
//! person's actions by name, in order among the agent's calls.

mod common;

use common::tmux::{Tmux, current_line};
use common::*;
use serde_json::json;

const PROG: &str = "\
total = 0
for i in range(100):
    total += i
print(total)
";

/// Enough agent moves that the person's first ones are far behind.
const AGENT_CONTINUES: usize = 25;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_persons_keys_stay_in_the_agents_action_log() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start(
        "actionlog",
        ws.path(),
        &["--break", "prog.py:1", "--", "prog.py"],
    );
    t.wait_for("the first stop", |s| {
        s.contains("stopped: breakpoint") && s.contains("MCP 127.0.0.1:")
    })
    .await;
    let agent = mcp_in(ws.path()).await;
    let v = agent.ok("debug_status", json!({})).await;
    assert_eq!(stopped_line(&v), Some(1), "{v}");

    // The person steps twice and sets a breakpoint in the loop with keys.
    t.keys(&["n"]);
    t.wait_for("the person's first step", |s| current_line(s) == Some(2))
        .await;
    t.keys(&["n"]);
    t.wait_for("the person's second step", |s| current_line(s) == Some(3))
        .await;
    t.keys(&["b"]);
    t.wait_for("the person's breakpoint", |s| s.contains("prog.py:3"))
        .await;

    for n in 0..AGENT_CONTINUES {
        let v = agent.ok("debug_continue", json!({})).await;
        assert_eq!(stopped_line(&v), Some(3), "continue {n}: {v}");
    }
    let log = agent.ok("debug_action_log", json!({})).await;
    let lines: Vec<&str> = log.lines().collect();
    let at = |needle: &str| {
        lines
            .iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no {needle:?} in the log:\n{log}"))
    };
    let first_step = at("person: the person stepped over");
    let second_step = first_step
        + 1
        + lines[first_step + 1..]
            .iter()
            .position(|l| l.contains("person: the person stepped over"))
            .unwrap_or_else(|| panic!("one step only:\n{log}"));
    let breakpoint = at("person: the person set a breakpoint at prog.py:3");
    let first_continue = at("debug_continue");
    assert!(
        at("debug_status") < first_step
            && first_step < second_step
            && second_step < breakpoint
            && breakpoint < first_continue,
        "the person's actions in order among the agent's calls:\n{log}"
    );
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("debug_continue"))
            .count(),
        AGENT_CONTINUES,
        "{log}"
    );
    assert!(log.contains("3 person actions"), "{log}");
    agent.close().await;
}
