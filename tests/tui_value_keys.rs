//! The variables pane's value keys in a real terminal: V shows a long
//! Python string whole and finds a word near its end; # shows a C int in
//! hex, binary and as a character; M on a C pointer shows the bytes it
//! points to; W stops a C program (lldb-dap) and a Go one (delve) at the
//! write to a variable, and on Python says data breakpoints are not there.

mod common;

use common::native::*;
use common::tmux::{Tmux, current_line};
use common::*;

/// A C program with an int, a string and a pointer to it; `bump` writes
/// the int through a pointer.
const C_PROGRAM: &str = "\
#include <stdio.h>

static void bump(int *at) {
    *at = *at + 1;
}

int main(void) {
    int n = 42;
    char word[] = \"needle-bytes\";
    char *p = word;
    bump(&n);
    printf(\"%d %s\\n\", n, p);
    return 0;
}
";

/// The line of `bump(&n);`, where the tests stop.
const CALL_LINE: &str = "values.c:11";

/// A function whose only local is a 5,000-character string with a word
/// past the first 4,096 characters (what a stored value keeps).
const PY_PROGRAM: &str = "\
def main():
    s = (\"lorem ipsum \" * 500)[:4980] + \" FINDME tail\" + \".\" * 8
    print(len(s))


main()
";

fn c_program(name: &str) -> Option<(tempfile::TempDir, Tmux)> {
    if !lldb_available() || !Tmux::available() {
        return None;
    }
    let ws = workspace(&[("values.c", C_PROGRAM)]);
    build_c(&ws.path().join("values.c"), &ws.path().join("values"));
    let t = Tmux::start(name, ws.path(), &["--break", CALL_LINE, "--", "./values"]);
    Some((ws, t))
}

async fn at_the_call(t: &Tmux) {
    t.wait_for("the stop at the call", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(11) && s.contains("needle")
    })
    .await;
}

/// The variables pane's row for `name`, its spaces squashed: the pane is
/// right of the source's, past their borders' `││`.
fn row(screen: &str, name: &str) -> Option<String> {
    screen.lines().find_map(|l| {
        let pane = squash(l.split("││").nth(1)?);
        let at = pane.find(&format!(" {name} = "))?;
        Some(pane[at..].to_string())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_viewer_shows_a_long_python_string_whole_and_finds_a_word_near_its_end() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("app.py", PY_PROGRAM)]);
    let t = Tmux::start(
        "viewer",
        ws.path(),
        &["--break", "app.py:3", "--", "app.py"],
    );
    t.wait_for("the stop with s read", |s| {
        s.contains("stopped: breakpoint") && squash(s).contains(" s = \"lorem ipsum")
    })
    .await;
    // The variables pane, its first row: s.
    t.keys(&["Tab", "Tab", "g", "V"]);
    let s = t
        .wait_for("the whole value in the viewer", |s| {
            s.contains(" s · rows 1–") && !s.contains("reading the whole value")
        })
        .await;
    assert!(s.contains("lorem ipsum lorem"), "the text shows: {s}");
    // Wrapped to the box's width, 5,000 characters (and the quotes) take
    // more rows than the screen has.
    let total: usize = s
        .split(" of ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next()?.parse().ok())
        .expect("the row count in the title");
    assert!(total > 40, "the whole string, wrapped: {total} rows: {s}");
    t.keys(&["/"]);
    t.keys(&["-l", "FINDME"]);
    t.keys(&["Enter"]);
    let s = t
        .wait_for("the word found", |s| s.contains("\"FINDME\": match 1 of 1"))
        .await;
    assert!(
        s.lines().any(|l| l.contains("FINDME tail")),
        "the match's row is on screen: {s}"
    );
    // Esc closes the viewer; the variables pane is back.
    t.keys(&["Escape"]);
    t.wait_for("the viewer closed", |s| !s.contains(" s · rows "))
        .await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_c_int_shows_in_hex_binary_and_as_a_character() {
    let Some((_ws, t)) = c_program("formats") else {
        return;
    };
    at_the_call(&t).await;
    // The variables pane, its first row: n.
    t.keys(&["Tab", "Tab", "g"]);
    t.wait_for("n = 42", |s| {
        row(s, "n").is_some_and(|r| r.starts_with(" n = 42"))
    })
    .await;
    let steps = [
        ("0x2a", "n in hex"),
        ("0b101010", "n in binary"),
        ("'*'", "n in char"),
        ("42", "n in natural"),
    ];
    for (value, status) in steps {
        t.keys(&["#"]);
        let s = t
            .wait_for(status, |s| {
                row(s, "n").is_some_and(|r| r.starts_with(&format!(" n = {value}")))
                    && s.contains(status)
            })
            .await;
        if value != "42" {
            // The values in the source follow the variables pane.
            assert!(
                squash(&s).contains(&format!("n = {value}")),
                "inline value: {s}"
            );
        }
    }
    // Hex is kept for n in main: across a step, and in a watch of n.
    t.keys(&["#"]);
    t.wait_for("n in hex again", |s| s.contains("n in hex"))
        .await;
    t.keys(&["w"]);
    t.keys(&["-l", "n"]);
    t.keys(&["Enter"]);
    t.wait_for("the watch in hex", |s| {
        s.lines().any(|l| squash(l).contains("││ n = 0x2a"))
    })
    .await;
    t.keys(&["n"]);
    t.wait_for("43 in hex after the step", |s| {
        current_line(s) == Some(12)
            && row(s, "n").is_some_and(|r| r.starts_with(" n = 0x2b"))
            && s.lines().any(|l| squash(l).contains("││ n = 0x2b"))
    })
    .await;
    // A string is not an integer: it keeps its text and the status says so.
    // The watch left the focus on the console: four panes on is variables.
    t.keys(&["Tab", "Tab", "Tab", "Tab", "g", "j", "#"]);
    let s = t
        .wait_for("why not", |s| squash(s).contains("is not an integer"))
        .await;
    assert!(
        row(&s, "word").is_some_and(|r| r.contains("needle-bytes")),
        "{s}"
    );
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_memory_view_on_a_c_pointer_shows_the_bytes_it_points_to() {
    let Some((_ws, t)) = c_program("memat") else {
        return;
    };
    at_the_call(&t).await;
    // The variables pane: n, word, p; M on p.
    t.keys(&["Tab", "Tab", "g", "j", "j"]);
    t.keys(&["M"]);
    let s = t
        .wait_for("the memory at p", |s| s.contains("memory: p @ 0x"))
        .await;
    assert!(s.contains("|needle-b"), "the pointee's text: {s}");
    assert!(
        s.contains("6e 65 65 64 6c 65 2d 62"),
        "the pointee's bytes in hex: {s}"
    );
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_watchpoint_key_stops_a_c_program_at_the_write() {
    let Some((_ws, t)) = c_program("watchkey") else {
        return;
    };
    at_the_call(&t).await;
    t.keys(&["Tab", "Tab", "g", "W"]);
    let s = t
        .wait_for("the watch set", |s| {
            squash(s).contains("the program stops when n is written")
        })
        .await;
    assert!(
        s.contains("◆ when n is written"),
        "the breakpoints pane lists it: {s}"
    );
    // W again removes it, and the pane no longer lists it.
    t.keys(&["W"]);
    t.wait_for("the watch removed", |s| {
        squash(s).contains("writes to n no longer stop") && !s.contains("when n is written")
    })
    .await;
    t.keys(&["W"]);
    t.wait_for("the watch set again", |s| s.contains("◆ when n is written"))
        .await;
    t.keys(&["c"]);
    let s = t
        .wait_for("the stop at the write", |s| {
            s.contains("stopped") && matches!(current_line(s), Some(4 | 5))
        })
        .await;
    assert!(
        s.contains("bump"),
        "stopped in the function that writes: {s}"
    );
    assert!(
        !squash(&s).contains("stopped: breakpoint"),
        "the data breakpoint stopped it, not a line: {s}"
    );
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_python_the_watchpoint_key_says_data_breakpoints_are_not_there() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("app.py", PY_PROGRAM)]);
    let t = Tmux::start(
        "nowatch",
        ws.path(),
        &["--break", "app.py:3", "--", "app.py"],
    );
    t.wait_for("the stop with s read", |s| {
        s.contains("stopped: breakpoint") && squash(s).contains(" s = \"lorem ipsum")
    })
    .await;
    t.keys(&["Tab", "Tab", "g", "W"]);
    let s = t
        .wait_for("why not", |s| {
            squash(s).contains("cannot watch s: data breakpoints are not supported")
        })
        .await;
    assert!(!s.contains("◆ when"), "nothing is listed: {s}");
    t.keys(&["q", "y"]);
}

const GO_PROGRAM: &str = "package main\n\nimport \"fmt\"\n\nfunc bump(p *int) {\n\t*p = *p + 1\n}\n\nfunc main() {\n\tn := 42\n\tbump(&n)\n\tfmt.Println(n)\n}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_watchpoint_key_stops_a_go_program_at_the_write() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/wk\n\ngo 1.19\n"),
        ("main.go", GO_PROGRAM),
    ]);
    let t = Tmux::start("gowatch", ws.path(), &["--break", "main.go:11", "--", "."]);
    t.wait_for("the stop at the call", |s| {
        current_line(s) == Some(11) && row(s, "n").is_some()
    })
    .await;
    t.keys(&["Tab", "Tab", "g", "W"]);
    t.wait_for("the watch listed", |s| s.contains("◆ when n is written"))
        .await;
    t.keys(&["c"]);
    let s = t
        .wait_for("the stop at the write", |s| {
            s.contains("stopped: data breakpoint") && matches!(current_line(s), Some(6 | 7))
        })
        .await;
    assert!(
        s.contains("bump"),
        "stopped in the function that writes: {s}"
    );
    t.keys(&["q", "y"]);
}
