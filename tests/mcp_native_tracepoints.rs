//! Tracepoint messages on the native adapters, end to end through a real
//! MCP client: `{expr}` evaluated in the frame, `{{` `}}` literal braces,
//! `%` as itself, and a failed expression shown as `<error: …>`, on
//! lldb-dap (C) and delve (Go).

mod common;

use common::native::{build_c, lldb_available};
use common::{go_available, mcp_in, stopped_line, workspace};
use serde_json::json;

const C_LOOP: &str = "\
#include <stdio.h>
int main(void) {
    int total = 0;
    for (int i = 0; i < 3; i++) {
        total += i;
    }
    printf(\"end %d\\n\", total);
    return 0;
}
";

const GO_LOOP: &str = "\
package main

import \"fmt\"

func main() {
\ttotal := 0
\tfor i := 0; i < 3; i++ {
\t\ttotal += i
\t}
\tfmt.Println(\"end\", total)
}
";

const TEMPLATE: &str = "i={i} {{lit}} 5% {{{i}}} bad={nope}";

/// The trace lines of tracepoint `id`, in order.
async fn trace_of(mcp: &common::Mcp, id: &str) -> Vec<String> {
    let trace = mcp
        .ok(
            "debug_output",
            json!({"stream": "trace", "max_bytes": 100000}),
        )
        .await;
    trace
        .lines()
        .filter(|l| l.contains(&format!("#{id} hit")))
        .map(str::to_string)
        .collect()
}

fn id_of(text: &str) -> String {
    text.split('#')
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap_or_else(|| panic!("no id in {text}"))
        .to_string()
}

/// Stops at `first`, sets the tracepoint on `line`, runs to `last`, and
/// returns the tracepoint's result and its trace lines.
async fn trace_loop(
    dir: &std::path::Path,
    program: &str,
    file: &str,
    lines: [u64; 3],
) -> (String, Vec<String>) {
    let [first, line, last] = lines;
    let mcp = mcp_in(dir).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": program, "breakpoints": [{"file": file, "line": first}, {"file": file, "line": last}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(first), "{v}");
    let t = mcp
        .ok(
            "tracepoint_set",
            json!({"file": file, "line": line, "log_message": TEMPLATE}),
        )
        .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(stopped_line(&v), Some(last), "tracepoints never stop: {v}");
    let hits = trace_of(&mcp, &id_of(&t)).await;
    let out = mcp.ok("debug_output", json!({})).await;
    assert!(
        !out.contains("nope"),
        "no piece of a hit leaks into the program's output: {out}"
    );
    mcp.close().await;
    (t, hits)
}

/// Three hits in order, each `i={i} {{lit}} 5% {{{i}}} bad={nope}` as
/// documented, the error in the debugger's words, which the result says.
fn assert_native(result: &str, hits: &[String], error: &str) {
    assert!(
        result.contains("shows the debugger's message"),
        "the result says how errors differ: {result}"
    );
    assert_eq!(hits.len(), 3, "{hits:#?}");
    for (i, l) in hits.iter().enumerate() {
        assert!(
            l.ends_with(&format!("i={i} {{lit}} 5% {{{i}}} bad=<error: {error}>")),
            "braces literal, % itself, the error named: {l}"
        );
        assert!(l.contains(&format!("hit {} ", i + 1)), "{l}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_tracepoints_keep_braces_and_percent_and_show_errors() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[("loop.c", C_LOOP)]);
    build_c(&ws.path().join("loop.c"), &ws.path().join("loop"));
    let (t, hits) = trace_loop(ws.path(), "loop", "loop.c", [3, 5, 7]).await;
    assert_native(&t, &hits, "use of undeclared identifier 'nope'");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_tracepoints_keep_braces_and_percent_and_show_errors() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[("go.mod", "module loop\n\ngo 1.20\n"), ("main.go", GO_LOOP)]);
    let (t, hits) = trace_loop(ws.path(), ".", "main.go", [6, 8, 10]).await;
    assert_native(&t, &hits, "could not find symbol value for nope");
}
