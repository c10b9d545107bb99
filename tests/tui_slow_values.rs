//! Opening a value whose children take longer than the read deadline, in
//! the real binary in tmux on real debugpy: the row says it is loading, Esc
//! gives up on it, and the program still steps. No python process outlives
//! the TUI.

mod common;

use common::tmux::{Tmux, current_line};
use common::*;

/// Reading `box`'s children computes `slow`'s repr, which takes 5 s. The
/// program blocks SIGALRM, so pairdbg's deadline on a Python repr cannot
/// cut it short: the read itself stays slow, as on an adapter with no such
/// deadline.
const PROG: &str = "\
import signal, time; signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})


class Slow:
    def __repr__(self):
        time.sleep(5)
        return 'Slow()'


class Box:
    def __init__(self):
        self.slow = Slow()


def main():
    box = Box()
    n = 1
    n = 2
    return n


main()
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opening_a_slow_value_shows_loading_and_esc_gives_up() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("slow.py", PROG)]);
    let t = Tmux::start(
        "slowvalue",
        ws.path(),
        &["--break", "slow.py:18", "--", "slow.py"],
    );
    t.wait_for("the stop with box not read", |s| {
        // The pane and the inline value each cut it to their width.
        current_line(s) == Some(18) && s.contains("box = <not read: the adapter took longer th")
    })
    .await;
    // Source → stack → variables; Enter opens `box`, the only local.
    t.keys(&["Tab", "Tab", "Enter"]);
    t.wait_for("box loading", |s| {
        s.contains("▸ box = …loading (Esc gives up)")
    })
    .await;
    t.keys(&["Escape"]);
    let s = t
        .wait_for("the read given up", |s| s.contains("gave up reading box"))
        .await;
    assert!(!s.contains("…loading"), "{s}");
    t.keys(&["n"]);
    let s = t
        .wait_for("the step", |s| current_line(s) == Some(19))
        .await;
    assert!(!s.contains("▾ box"), "box stays closed once given up: {s}");
    // Read again, it would hold the stop another 5 s, and debugpy answers a
    // slow read by resuming and stopping again: the stop would never settle.
    assert!(
        s.contains("box = <not read: its preview was slow at"),
        "{s}"
    );
    assert!(!s.contains("failed"), "{s}");
    t.keys(&["q", "y"]);
    let program = ws.path().join("slow.py").display().to_string();
    let left = wait_gone(&program, std::time::Duration::from_secs(15)).await;
    assert!(left.is_empty(), "python outlived the TUI: {left:?}");
}
