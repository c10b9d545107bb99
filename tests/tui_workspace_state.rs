//! What pairdbg remembers per workspace, in a real terminal: a breakpoint
//! with its condition and a watch, set by keys, are there at the next start
//! and the program stops at the breakpoint; kept out of the workspace.

mod common;

use std::time::Duration;

use common::native::*;
use common::tmux::{Tmux, current_line};
use common::*;

const PROGRAM: &str = "total = 0\nfor i in range(5):\n    total += i\nprint(total)\n";

async fn wait_gone(t: &Tmux) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while t.alive() && tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
    assert!(!t.alive(), "q ends pairdbg");
}

fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn ticked(screen: &str) -> usize {
    screen.matches('☑').count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn breakpoints_filters_watches_and_layout_are_there_at_the_next_start() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("app.py", PROGRAM)]);
    let state = tempfile::tempdir().unwrap();
    let before = files_in(ws.path());

    let t = Tmux::start_with_state("persist1", ws.path(), state.path(), &["--", "app.py"]);
    t.wait_for("the entry stop", |s| current_line(s) == Some(1))
        .await;
    // Breakpoints on lines 3 and 4.
    t.keys(&["j", "j", "b", "j", "b"]);
    t.wait_for("the breakpoint marks", |s| {
        squash(s).contains("app.py:3") && squash(s).contains("app.py:4")
    })
    .await;
    t.keys(&["w"]);
    t.keys(&["-l", "total * 10"]);
    t.keys(&["Enter"]);
    t.wait_for("the watch", |s| squash(s).contains("total * 10"))
        .await;
    // The breakpoints pane (from the console, where the watch prompt left
    // the focus), zoomed so every entry shows.
    t.keys(&["Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "z"]);
    t.wait_for("the zoomed breakpoints", |s| {
        !s.contains("call stack") && s.contains("Uncaught Exceptions")
    })
    .await;
    // A condition on the first breakpoint, the second off.
    t.keys(&["i"]);
    t.keys(&["-l", "i == 3"]);
    t.keys(&["Enter"]);
    t.wait_for("the condition", |s| squash(s).contains("if i == 3"))
        .await;
    t.keys(&["j", "Space"]);
    t.wait_for("the second switched off", |s| s.contains("(off)"))
        .await;
    // The second exception filter turned over.
    let filters_before = ticked(&t.screen());
    t.keys(&["j", "j", "Space"]);
    let s = t
        .wait_for("the filter turned over", |s| ticked(s) != filters_before)
        .await;
    let filters_after = ticked(&s);
    t.keys(&["q", "y"]);
    wait_gone(&t).await;

    let t = Tmux::start_with_state("persist2", ws.path(), state.path(), &["--", "app.py"]);
    let s = t
        .wait_for("the stop, with the breakpoints pane still zoomed", |s| {
            s.contains("stopped: breakpoint") && !s.contains("call stack")
        })
        .await;
    let flat = squash(&s);
    assert!(flat.contains("if i == 3"), "the condition is back: {s}");
    assert!(s.contains("(off)"), "the second is still off: {s}");
    assert_eq!(ticked(&s), filters_after, "the filters as left: {s}");
    t.keys(&["z"]);
    // 0 + 1 + 2 by the time i is 3: the condition held.
    let s = t
        .wait_for("the source and the watch's value", |s| {
            current_line(s) == Some(3) && squash(s).contains("total * 10 = 30")
        })
        .await;
    assert!(squash(&s).contains("i = 3"), "stopped where i == 3: {s}");
    t.keys(&["q", "y"]);
    wait_gone(&t).await;

    assert_eq!(
        files_in(ws.path()),
        before,
        "nothing is written into the workspace"
    );
    let saved = state.path().join("pairdbg/workspaces");
    assert_eq!(files_in(&saved).len(), 1, "one file for the workspace");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_native_programs_breakpoint_and_watch_come_back() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[]);
    build_c_demo(ws.path());
    let state = tempfile::tempdir().unwrap();
    let t = Tmux::start_with_state(
        "persistc1",
        ws.path(),
        state.path(),
        &["--break", "inventory.c:22", "--", "./inventory"],
    );
    t.wait_for("the breakpoint stop", |s| current_line(s) == Some(22))
        .await;
    t.keys(&["w"]);
    t.keys(&["-l", "it->stock"]);
    t.keys(&["Enter"]);
    t.wait_for("the watch", |s| squash(s).contains("it->stock = 12"))
        .await;
    t.keys(&["q", "y"]);
    wait_gone(&t).await;

    // No --break this time: the saved one stops the program.
    let t = Tmux::start_with_state("persistc2", ws.path(), state.path(), &["--", "./inventory"]);
    t.wait_for("the restored breakpoint and watch", |s| {
        s.contains("stopped: breakpoint")
            && current_line(s) == Some(22)
            && squash(s).contains("it->stock = 12")
    })
    .await;
    t.keys(&["q", "y"]);
    wait_gone(&t).await;
}
