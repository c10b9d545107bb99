//! The real binary in a real terminal (tmux) on the Rust demo through
//! lldb-dap, driven as a person would: a breakpoint set with the keyboard,
//! run, step, quit, and nothing left running.

mod common;

use std::time::Duration;

use common::native::*;
use common::tmux::{Tmux, current_line};
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_debugs_the_rust_demo_with_the_keyboard() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[]);
    build_rust_demo(ws.path());
    let t = Tmux::start(
        "rust",
        ws.path(),
        &["--break", "src/main.rs:35", "--", "target/debug/shop"],
    );
    let s = t
        .wait_for("the breakpoint stop", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(35)
        })
        .await;
    assert!(
        s.contains("shop::checkout"),
        "the stack names the frame: {s}"
    );
    assert!(s.contains("Some(\"yes\")"), "Rust values: {s}");
    let pid = t.pane_pid().expect("pane pid");
    let tree = descendants(pid);
    assert!(tree.len() >= 2, "adapter and program: {tree:?}");

    // Cursor two lines down to 37, F9 sets a breakpoint there.
    t.keys(&["j", "j", "F9"]);
    t.wait_for("the breakpoint mark", |s| {
        s.lines().any(|l| l.contains("● 37 ") || l.contains("●37"))
    })
    .await;
    // Step over: the current line moves to 36.
    t.keys(&["n"]);
    t.wait_for("the step", |s| current_line(s) == Some(36))
        .await;
    // Run to the new breakpoint.
    t.keys(&["F5"]);
    t.wait_for("the second breakpoint", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(37)
    })
    .await;

    // The console evaluates in the adapter's own expression language, and a
    // watch shows its value.
    t.keys(&["e", "1 + 2 * 3", "Enter"]);
    t.wait_for("the console answer", |s| s.contains("7  (int)"))
        .await;
    t.keys(&["w"]);
    t.keys(&["-l", "sub - off"]);
    t.keys(&["Enter"]);
    t.wait_for("the watch", |s| {
        s.lines()
            .any(|l| l.contains("sub - off = ") && l.chars().any(|c| c.is_ascii_digit()))
    })
    .await;

    t.keys(&["q", "y"]);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while t.alive() && tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
    assert!(!t.alive(), "q should end pairdbg and so the tmux session");
    assert!(
        wait_dead(&tree, Duration::from_secs(10)).await.is_empty(),
        "no lldb-dap or program survives the quit"
    );
}

/// The variables tree on Rust values: a Vec opens to its elements, read
/// only when opened, and an element to its fields.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_variables_tree_opens_rust_values_lazily() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[]);
    build_rust_demo(ws.path());
    let t = Tmux::start(
        "rusttree",
        ws.path(),
        &["--break", "src/main.rs:35", "--", "target/debug/shop"],
    );
    t.wait_for("the stop with items in the tree", |s| {
        s.contains("stopped: breakpoint") && s.contains("▸ items")
    })
    .await;
    // Focus the variables pane; items is its first row.
    t.keys(&["Tab", "Tab", "Enter"]);
    t.wait_for("the Vec's elements", |s| {
        s.contains("▾ items") && s.contains("[0]") && s.contains("[2]")
    })
    .await;
    t.keys(&["j", "Enter"]);
    t.wait_for("the first element's fields", |s| {
        let s = squash(s);
        s.contains("name = \"widget\"") && s.contains("price = 250") && s.contains("quantity = 2")
    })
    .await;
    // Enter again folds it.
    t.keys(&["Enter"]);
    t.wait_for("the element folded", |s| !squash(s).contains("price = 250"))
        .await;
    t.keys(&["q", "y"]);
}
