//! The agent types into the program: a line sent with `debug_input` is
//! what the program reads on its stdin, on each adapter, and the answer
//! comes back through `debug_output` with stderr still told apart.

mod common;

use common::native::*;
use common::*;
use serde_json::json;

const PY: &str = "\
import sys
print('name? ', end='', flush=True)
name = input()
print('hello', name)
print('to stderr', file=sys.stderr)
";

const C: &str = "\
#include <stdio.h>
int main(void) {
    char line[64];
    printf(\"name? \");
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin)) return 2;
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

/// All the output once it contains `needle` (a build and a start may take
/// long on a loaded machine: 90 s at most).
async fn output_with(mcp: &Mcp, needle: &str) -> String {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(90);
    loop {
        let out = mcp.ok("debug_output", json!({})).await;
        if out.contains(needle) || tokio::time::Instant::now() > deadline {
            return out;
        }
        tokio::task::yield_now().await;
    }
}

/// Launches `program`, waits for its prompt, types a name and reads the
/// greeting; returns all the output.
async fn greet(mcp: &Mcp, program: &str) -> String {
    // It waits for its input, so no stop comes: the launch answers running.
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": program, "timeout_ms": 1000}),
        )
        .await;
    assert!(v.contains("RUNNING") || v.contains("STOPPED"), "{v}");
    let out = output_with(mcp, "name? ").await;
    assert!(out.contains("name? "), "the prompt shows: {out}");
    let r = mcp.ok("debug_input", json!({"text": "Ada"})).await;
    assert!(r.contains("Typed 4 bytes"), "{r}");
    let out = output_with(mcp, "hello Ada").await;
    assert!(
        out.contains("hello Ada"),
        "the program read the line: {out}"
    );
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_types_a_line_that_python_input_reads() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("ask.py", PY)]);
    let mcp = mcp_in(ws.path()).await;
    let out = greet(&mcp, "ask.py").await;
    assert!(!out.contains("EOFError"), "{out}");
    let out = output_with(&mcp, "to stderr").await;
    assert!(
        out.lines()
            .any(|l| l.contains("to stderr") && l.contains("[stderr]")),
        "stderr is marked apart: {out}"
    );
    assert!(
        out.lines().any(|l| l.starts_with("hello Ada")),
        "stdout is not: {out}"
    );
    // Each line once: the terminal shows it, the adapter's copy is dropped.
    assert_eq!(out.matches("hello Ada").count(), 1, "{out}");
    let v = mcp.ok("debug_wait", json!({})).await;
    assert!(v.contains("EXITED"), "{v}");
    let e = mcp.fails("debug_input", json!({"text": "late"})).await;
    assert!(e.contains("cannot send input"), "{e}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_types_a_line_that_c_fgets_reads() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[("ask.c", C)]);
    build_c(&ws.path().join("ask.c"), &ws.path().join("ask"));
    let mcp = mcp_in(ws.path()).await;
    greet(&mcp, "ask").await;
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_types_a_line_that_a_go_scanner_reads() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/ask\n\ngo 1.19\n"),
        ("main.go", GO),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let out = greet(&mcp, ".").await;
    assert!(
        !out.contains("DAP server listening"),
        "delve's own lines stay out: {out}"
    );
    mcp.close().await;
}
