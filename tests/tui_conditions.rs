//! The real binary in a real terminal (tmux): on a C program through
//! lldb-dap, which stops where a breakpoint's condition fails, the status
//! line says it was the condition's error, not a hit; on Python through
//! debugpy, a condition edited into one that does not compile is refused
//! in the status line and the edit stays open; on Go through delve, which
//! reports a failing condition as an exception stop, the status line says
//! it was the condition's error too.

mod common;

use common::native::*;
use common::tmux::{Tmux, current_line};
use common::*;

const C: &str = "#include <stdio.h>

int main(void) {
    int total = 0;
    for (int i = 0; i < 5; i++) {
        total += i;
    }
    printf(\"%d\\n\", total);
    return 0;
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_condition_is_the_stops_reason() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("loop.c", C)]);
    build_c(&ws.path().join("loop.c"), &ws.path().join("loop"));
    let t = Tmux::start("cond", ws.path(), &["--break", "loop.c:6", "--", "loop"]);
    t.wait_for("the first hit", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(6)
    })
    .await;
    // Focus: source → stack → variables → watch → breakpoints.
    t.keys(&["Tab", "Tab", "Tab", "Tab", "i"]);
    t.keys(&["-l", "nosuch == 3"]);
    t.keys(&["Enter"]);
    t.wait_for("the condition", |s| s.contains("if nosuch == 3"))
        .await;
    t.keys(&["c"]);
    t.wait_for("the condition's error", |s| {
        squash(s)
            .contains("stopped: condition error at loop.c:6: use of undeclared identifier 'nosuch'")
    })
    .await;
    t.keys(&["q", "y"]);
}

const PY: &str = "\
total = 0
for i in range(5):
    total += i
print(total)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_condition_that_does_not_compile_keeps_the_edit_open() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("loop.py", PY)]);
    let t = Tmux::start(
        "pycond",
        ws.path(),
        &["--break", "loop.py:3", "--", "loop.py"],
    );
    t.wait_for("the first hit", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(3)
    })
    .await;
    // Focus: source → stack → variables → watch → breakpoints.
    t.keys(&["Tab", "Tab", "Tab", "Tab", "i"]);
    t.keys(&["-l", "i >== 3"]);
    t.keys(&["Enter"]);
    t.wait_for("the refusal, with the edit still open", |s| {
        let s = squash(s);
        s.contains("condition: \"i >== 3\" is not a Python expression: invalid syntax")
            && s.contains("condition › i >== 3")
    })
    .await;
    assert!(!t.screen().contains("if i >== 3"), "{}", t.screen());
    // The edit goes on from the text as typed.
    t.keys(&["BSpace", "BSpace", "BSpace", "BSpace", "BSpace"]);
    t.keys(&["-l", "== 3"]);
    t.keys(&["Enter"]);
    t.wait_for("the condition", |s| s.contains("if i == 3"))
        .await;
    t.keys(&["c"]);
    t.wait_for("the hit where i is 3", |s| {
        s.contains("stopped: breakpoint") && squash(s).contains("i = 3")
    })
    .await;
    t.keys(&["q", "y"]);
}

const GO: &str = "package main

import \"fmt\"

func main() {
\ttotal := 0
\tfor i := 0; i < 5; i++ {
\t\ttotal += i
\t}
\tfmt.Println(total)
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_go_condition_is_the_stops_reason() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("main.go", GO), ("go.mod", "module cond\n\ngo 1.21\n")]);
    let t = Tmux::start("gocond", ws.path(), &["--break", "main.go:8", "--", "."]);
    t.wait_for("the first hit", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(8)
    })
    .await;
    // Focus: source → stack → variables → watch → breakpoints.
    t.keys(&["Tab", "Tab", "Tab", "Tab", "i"]);
    t.keys(&["-l", "undefinedName > 1"]);
    t.keys(&["Enter"]);
    t.wait_for("the condition", |s| s.contains("if undefinedName > 1"))
        .await;
    t.keys(&["c"]);
    t.wait_for("the condition's error", |s| {
        squash(s).contains(
            "stopped: condition error at main.go:8: could not find symbol value for undefinedName",
        )
    })
    .await;
    t.keys(&["q", "y"]);
}
