//! A Python program's worker processes in a real terminal (tmux): stopped
//! at a breakpoint in a worker, the stack pane's threads row lists every
//! process's threads under the process's name.

mod common;

use std::time::Duration;

use common::tmux::{Tmux, current_line};
use common::workers::{LOOPER, LOOPERS};
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_threads_row_lists_each_process_by_name() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("main.py", LOOPERS), ("looper.py", LOOPER)]);
    let t = Tmux::start(
        "child-threads",
        ws.path(),
        &["--break", "looper.py:5", "--", "main.py"],
    );
    let s = t
        .wait_for("a worker's stop", |s| {
            s.contains("stopped: breakpoint")
                && current_line(s) == Some(5)
                && s.contains("threads:")
        })
        .await;
    assert!(s.contains("threads: "), "{s}");
    let workers = pids_matching(&ws.path().join("looper.py").display().to_string());
    assert_eq!(workers.len(), 2, "the two workers: {workers:?}");
    // The stack pane, zoomed: the whole threads row in view.
    t.keys(&["Tab", "z"]);
    let s = t
        .wait_for("each process's thread by name", |s| {
            let row = s
                .lines()
                .find(|l| l.contains("threads: "))
                .unwrap_or_default();
            row.contains("MainThread in main (pid ")
                && workers
                    .iter()
                    .all(|p| row.contains(&format!("MainThread in Subprocess {p}")))
        })
        .await;
    // The stopped worker's thread is the one marked.
    assert!(s.contains("[1 MainThread in Subprocess "), "{s}");
    t.keys(&["q", "y"]);
    let dir = ws.path().display().to_string();
    let left = wait_gone(&dir, Duration::from_secs(15)).await;
    assert!(left.is_empty(), "processes survive the quit: {left:?}");
}
