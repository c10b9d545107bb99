//! `pairdbg --attach PID` in a real terminal (tmux): the TUI attaches to a
//! running C program, stops it at a breakpoint given on the command line,
//! and on quit detaches, leaving the program running.

mod common;

use std::time::Duration;

use common::native::{lldb_available, start_looper};
use common::tmux::{Tmux, current_line};
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_attaches_to_a_running_program_and_leaves_it_running() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[]);
    let mut target = start_looper(ws.path());
    let pid = target.0.id();
    let pid_text = pid.to_string();

    // The language is told from the process's program.
    let t = Tmux::start(
        "attach",
        ws.path(),
        &["--attach", &pid_text, "--break", "looper.c:4"],
    );
    let s = t
        .wait_for("the breakpoint in the attached program", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(4)
        })
        .await;
    assert!(s.contains("tick"), "the stack names the frame: {s}");
    let adapter = descendants(t.pane_pid().expect("pane pid"));
    assert!(!adapter.is_empty(), "the adapter runs under pairdbg");

    t.keys(&["q", "y"]);
    let left = wait_dead(&adapter, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "adapter processes left: {left:?}");
    // Detached, not killed and not left stopped.
    let running = |pid: u32| stat(pid).is_some_and(|(_, state)| matches!(state, 'R' | 'S' | 'D'));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !running(pid) && std::time::Instant::now() < deadline {
        tokio::task::yield_now().await;
    }
    assert!(running(pid), "the attached program: {:?}", stat(pid));
    assert!(
        target.0.try_wait().expect("wait").is_none(),
        "the attached program exited"
    );
}
