//! A session's life in the real binary in a terminal (tmux): what can be
//! changed after the program exits, edited files, where breakpoints bind,
//! the launch flags, starting without a terminal, a program that does not
//! compile, two TUIs in one workspace, and the agent ending the person's
//! program.

mod common;

use std::process::{Command, Stdio};

use common::native::{build_c, lldb_available};
use common::tmux::{Tmux, current_line};
use common::*;
use serde_json::json;

use common::ADD_PROGRAM as PROG;

/// The screen line that carries the current-line arrow.
fn arrow_line(screen: &str) -> String {
    screen
        .lines()
        .find(|l| l.contains('→'))
        .unwrap_or_default()
        .to_string()
}

/// Whether the source gutter marks line `n` with a breakpoint.
fn marked(screen: &str, n: u32) -> bool {
    screen.lines().any(|l| {
        l.contains(&format!("● {n} "))
            || l.contains(&format!("●→{n} "))
            || l.contains(&format!("●{n} "))
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_the_exit_b_sets_a_breakpoint_a_watch_and_r_stops_there() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start("life-exit", ws.path(), &["--", "prog.py"]);
    t.wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    t.keys(&["c"]);
    t.wait_for("the exit", |s| s.contains("exited with code 0"))
        .await;
    // The cursor is still on line 1 of prog.py: down to line 2, b.
    t.keys(&["j", "b"]);
    // The mark, and word that it waits for the next run.
    t.wait_for("the breakpoint after the exit", |s| {
        marked(s, 2) && s.contains("line 2: binds when the program runs")
    })
    .await;
    // A watch added after the exit too.
    t.keys(&["w", "a * 100", "Enter"]);
    t.wait_for("the watch", |s| s.contains("a * 100")).await;
    // The launch stops on entry (it had no breakpoint); then on to line 2.
    t.keys(&["R"]);
    t.wait_for("the entry stop again", |s| {
        s.contains("stopped: entry") && s.contains("epoch") && current_line(s) == Some(1)
    })
    .await;
    t.keys(&["c"]);
    let s = t
        .wait_for("the stop at the new breakpoint", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(2)
        })
        .await;
    assert!(s.contains("a = 1"), "{s}");
    t.wait_for("the watch's value", |s| s.contains("100")).await;
    t.keys(&["q", "y"]);
}

const C_PROG: &str = "\
#include <stdio.h>

int add(int a, int b) {
    int total = a + b;
    return total;
}

int main(void) {
    int x = add(1, 2);
    int y = add(x, 10);
    printf(\"result %d\\n\", y);
    return 0;
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_native_program_exits_b_sets_a_breakpoint_and_r_stops_there() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.c", C_PROG)]);
    build_c(&ws.path().join("prog.c"), &ws.path().join("prog"));
    let t = Tmux::start(
        "life-native",
        ws.path(),
        &["--break", "prog.c:9", "--", "./prog"],
    );
    t.wait_for("the first stop", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(9)
    })
    .await;
    t.keys(&["c"]);
    t.wait_for("the exit", |s| s.contains("exited with code 0"))
        .await;
    t.keys(&["j", "b"]);
    let s = t
        .wait_for("the mark on line 10 after the exit", |s| marked(s, 10))
        .await;
    assert!(!s.contains("cannot set a breakpoint"), "{s}");
    t.keys(&["R"]);
    t.wait_for("the first breakpoint again", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(9)
    })
    .await;
    t.keys(&["c"]);
    let s = t
        .wait_for("the breakpoint set after the exit", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(10)
        })
        .await;
    assert!(s.contains("x = 3"), "{s}");
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_file_shows_its_new_text_and_the_breakpoint_follows_its_line() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start(
        "life-edit",
        ws.path(),
        &["--break", "prog.py:7", "--", "prog.py"],
    );
    let s = t
        .wait_for("the breakpoint stop", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(7)
        })
        .await;
    assert!(arrow_line(&s).contains("y = add(x, 10)"), "{s}");
    // Two lines land above the breakpoint while the program is stopped.
    let edited = format!("# one\n# two\n{PROG}");
    std::fs::write(ws.path().join("prog.py"), edited).expect("edit");
    t.keys(&["R"]);
    let s = t
        .wait_for("the stop on the moved line", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(9)
        })
        .await;
    assert!(
        arrow_line(&s).contains("y = add(x, 10)"),
        "the arrow is on the new text: {s}"
    );
    assert!(s.contains("# two"), "the new text shows: {s}");
    // The breakpoint's line is deleted: the breakpoints pane says so, and
    // so does the agent's list.
    let gone = format!("# one\n# two\n{}", PROG.replace("y = add(x, 10)\n", ""));
    std::fs::write(ws.path().join("prog.py"), gone).expect("edit");
    t.keys(&["R"]);
    t.wait_for("the note that the text is gone", |s| {
        s.contains("no line reads")
    })
    .await;
    let agent = mcp_in(ws.path()).await;
    let list = agent.ok("breakpoint_list", json!({})).await;
    assert!(
        list.contains("no line reads \"y = add(x, 10)\""),
        "the agent is told the text is gone: {list}"
    );
    agent.close().await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_breakpoint_on_a_blank_line_says_where_it_moved() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start("life-blank", ws.path(), &["--", "prog.py"]);
    t.wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    // Line 5 is blank.
    t.keys(&["j", "j", "j", "j", "b"]);
    let s = t
        .wait_for("the message", |s| s.contains("breakpoint moved to line"))
        .await;
    let moved: u32 = s
        .split("breakpoint moved to line ")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no line in the message: {s}"));
    assert_ne!(moved, 0, "never line 0: {s}");
    assert_ne!(moved, 5, "{s}");
    assert!(marked(&s, moved), "the gutter marks line {moved}: {s}");
    assert!(!marked(&s, 5), "no mark on the blank line: {s}");
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_up_breakpoint_on_a_blank_line_says_where_it_moved() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    assert_eq!(PROG.lines().nth(4), Some(""), "line 5 is blank");
    let t = Tmux::start(
        "life-blank-start",
        ws.path(),
        &["--break", "prog.py:5", "--", "prog.py"],
    );
    let s = t
        .wait_for("the stop and the message", |s| {
            s.contains("stopped: breakpoint") && s.contains("breakpoint moved to line")
        })
        .await;
    let at = current_line(&s).unwrap_or_else(|| panic!("no current line: {s}"));
    assert!(
        s.contains(&format!(
            "breakpoint moved to line {at}: line 5 has no code"
        )),
        "the message names the line it stopped at: {s}"
    );
    assert!(marked(&s, at), "the gutter marks line {at}: {s}");
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_takes_the_launch_flags_of_run() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let main =
        "import os, sys\nx = os.environ['K']\ny = os.getcwd()\nz = sys.argv[1:]\nprint(x, y, z)\n";
    let ws = workspace(&[
        ("pkg/__init__.py", ""),
        ("pkg/__main__.py", main),
        ("sub/prog.py", main),
    ]);
    let python = String::from_utf8(
        Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3")
            .stdout,
    )
    .unwrap();
    let t = Tmux::start(
        "life-flags",
        ws.path(),
        &[
            "-m",
            "pkg",
            "--python",
            python.trim(),
            "--env",
            "K=from-env",
            "--break",
            "pkg/__main__.py:5",
            "--",
            "one",
        ],
    );
    t.wait_for("the module's stop with its environment", |s| {
        s.contains("stopped: breakpoint") && s.contains("\"from-env\"") && s.contains("[\"one\"]")
    })
    .await;
    t.keys(&["q", "y"]);
    let t = Tmux::start(
        "life-cwd",
        ws.path(),
        &[
            "--cwd",
            "sub",
            "--env",
            "K=2",
            "--language",
            "python",
            "--break",
            "sub/prog.py:5",
            "--",
            "sub/prog.py",
        ],
    );
    t.wait_for("the stop in the working directory", |s| {
        s.contains("stopped: breakpoint") && s.contains("/sub\"")
    })
    .await;
    t.keys(&["q", "y"]);
}

