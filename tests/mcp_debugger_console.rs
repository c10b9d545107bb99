//! The debugger's own lines (its banner, the build it runs, its log) go to
//! `debug_output {stream: "debugger"}`; the program's output holds only
//! what the program wrote.

mod common;

use common::*;
use serde_json::json;

const GO: &str = "package main

import \"fmt\"

func main() {
\tn := 41
\tn++
\tfmt.Println(\"answer\", n)
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delves_own_lines_are_the_debuggers_not_the_programs() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/answer\n\ngo 1.19\n"),
        ("main.go", GO),
    ]);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": ".", "breakpoints": [{"file": "main.go", "line": 7}]}),
    )
    .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED with code 0"), "{v}");
    assert!(
        !v.contains("Building"),
        "the exit's last output is the program's: {v}"
    );

    let out = mcp.output_containing("answer 42").await;
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.first(), Some(&"answer 42"), "{out}");
    for own in ["DAP server listening", "Building ", "dlv help"] {
        assert!(!out.contains(own), "{own:?} is delve's: {out}");
    }

    let said = mcp.ok("debug_output", json!({"stream": "debugger"})).await;
    // Its port is told on its log, read by pairdbg, not shown.
    assert!(said.contains("Type 'dlv help'"), "{said}");
    assert!(said.contains("Building "), "{said}");
    assert!(!said.contains("answer 42"), "{said}");

    let bad = mcp
        .fails("debug_output", json!({"stream": "console"}))
        .await;
    assert!(bad.contains("\"debugger\""), "{bad}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_failure_is_told_from_the_debuggers_console() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/broken\n\ngo 1.19\n"),
        ("main.go", "package main\n\nfunc main() {\n\tx := 1\n}\n"),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let err = mcp.fails("debug_launch", json!({"program": "."})).await;
    assert!(
        err.contains("It did not compile: main.go:4: ") && err.contains("not used"),
        "{err}"
    );
    let said = mcp.ok("debug_output", json!({"stream": "debugger"})).await;
    assert!(said.contains("Build Error: "), "{said}");
    let out = mcp.ok("debug_output", json!({})).await;
    assert!(!out.contains("Build Error"), "{out}");
    mcp.close().await;
}
