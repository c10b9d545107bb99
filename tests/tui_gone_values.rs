//! A value left open in the variables pane that a step removed: its row
//! closes and the status bar says in plain words that it is gone, never
//! the read's internal error. In the real binary in a real terminal (tmux).

mod common;

use common::tmux::{Tmux, current_line};
use common::*;

const GONE: &str = "\
data = {'k': [1, 2]}
del data
done = 1
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_value_a_step_removed_closes_and_says_it_is_gone() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("gone.py", GONE)]);
    let t = Tmux::start(
        "gone",
        ws.path(),
        &["--break", "gone.py:2", "--", "gone.py"],
    );
    t.wait_for("the stop", |s| s.contains("▸ data")).await;
    t.keys(&["Tab", "Tab", "Enter"]);
    t.wait_for("data open", |s| s.contains("▾ data") && s.contains("'k'"))
        .await;
    t.keys(&["n"]);
    let s = t
        .wait_for("the step and the closed row", |s| {
            current_line(s) == Some(3) && s.contains("data is gone since the last stop")
        })
        .await;
    assert!(!s.contains("does not exist"), "{s}");
    assert!(!s.contains("expand:"), "{s}");
    assert!(!s.contains("▾ data"), "{s}");
    t.keys(&["q", "y"]);
}
