//! A past session opened in the real binary in tmux: `J` lists the
//! workspace's journals, and the one chosen opens read-only in the history
//! view, its stops' source, stack and locals, moved through with ←/→;
//! Esc comes back to the live session.

mod common;

use std::path::Path;

use common::tmux::{Tmux, current_line};
use common::*;
use serde_json::json;

const PROG: &str = "\
import sys


def build():
    parts = ['a', '']
    if len(sys.argv) > 1:
        parts[1] = str(167)
    return parts


def main():
    parts = build()
    total = len(parts[1])
    if total:
        print('long total', total)
    return total


main()
";

/// The variables pane's row for `name`, not the source's inline values.
fn var_row(screen: &str, name: &str) -> Option<String> {
    screen.lines().find_map(|l| {
        let at = ["│  ", "│▸ ", "│▾ "]
            .iter()
            .find_map(|p| l.find(&format!("{p}{name} ")))?;
        Some(l[at..].to_string())
    })
}

/// A run of prog.py with an argument, recorded through MCP: it stops at
/// lines 8, 15 and 16.
async fn record_past_run(ws: &Path, state: &Path) {
    let mcp = mcp_with_env(ws, &[], &[("XDG_STATE_HOME", state)]).await;
    let bps: Vec<_> = [8, 15, 16]
        .iter()
        .map(|l| json!({"file": "prog.py", "line": l}))
        .collect();
    mcp.ok(
        "debug_launch",
        json!({"program": "prog.py", "args": ["more"], "breakpoints": bps}),
    )
    .await;
    for _ in 0..3 {
        mcp.ok("debug_continue", json!({})).await;
    }
    mcp.ok("debug_journal", json!({})).await;
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_person_opens_a_past_sessions_stops_read_only() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let state = tempfile::tempdir().expect("state dir");
    record_past_run(ws.path(), state.path()).await;
    let t = Tmux::start_with_state(
        "past",
        ws.path(),
        state.path(),
        &["--break", "prog.py:13", "--", "prog.py"],
    );
    t.wait_for("the live stop", |s| {
        current_line(s) == Some(13) && var_row(s, "parts").is_some_and(|r| r.contains("\"\"]"))
    })
    .await;
    t.keys(&["J"]);
    let s = t
        .wait_for("the journals listed", |s| s.contains("past sessions (2)"))
        .await;
    assert!(
        s.contains("prog.py more  ·  exited with code 0  ·  3 stops"),
        "{s}"
    );
    // The live session's own journal is listed too, still open.
    assert!(s.contains("prog.py  ·  open (no end recorded yet"), "{s}");
    t.keys(&["-l", "more"]);
    t.wait_for("the list filtered", |s| s.contains("past sessions (1)"))
        .await;
    t.keys(&["Enter"]);
    let s = t
        .wait_for("the past stop 1", |s| s.contains("stop 1 of 3 (read-only)"))
        .await;
    assert!(s.contains("past session s1 of"), "{s}");
    assert_eq!(current_line(&s), Some(8), "{s}");
    assert!(
        var_row(&s, "parts").is_some_and(|r| r.contains("\"167\"]")),
        "the past run's value, not the live one's: {s}"
    );
    // The stack is the past stop's: build called from main's line 12.
    assert!(s.contains("prog.py:12"), "{s}");
    t.keys(&["Right"]);
    let s = t
        .wait_for("the past stop 2", |s| s.contains("stop 2 of 3 (read-only)"))
        .await;
    assert_eq!(current_line(&s), Some(15), "{s}");
    assert!(
        var_row(&s, "total").is_some_and(|r| r.contains("= 3")),
        "{s}"
    );
    t.keys(&["Right"]);
    t.wait_for("the past stop 3", |s| s.contains("stop 3 of 3 (read-only)"))
        .await;
    t.keys(&["Right"]);
    t.wait_for("the end said", |s| s.contains("the session's last stop"))
        .await;
    // Read-only: a step key moves nothing.
    t.keys(&["n"]);
    t.wait_for("the refusal", |s| s.contains("read-only: Esc goes back"))
        .await;
    t.keys(&["Escape"]);
    let s = t
        .wait_for("the live stop again", |s| {
            !s.contains("read-only") && current_line(s) == Some(13)
        })
        .await;
    assert!(
        var_row(&s, "parts").is_some_and(|r| r.contains("\"\"]")),
        "{s}"
    );
    t.keys(&["q", "y"]);
}
