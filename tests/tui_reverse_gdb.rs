//! Going back in the terminal UI on gdb: C-r records, N steps back over,
//! C continues backwards, F steps back out, and the status bar shows REC.

mod common;

use common::native::*;
use common::tmux::{Tmux, current_line};
use common::*;

const PROGRAM: &str = r#"int add(int a, int b) {
    int s = a + b;
    return s;
}

int main(void) {
    int x = 1;
    x = 42;
    int y = add(x, 2);
    return y == 0;
}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_records_and_steps_back_with_its_keys() {
    if !gdb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("back.c", PROGRAM)]);
    build_c(&ws.path().join("back.c"), &ws.path().join("back"));
    let t = Tmux::start(
        "reverse",
        ws.path(),
        &["--adapter", "gdb", "--break", "back.c:8", "--", "./back"],
    );
    t.wait_for("the breakpoint stop", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(8)
    })
    .await;
    // Before recording, a move back says why it cannot.
    t.keys(&["N"]);
    t.wait_for("the refusal", |s| {
        s.contains("cannot go back: no: not recording")
    })
    .await;
    t.keys(&["C-r"]);
    t.wait_for("REC in the status bar", |s| s.contains("REC"))
        .await;
    t.keys(&["n"]);
    let s = t
        .wait_for("the step past the write", |s| {
            current_line(s) == Some(9) && s.contains("stopped: step")
        })
        .await;
    assert!(has_local(&s, "x", "42"), "{s}");
    t.keys(&["N"]);
    let s = t
        .wait_for("the step back over the write", |s| {
            current_line(s) == Some(8)
        })
        .await;
    eprintln!("{s}");
    assert!(has_local(&s, "x", "1"), "the value before the write: {s}");
    assert!(s.contains("REC"), "{s}");
    // Into add, then back out to the call.
    t.keys(&["n"]);
    t.wait_for("line 9", |s| current_line(s) == Some(9)).await;
    t.keys(&["s"]);
    t.wait_for("inside add", |s| current_line(s) == Some(2))
        .await;
    t.keys(&["F"]);
    let s = t
        .wait_for("back out at the call", |s| current_line(s) == Some(9))
        .await;
    assert!(s.contains("main"), "{s}");
    // Continue backwards: to the breakpoint where recording began.
    t.keys(&["C"]);
    t.wait_for("back at the breakpoint", |s| current_line(s) == Some(8))
        .await;
    t.keys(&["q", "y"]);
}

/// Whether the variables pane shows `name` with `value` on one row.
fn has_local(screen: &str, name: &str, value: &str) -> bool {
    screen.lines().any(|l| {
        let words: Vec<&str> = l
            .split(|c: char| c.is_whitespace() || c == '│')
            .filter(|w| !w.is_empty())
            .collect();
        words
            .windows(3)
            .any(|w| w[0] == name && w[1] == "=" && w[2] == value)
            || words.windows(2).any(|w| w[0] == name && w[1] == value)
    })
}
