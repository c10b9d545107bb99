//! A Python program's worker processes in a real terminal (tmux): stopped
//! at a breakpoint in a worker, the stack pane gives each process a row
//! with its threads, marks the one that stopped, and a click on another
//! worker's thread shows that worker.

mod common;

use std::time::Duration;

use common::tmux::{Tmux, current_line};
use common::workers::{LOOPER, LOOPERS};
use common::*;

/// The stack pane's row for the process named `name`, as (row, text).
fn process_row(screen: &str, name: &str) -> Option<(usize, String)> {
    screen
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(&format!("{name}: ")))
        .map(|(i, l)| (i, l.to_string()))
}

fn marked(screen: &str, name: &str) -> bool {
    process_row(screen, name).is_some_and(|(_, l)| l.contains(&format!("▶ {name}: [1 MainThread]")))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_process_has_a_row_and_a_click_shows_another_worker() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("main.py", LOOPERS), ("looper.py", LOOPER)]);
    let t = Tmux::start(
        "child-threads",
        ws.path(),
        &["--break", "looper.py:5", "--", "main.py"],
    );
    t.wait_for("a worker's stop", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(5)
    })
    .await;
    let workers = pids_matching(&ws.path().join("looper.py").display().to_string());
    assert_eq!(workers.len(), 2, "the two workers: {workers:?}");
    let names: Vec<String> = workers.iter().map(|p| format!("Subprocess {p}")).collect();
    // The normal layout: a row per process, the stopped worker marked.
    let s = t
        .wait_for("each process on its own row", |s| {
            s.lines().any(|l| l.contains("  main (pid "))
                && names.iter().all(|n| process_row(s, n).is_some())
                && names.iter().filter(|n| marked(s, n)).count() == 1
        })
        .await;
    let (first, other) = if marked(&s, &names[0]) {
        (&names[0], &names[1])
    } else {
        (&names[1], &names[0])
    };
    assert!(
        !s.contains("▶ main (pid "),
        "only the stopped worker is marked: {s}"
    );
    // Both workers run into the breakpoint; a click on the other one's
    // thread shows it. Until its stop arrives the click is refused, and a
    // person would click again, as the test does.
    let click = |screen: &str| {
        let (row, line) = process_row(screen, other).expect("the other worker's row");
        let at = line.find(&format!("{other}: ")).unwrap() + other.len() + 2;
        let column = line[..at].chars().count() + 2;
        t.keys(&["-l", &format!("\x1b[<0;{};{}M", column + 1, row + 1)]);
        t.keys(&["-l", &format!("\x1b[<0;{};{}m", column + 1, row + 1)]);
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        click(&t.screen());
        let moved = tokio::time::Instant::now() + Duration::from_secs(2);
        while !marked(&t.screen(), other) && tokio::time::Instant::now() < moved {
            let _ =
                tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
        }
        let s = t.screen();
        if marked(&s, other) {
            assert!(!marked(&s, first), "one worker marked: {s}");
            assert_eq!(current_line(&s), Some(5), "{s}");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the click never showed {other}: {s}"
        );
    }
    t.keys(&["q", "y"]);
    let dir = ws.path().display().to_string();
    let left = wait_gone(&dir, Duration::from_secs(15)).await;
    assert!(left.is_empty(), "processes survive the quit: {left:?}");
}