/// Runs the binary with no terminal: stdin from /dev/null, output piped.
fn without_terminal(dir: &std::path::Path, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run pairdbg");
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn every_launch_error_names_a_real_flag() {
    let ws = workspace(&[("tool.xyz", "x\n"), ("prog.py", PROG)]);
    let (_, err, code) = without_terminal(ws.path(), &["--", "tool.xyz"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("--language: cannot tell the language of tool.xyz; pass --language"),
        "{err}"
    );
    let (_, err, _) = without_terminal(ws.path(), &["run", "--", "tool.xyz"]);
    assert!(err.contains("pass --language"), "{err}");
    let (_, err, _) = without_terminal(ws.path(), &["--cwd", "nowhere", "--", "prog.py"]);
    assert!(err.contains("--cwd:"), "{err}");
    let (_, err, _) = without_terminal(ws.path(), &["--env", "NOVALUE", "--", "prog.py"]);
    assert!(err.contains("--env"), "{err}");
    // Accepted flags get as far as wanting a terminal.
    let (_, err, _) = without_terminal(
        ws.path(),
        &["--language", "python", "-m", "pkg", "--cwd", "."],
    );
    assert!(err.contains("needs a terminal"), "{err}");
}

#[test]
fn run_takes_the_same_launch_flags() {
    if !debugpy_available() {
        return;
    }
    let main = "import os\nx = os.environ['K']\ny = os.getcwd()\nprint(x, y)\n";
    let ws = workspace(&[("pkg/__init__.py", ""), ("pkg/__main__.py", main)]);
    std::fs::create_dir(ws.path().join("sub")).unwrap();
    let (out, err, code) = without_terminal(
        ws.path(),
        &[
            "run",
            "-m",
            "pkg",
            "--env",
            "K=from-env",
            "--language",
            "python",
            "--break",
            "pkg/__main__.py:4",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("x        = \"from-env\""), "{out}");
}

#[test]
fn without_a_terminal_pairdbg_says_it_needs_one() {
    let ws = workspace(&[("prog.py", PROG)]);
    let (out, err, code) = without_terminal(ws.path(), &["--", "prog.py"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("needs a terminal")
            && err.contains("pairdbg run")
            && err.contains("pairdbg mcp"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        !out.contains('\u{1b}') && !err.contains('\u{1b}'),
        "no escape sequences: {out:?} {err:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_with_a_syntax_error_shows_the_bad_line() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let bad = "x = 1\n\n\ndef f(:\n    pass\n";
    let ws = workspace(&[("bad.py", bad)]);
    let t = Tmux::start("life-syntax", ws.path(), &["--", "bad.py"]);
    let s = t
        .wait_for("the error in the status line", |s| {
            s.contains("SyntaxError: invalid syntax (bad.py:4)")
        })
        .await;
    assert!(!s.contains("no source"), "{s}");
    assert!(
        s.lines().any(|l| l.contains("4 def f(:")),
        "the source pane shows the bad line: {s}"
    );
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_the_newer_tui_quits_the_agent_finds_the_older_one() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("first.py", PROG), ("second.py", PROG)]);
    let older = Tmux::start("life-older", ws.path(), &["--", "first.py"]);
    older
        .wait_for("the older TUI's stop", |s| s.contains("stopped: entry"))
        .await;
    let newer = Tmux::start("life-newer", ws.path(), &["--", "second.py"]);
    newer
        .wait_for("the newer TUI's stop", |s| s.contains("stopped: entry"))
        .await;
    newer.keys(&["q", "y"]);
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    while newer.alive() && tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(
            std::time::Duration::from_millis(50),
            std::future::pending::<()>(),
        )
        .await;
    }
    assert!(!newer.alive(), "the newer TUI quit");
    let agent = mcp_in(ws.path()).await;
    let v = agent.ok("debug_status", json!({})).await;
    assert!(v.contains("first.py"), "the agent joins the older TUI: {v}");
    agent.close().await;
    older.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_ends_the_persons_program_only_with_their_leave() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start("life-end", ws.path(), &["--", "prog.py"]);
    t.wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    let agent = mcp_in(ws.path()).await;
    // The person drives: refused outright.
    t.keys(&["T"]);
    t.wait_for("the person drives", |s| s.contains("person only"))
        .await;
    let refused = agent.fails("debug_terminate", json!({})).await;
    assert!(
        refused.contains("the person launched this program"),
        "{refused}"
    );
    // Shared: the person is asked, and says no.
    t.keys(&["T"]);
    t.wait_for("shared again", |s| !s.contains("person only"))
        .await;
    let (denied, _) = tokio::join!(agent.call("debug_terminate", json!({})), async {
        t.wait_for("the question", |s| {
            s.contains("the agent asks to run") && s.contains("end the program you launched")
        })
        .await;
        t.keys(&["n"]);
    });
    assert!(denied.1, "{}", denied.0);
    assert!(
        denied.0.contains("chose to keep it running"),
        "{}",
        denied.0
    );
    t.wait_for("the program still stopped", |s| {
        s.contains("stopped: entry")
    })
    .await;
    // Asked again, the person says yes.
    let (allowed, _) = tokio::join!(agent.call("debug_terminate", json!({})), async {
        // The status line still says "denied: <the question>", so only the
        // dialog's title shows the second question is up.
        t.wait_for("the question again", |s| {
            s.contains("the agent asks to run") && s.contains("end the program you launched")
        })
        .await;
        t.keys(&["y"]);
    });
    assert!(!allowed.1, "{}", allowed.0);
    assert!(allowed.0.contains("ended"), "{}", allowed.0);
    agent.close().await;
    t.keys(&["q", "y"]);
}
