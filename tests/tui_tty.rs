//! `--tty`: the program runs on a terminal the person names (here another
//! tmux pane's), reads its input and writes its output there, and knows it
//! is on a terminal, while the TUI debugs it in its own window.

mod common;

use common::native::{build_c, lldb_available};
use common::tmux::Tmux;
use common::*;

const PROG: &str = "\
import sys
name = input('your name? ')
greeting = 'hello ' + name
print(greeting, 'on a terminal:', sys.stdout.isatty() and sys.stdin.isatty(), flush=True)
";

const C_PROG: &str = "\
#include <stdio.h>
#include <unistd.h>

int main(void) {
    char name[64] = {0};
    printf(\"your name? \");
    fflush(stdout);
    if (scanf(\"%63s\", name) != 1) return 1;
    int terminal = isatty(0) && isatty(1);
    printf(\"hello %s on a terminal: %d\\n\", name, terminal);
    return 0;
}
";

fn pane_tty(t: &Tmux) -> String {
    let out = std::process::Command::new("tmux")
        .args(["-L", &t.socket, "display", "-p", "#{pane_tty}"])
        .output()
        .expect("tmux display");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Another tmux pane whose own program reads nothing: what is typed there
/// is the debugged program's. With its device path.
fn other_terminal(ws: &std::path::Path, name: &str) -> (Tmux, String) {
    let other = Tmux::run(&format!("{name}-other"), ws, "sleep 100000");
    let tty = pane_tty(&other);
    assert!(tty.starts_with("/dev/"), "{tty}");
    (other, tty)
}

async fn runs_on_the_named_terminal(
    ws: &std::path::Path,
    name: &str,
    args: &[&str],
    stop: &str,
    said: &str,
) {
    let (other, tty) = other_terminal(ws, name);
    let mut all = vec!["--tty", tty.as_str()];
    all.extend(args);
    let tui = Tmux::start(name, ws, &all);
    talks_on(&other, &tui, stop, said).await;
}

/// The program asks on the other terminal, the person answers there, the
/// TUI stops after it, and the program's last words show there too.
async fn talks_on(other: &Tmux, tui: &Tmux, stop: &str, said: &str) {
    other
        .wait_for("the program's prompt on the other terminal", |s| {
            s.contains("your name?")
        })
        .await;
    other.keys(&["ada", "Enter"]);
    tui.wait_for("the stop after the input", |s| {
        s.contains(stop) && s.contains("\"ada\"")
    })
    .await;
    tui.keys(&["c"]);
    let screen = other
        .wait_for("the program's output on the other terminal", |s| {
            s.contains(said)
        })
        .await;
    assert!(screen.contains(said), "{screen}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_program_runs_on_the_terminal_the_person_names() {
    if !Tmux::available() || !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    runs_on_the_named_terminal(
        ws.path(),
        "tty-py",
        &["--break", "prog.py:4", "--", "prog.py"],
        "stopped: breakpoint",
        "hello ada on a terminal: True",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_c_program_runs_on_the_terminal_the_person_names() {
    if !Tmux::available() || !lldb_available() {
        return;
    }
    let ws = workspace(&[("prog.c", C_PROG)]);
    build_c(&ws.path().join("prog.c"), &ws.path().join("prog"));
    runs_on_the_named_terminal(
        ws.path(),
        "tty-c",
        &["--break", "prog.c:9", "--", "prog"],
        "stopped: breakpoint",
        "hello ada on a terminal: 1",
    )
    .await;
}

/// launch.json names the terminal as CodeLLDB does (`stdio`), or with
/// `tty` as the flag does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn launch_json_names_the_terminal() {
    if !Tmux::available() || !lldb_available() {
        return;
    }
    let ws = workspace(&[("prog.c", C_PROG)]);
    build_c(&ws.path().join("prog.c"), &ws.path().join("prog"));
    let (other, tty) = other_terminal(ws.path(), "tty-json");
    let (other2, tty2) = other_terminal(ws.path(), "tty-json2");
    let config = serde_json::json!({
        "version": "0.2.0",
        "configurations": [
            {"name": "codelldb", "type": "lldb", "request": "launch",
             "program": "${workspaceFolder}/prog", "stdio": [tty, tty, tty]},
            {"name": "named", "type": "lldb", "request": "launch",
             "program": "${workspaceFolder}/prog", "tty": tty2}
        ]
    });
    std::fs::create_dir_all(ws.path().join(".vscode")).unwrap();
    std::fs::write(ws.path().join(".vscode/launch.json"), config.to_string()).unwrap();
    for (config, other) in [("codelldb", &other), ("named", &other2)] {
        let tui = Tmux::start(
            &format!("tty-json-{config}"),
            ws.path(),
            &["--config", config, "--break", "prog.c:9"],
        );
        talks_on(
            other,
            &tui,
            "stopped: breakpoint",
            "hello ada on a terminal: 1",
        )
        .await;
    }
}
