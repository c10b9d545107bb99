//! The build step in a real terminal (tmux): `--build` builds before the
//! launch and again at `R`, its progress lines in the output pane; a failed
//! build shows its first error in the source pane. A launch.json
//! `preLaunchTask` (tasks.json, with dependsOn, cwd and env) and CodeLLDB's
//! `cargo` form build before their launch too.

mod common;

use common::native::*;
use common::tmux::{Tmux, current_line};
use common::*;
use serde_json::json;

const CPP: &str = "#include <cstdio>\nint main() {\n    int value = 41;\n    std::printf(\"value=%d\\n\", value);\n    return 0;\n}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r_rebuilds_and_the_output_pane_shows_the_build() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("main.cpp", CPP)]);
    let command = format!(
        "{} --build 'c++ -g -O0 -o prog main.cpp' --language c++ --break main.cpp:4 -- prog",
        env!("CARGO_BIN_EXE_pairdbg")
    );
    let t = Tmux::run("build", ws.path(), &command);
    let s = t
        .wait_for("the first stop", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(4)
        })
        .await;
    // The output pane is narrow: the progress line's start is what shows.
    assert!(s.contains("▶ building: c++ -g"), "{s}");
    assert!(s.contains("✓ built in"), "{s}");
    assert!(
        s.lines().any(|l| l.contains("value") && l.contains("41")),
        "{s}"
    );

    // The source reads 40 + 2: only the rebuilt program shows 42.
    std::fs::write(ws.path().join("main.cpp"), CPP.replace("41", "40 + 2")).unwrap();
    t.keys(&["R"]);
    let s = t
        .wait_for("the rebuilt program's stop", |s| {
            s.contains("stopped: breakpoint") && s.contains("value = 42")
        })
        .await;
    assert!(s.contains("--- restarted ---"), "{s}");
    let after = s.split("--- restarted ---").nth(1).unwrap_or_default();
    assert!(
        after.contains("▶ building"),
        "the rebuild's progress line: {s}"
    );

    // A syntax error: R builds, fails, and shows the error where it is.
    std::fs::write(ws.path().join("main.cpp"), CPP.replace("41;", "41 +;")).unwrap();
    t.keys(&["R"]);
    let s = t
        .wait_for("the compiler's message in the status line", |s| {
            // The compiler's quotes follow the locale: only the words are asserted.
            // The output pane's lines and the status line come apart.
            s.contains("expected primary-expression before")
                && s.contains("(main.cpp:3)")
                && s.contains("✗ build failed")
        })
        .await;
    assert!(
        s.lines()
            .any(|l| l.contains(" 3 ") && l.contains("int value = 41 +;")),
        "the source pane shows the bad line: {s}"
    );
    assert!(
        !s.contains("stopped: breakpoint"),
        "the old binary ran: {s}"
    );
}

const TASKS: &str = r##"{
    "version": "2.0.0",
    "tasks": [
        {"label": "header", "type": "shell",
         "command": "echo \"#define VALUE $VALUE\" > value.h",
         "options": {"cwd": "${workspaceFolder}/gen", "env": {"VALUE": "7"}}},
        {"label": "build", "type": "process", "command": "cc",
         "args": ["-g", "-O0", "-Igen", "-o", "prog", "main.c"], "dependsOn": ["header"]}
    ]
}"##;

