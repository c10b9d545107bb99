//! The program's own terminal in the real TUI (tmux): the person focuses
//! the output pane, presses Enter and types, and the program reads the
//! line: Python's `input()`, C's `fgets`, Go's `bufio.Scanner`.

mod common;

use std::time::Duration;

use common::native::*;
use common::tmux::{Tmux, current_line};
use common::*;

const PY: &str = "\
x = 1
name = input('name? ')
print('hello', name)
done = True
";

const C: &str = "\
#include <stdio.h>
int main(void) {
    char line[64] = \"\";
    printf(\"name? \");
    fflush(stdout);
    fgets(line, sizeof line, stdin);
    printf(\"hello %s\", line);
    return 0;
}
";

const GO: &str = "package main

import (
\t\"bufio\"
\t\"fmt\"
\t\"os\"
)

func main() {
\tfmt.Print(\"name? \")
\ts := bufio.NewScanner(os.Stdin)
\ts.Scan()
\tfmt.Println(\"hello\", s.Text())
}
";

/// Waits up to 90 s: a Go build or a loaded machine can take longer than
/// the usual 15 s before the program asks.
async fn wait_long(t: &Tmux, what: &str, pred: impl Fn(&str) -> bool) -> String {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(90);
    loop {
        let s = t.screen();
        if pred(&s) {
            return s;
        }
        if tokio::time::Instant::now() > deadline {
            panic!("timed out waiting for {what}; the screen:\n{s}");
        }
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
}

/// Waits for the prompt, focuses the output pane, types `Ada` and Enter
/// there, and waits for the greeting and the stop after it.
async fn type_a_name(t: &Tmux, stop_line: u32) -> String {
    wait_long(t, "the program's prompt", |s| s.contains("name? ")).await;
    // Tab five times: source, stack, variables, watch, breakpoints, output.
    t.keys(&["Tab", "Tab", "Tab", "Tab", "Tab"]);
    t.wait_for("the output pane focused", |s| {
        s.contains("output · Enter types")
    })
    .await;
    t.keys(&["Enter"]);
    t.wait_for("typing mode", |s| s.contains("· Esc stops"))
        .await;
    // `n` and `q` are the program's letters now, not pairdbg's keys.
    t.keys(&["-l", "Ada"]);
    t.keys(&["Enter"]);
    let s = wait_long(t, "the greeting and the stop", |s| {
        s.contains("hello Ada") && current_line(s) == Some(stop_line)
    })
    .await;
    t.keys(&["Escape"]);
    t.wait_for("typing mode left", |s| !s.contains("· Esc stops"))
        .await;
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_input_reads_what_the_person_types_in_the_output_pane() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("ask.py", PY)]);
    let t = Tmux::start(
        "py-input",
        ws.path(),
        &["--break", "ask.py:4", "--", "ask.py"],
    );
    let s = type_a_name(&t, 4).await;
    assert!(
        s.lines()
            .any(|l| l.contains("name") && l.contains("Ada") && !l.contains("input")),
        "the variables show what it read: {s}"
    );
    assert!(!s.contains("EOFError"), "{s}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_fgets_reads_what_the_person_types_in_the_output_pane() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("ask.c", C)]);
    build_c(&ws.path().join("ask.c"), &ws.path().join("ask"));
    let t = Tmux::start("c-input", ws.path(), &["--break", "ask.c:8", "--", "ask"]);
    type_a_name(&t, 8).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_scanner_reads_what_the_person_types_in_the_output_pane() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/ask\n\ngo 1.19\n"),
        ("main.go", GO),
    ]);
    let t = Tmux::start("go-input", ws.path(), &["--break", "main.go:14", "--", "."]);
    let s = type_a_name(&t, 14).await;
    // delve's own line is the debugger's, in the console, not the program's.
    assert!(
        s.lines()
            .filter(|l| l.contains("Type 'dlv help'"))
            .all(|l| l.contains("debugger: Type 'dlv help'")),
        "{s}"
    );
}
