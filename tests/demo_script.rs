//! `scripts/demo` in a real terminal (tmux): while it builds, the screen
//! says so and shows cargo's own progress, never a blank screen.

mod common;

use std::time::Duration;

use common::tmux::Tmux;
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_script_shows_the_build_while_it_builds() {
    if !Tmux::available() {
        return;
    }
    // An empty target directory makes the build real work from its first
    // crate on; seeing that work start is the point, so the test ends the
    // build there rather than wait minutes for it.
    let target = tempfile::tempdir().expect("target dir");
    let t = Tmux::run(
        "demo-build",
        &repo_root(),
        &format!("CARGO_TARGET_DIR={} scripts/demo", target.path().display()),
    );
    let s = t
        .wait_for("cargo compiling under the script's line", |s| {
            s.contains("Building pairdbg (release)…")
                && s.lines().any(|l| l.trim_start().starts_with("Compiling "))
        })
        .await;
    assert!(!s.contains("call stack"), "no UI yet: {s}");
    let tree = descendants(t.pane_pid().expect("pane pid"));
    drop(t);
    let left = wait_dead(&tree, Duration::from_secs(10)).await;
    assert!(
        left.is_empty(),
        "the build ends with its terminal: {left:?}"
    );
}