const C: &str = "#include <stdio.h>\n#include \"value.h\"\nint main(void) {\n    int value = VALUE;\n    printf(\"value=%d\\n\", value);\n    return 0;\n}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pre_launch_task_runs_what_it_depends_on_first() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let launch = r#"{"configurations": [{"name": "C", "type": "cppdbg", "request": "launch",
        "program": "${workspaceFolder}/prog", "preLaunchTask": "build"}]}"#;
    let ws = workspace(&[
        ("main.c", C),
        (".vscode/tasks.json", TASKS),
        (".vscode/launch.json", launch),
        ("gen/.keep", ""),
    ]);
    let t = Tmux::start("task", ws.path(), &["--config", "C", "--break", "main.c:5"]);
    let s = t
        .wait_for("the stop", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(5)
        })
        .await;
    assert!(s.contains("▶ building (1 of 2): header"), "{s}");
    assert!(s.contains("▶ building (2 of 2): build"), "{s}");
    // The header's task ran in gen/ with VALUE=7 from its options.
    assert!(
        s.lines().any(|l| l.contains("value") && l.contains('7')),
        "{s}"
    );
    let header = std::fs::read_to_string(ws.path().join("gen/value.h")).unwrap();
    assert_eq!(header.trim(), "#define VALUE 7");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cargo_form_debugs_the_executable_cargo_names() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let manifest = "[package]\nname = \"inv\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[[bin]]\nname = \"inv\"\npath = \"src/main.rs\"\n";
    let main = "fn main() {\n    let count = 3;\n    println!(\"count={count}\");\n}\n";
    let launch = r#"{"configurations": [{"name": "Inv", "type": "lldb", "request": "launch",
        "cargo": {"args": ["build", "--bin=inv"]}}]}"#;
    let ws = workspace(&[
        ("Cargo.toml", manifest),
        ("src/main.rs", main),
        (".vscode/launch.json", launch),
    ]);
    let t = Tmux::start(
        "cargo",
        ws.path(),
        &["--config", "Inv", "--break", "src/main.rs:3"],
    );
    let s = t
        .wait_for("the stop", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(3)
        })
        .await;
    assert!(s.contains("▶ building: cargo build"), "{s}");
    assert!(s.contains("✓ built in"), "{s}");
    assert!(
        s.lines().any(|l| l.contains("count") && l.contains('3')),
        "{s}"
    );
}

/// An agent's build command runs a command: where the person asked to
/// approve side effects, it waits for their answer, and a denial runs
/// nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_person_approves_an_agents_build_command() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("work.py", "print('hi')\n")]);
    let t = Tmux::start(
        "build-approval",
        ws.path(),
        &[
            "--approve-side-effects",
            "--break",
            "work.py:1",
            "--",
            "work.py",
        ],
    );
    t.wait_for("the first stop with approval on", |s| {
        s.contains("stopped: breakpoint") && s.contains("approving agent side effects")
    })
    .await;
    let agent = mcp_in(ws.path()).await;
    let launch = json!({"program": "work.py", "build": "touch built.txt"});
    let (denied, _) = tokio::join!(agent.call("debug_launch", launch), async {
        t.wait_for("the approval prompt", |s| {
            s.contains("the agent asks to run") && s.contains("touch built.txt")
        })
        .await;
        t.keys(&["n"]);
    });
    assert!(denied.1, "{}", denied.0);
    assert!(
        denied.0.contains("the person denied the build"),
        "{}",
        denied.0
    );
    assert!(
        !ws.path().join("built.txt").exists(),
        "the denied build ran"
    );
    agent.close().await;
    t.keys(&["q", "y"]);
}

/// While the build runs, the status line says so (not "starting"), and
/// the agent's status names the command.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_line_says_building_while_the_build_runs() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("main.cpp", CPP)]);
    // The build waits for a file the test writes once it has read the
    // status line.
    let command = format!(
        "{} --build 'while [ ! -e go ]; do sleep 0.05; done; c++ -g -O0 -o prog main.cpp' --language c++ --break main.cpp:4 -- prog",
        env!("CARGO_BIN_EXE_pairdbg")
    );
    let t = Tmux::run("building", ws.path(), &command);
    let s = t
        .wait_for("the status line during the build", |s| {
            s.lines().last().is_some_and(|l| l.contains(" building"))
        })
        .await;
    assert!(!s.lines().last().unwrap_or("").contains("starting"), "{s}");
    let agent = mcp_in(ws.path()).await;
    let v = agent.ok("debug_status", json!({})).await;
    assert!(v.starts_with("── BUILDING ──\nwhile [ ! -e go ]"), "{v}");
    std::fs::write(ws.path().join("go"), "").unwrap();
    t.wait_for("the first stop", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(4)
    })
    .await;
    agent.close().await;
}
