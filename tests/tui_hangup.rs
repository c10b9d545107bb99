//! The terminal going away under the TUI, on a pseudo-terminal the test
//! holds: a closed terminal ends pairdbg with 129, and a UI stuck writing
//! to its terminal is ended by the hang-up watch; no adapter or program
//! outlives either.

mod common;

use std::time::Duration;

use common::pty::Pty;
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_terminal_ends_pairdbg_with_129_and_everything_it_started() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", ADD_PROGRAM)]);
    let state = tempfile::tempdir().expect("state dir");
    let mut t = Pty::start(
        ws.path(),
        &[("XDG_STATE_HOME", state.path())],
        &["--", "prog.py"],
    );
    t.wait_for_text("stopped: entry").await;
    let tree = descendants(t.child.id());
    assert!(tree.len() >= 2, "the adapter and the program: {tree:?}");
    // A closed terminal cannot be read back: only the exit and the
    // processes can be checked.
    t.hang_up();
    let status = t.wait_exit(Duration::from_secs(15)).await;
    assert_eq!(
        status.and_then(|s| s.code()),
        Some(129),
        "a hang-up's exit status, not a signal: {status:?}"
    );
    let left = wait_dead(&tree, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "survivors: {left:?}");
}

/// The main thread's kernel wait.
fn main_thread_wait(pid: u32) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/wchan")).unwrap_or_default()
}

/// Whether the UI's thread waits for room to write to the terminal
/// (`wait_woken` inside the tty's write, named by older kernels).
fn waits_on_the_terminal(pid: u32) -> bool {
    matches!(main_thread_wait(pid).trim(), "wait_woken" | "n_tty_write")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ui_stuck_on_its_terminal_is_ended_by_the_hang_up_watch() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", ADD_PROGRAM)]);
    let state = tempfile::tempdir().expect("state dir");
    let log = state.path().join("pairdbg.log");
    let mut t = Pty::start(
        ws.path(),
        &[("XDG_STATE_HOME", state.path()), ("PAIRDBG_LOG", &log)],
        &["--", "prog.py"],
    );
    t.wait_for_text("stopped: entry").await;
    assert_eq!(t.local_modes() & libc::ICANON, 0, "the UI runs in raw mode");
    let pid = t.child.id();
    let tree = descendants(pid);
    // Nobody reads the terminal any more, and each `z` redraws most of the
    // screen: the UI's writes fill the terminal and its thread waits there,
    // where no signal reaches its loop.
    t.send(&[b'z'; 400]);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while !waits_on_the_terminal(pid) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the UI never blocked on its terminal: {}",
            main_thread_wait(pid)
        );
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
    // SAFETY: signalling a process this test started.
    unsafe { libc::kill(pid as i32, libc::SIGHUP) };
    let status = t.wait_exit(Duration::from_secs(20)).await;
    assert_eq!(status.and_then(|s| s.code()), Some(129), "{status:?}");
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        logged.contains("the terminal hung up and the UI did not end"),
        "the watch, not the UI, ended it: {logged}"
    );
    let modes = t.local_modes();
    assert!(
        modes & libc::ICANON != 0 && modes & libc::ECHO != 0,
        "the terminal is left in raw mode: {modes:#o}"
    );
    let left = wait_dead(&tree, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "survivors: {left:?}");
}
