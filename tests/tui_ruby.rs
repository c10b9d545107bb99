//! The TUI on a Ruby program in a real terminal (tmux): the stop shows the
//! source at the current line and a local read by rdbg, a step moves the
//! line, and a quit leaves neither rdbg nor the program behind; Ctrl-R
//! records and N steps back.

mod common;

use std::time::Duration;

use common::tmux::{Tmux, current_line};
use common::*;

const PROG: &str = r#"def add(a, b)
  total = a + b
  total
end

x = add(1, 2)
y = add(x, 10)
puts "result #{y}"
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_debugs_a_ruby_program_from_the_keyboard() {
    if !ruby_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("add.rb", PROG)]);
    let t = Tmux::start(
        "ruby-keys",
        ws.path(),
        &["--break", "add.rb:7", "--", "add.rb"],
    );
    let s = t
        .wait_for("the breakpoint", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(7)
        })
        .await;
    assert!(s.contains("y = add(x, 10)"), "the source line: {s}");
    assert!(s.contains("x = 3"), "the local: {s}");
    let pid = t.pane_pid().expect("pane pid");

    // Step over: the line moves to 8 and y appears.
    t.keys(&["n"]);
    t.wait_for("the step", |s| {
        current_line(s) == Some(8) && s.contains("y = 13")
    })
    .await;

    let tree = descendants(pid);
    assert!(
        tree.iter()
            .any(|p| comm(*p).is_some_and(|c| c.starts_with("ruby"))),
        "the program runs under pairdbg: {tree:?}"
    );
    t.keys(&["q", "y"]);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while t.alive() && tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
    assert!(!t.alive(), "q should end pairdbg and so the tmux session");
    assert!(
        wait_dead(&tree, Duration::from_secs(10)).await.is_empty(),
        "no process survives the quit: {tree:?}"
    );
}

const STRAIGHT: &str = r#"x = 1 + 2
y = x + 10
z = y * 2
puts "result #{z}"
"#;

/// Ctrl-R records on rdbg too, and N steps back a line with the locals as
/// they were.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_steps_a_ruby_program_back() {
    if !ruby_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("straight.rb", STRAIGHT)]);
    let t = Tmux::start(
        "ruby-back",
        ws.path(),
        &["--break", "straight.rb:2", "--", "straight.rb"],
    );
    t.wait_for("the breakpoint", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(2)
    })
    .await;
    t.keys(&["C-r"]);
    t.wait_for("REC in the status bar", |s| s.contains("REC"))
        .await;
    t.keys(&["n"]);
    t.wait_for("line 3", |s| {
        current_line(s) == Some(3) && s.contains("y = 13")
    })
    .await;
    t.keys(&["n"]);
    t.wait_for("line 4", |s| {
        current_line(s) == Some(4) && s.contains("z = 26")
    })
    .await;
    t.keys(&["N"]);
    let s = t
        .wait_for("the step back", |s| {
            current_line(s) == Some(3) && s.contains("z = nil")
        })
        .await;
    assert!(s.contains("y = 13"), "{s}");
    t.keys(&["q", "y"]);
}
