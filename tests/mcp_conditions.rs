//! Breakpoint conditions on every adapter: one that does not compile is
//! refused when set, naming the problem; one that fails when the program
//! reaches it is told once, in the next tool result.

mod common;

use common::native::*;
use common::*;
use serde_json::json;

/// Sets `condition` on `file:line` and expects the refusal to name the
/// condition field and `problem`.
async fn refused(mcp: &Mcp, file: &str, line: u64, condition: &str, problem: &str) {
    let r = mcp
        .fails(
            "breakpoint_set",
            json!({"file": file, "line": line, "condition": condition}),
        )
        .await;
    assert!(
        r.contains("condition") && r.contains(problem),
        "{condition}: {r}"
    );
    // Refused means not set.
    let list = mcp.ok("breakpoint_list", json!({})).await;
    assert!(!list.contains(condition), "{list}");
}

const PY: &str = "\
total = 0
for i in range(5):
    total += i
print(total)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_bad_condition_is_refused() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("loop.py", PY)]);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": "loop.py", "breakpoints": [{"file": "loop.py", "line": 3}]}),
    )
    .await;
    refused(&mcp, "loop.py", 3, "i >== 3", "invalid syntax").await;
    mcp.close().await;
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
async fn go_bad_condition_is_refused() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[("main.go", GO), ("go.mod", "module cond\n\ngo 1.21\n")]);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": ".", "breakpoints": [{"file": "main.go", "line": 8}]}),
    )
    .await;
    refused(&mcp, "main.go", 8, "i >== 3", "expected operand").await;
    let ok = mcp
        .ok(
            "breakpoint_set",
            json!({"file": "main.go", "line": 8, "condition": "i == 3"}),
        )
        .await;
    assert!(ok.contains("if i == 3"), "{ok}");
    mcp.close().await;
}

/// Launches with a breakpoint whose condition does not compile and
/// expects the refusal to name that breakpoint's condition and `problem`;
/// the program never ran, so a good launch after it starts afresh.
async fn launch_refused(mcp: &Mcp, program: &str, file: &str, line: u64, problem: &str) {
    let r = mcp
        .fails(
            "debug_launch",
            json!({"program": program, "breakpoints": [
                {"file": file, "line": line},
                {"file": file, "line": line, "condition": "i >== 3"},
            ]}),
        )
        .await;
    assert!(
        r.contains("breakpoints[1].condition") && r.contains(problem),
        "{r}"
    );
    let ok = mcp
        .ok(
            "debug_launch",
            json!({"program": program, "breakpoints": [
                {"file": file, "line": line, "condition": "i == 3"},
            ]}),
        )
        .await;
    assert_eq!(stopped_line(&ok), Some(line), "{ok}");
    assert!(squash(&ok).contains("i = 3"), "{ok}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_launch_with_a_bad_condition_is_refused() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("loop.py", PY)]);
    let mcp = mcp_in(ws.path()).await;
    launch_refused(&mcp, "loop.py", "loop.py", 3, "invalid syntax").await;
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_launch_with_a_bad_condition_is_refused() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[("main.go", GO), ("go.mod", "module cond\n\ngo 1.21\n")]);
    let mcp = mcp_in(ws.path()).await;
    launch_refused(&mcp, ".", "main.go", 8, "expected operand").await;
    mcp.close().await;
}

const JS: &str = "\
let total = 0;
for (let i = 0; i < 5; i++) {
  total += i;
}
console.log(total);
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn javascript_bad_condition_is_refused_and_a_throwing_one_told_once() {
    let Some((_ws, mcp)) = js_mcp(&[("loop.js", JS)]).await else {
        return;
    };
    mcp.ok(
        "debug_launch",
        json!({"program": "loop.js", "breakpoints": [{"file": "loop.js", "line": 1}]}),
    )
    .await;
    refused(&mcp, "loop.js", 3, "i >== 3", "Unexpected token").await;
    mcp.ok(
        "breakpoint_set",
        json!({"file": "loop.js", "line": 3, "condition": "nosuch.x == 3"}),
    )
    .await;
    // js-debug does not stop on a condition that throws: the program ends.
    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(
        v.matches(
            "Warning: breakpoint #2's condition \"nosuch.x == 3\" raised nosuch is not defined"
        )
        .count(),
        1,
        "{v}"
    );
    let again = mcp.ok("breakpoint_list", json!({})).await;
    assert!(!again.contains("Warning:"), "told once: {again}");
    let out = mcp.ok("debug_output", json!({})).await;
    assert!(!out.contains("Breakpoint condition error"), "{out}");
    mcp.close().await;
}

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
async fn c_bad_condition_is_refused_and_a_failing_one_told_once() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[("loop.c", C)]);
    build_c(&ws.path().join("loop.c"), &ws.path().join("loop"));
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": "loop", "breakpoints": [{"file": "loop.c", "line": 4}]}),
    )
    .await;
    refused(&mcp, "loop.c", 6, "i >== 3", "expected expression").await;
    // A name unknown here may be known where the breakpoint is: set, and
    // told of when it fails there.
    mcp.ok(
        "breakpoint_set",
        json!({"file": "loop.c", "line": 6, "condition": "nosuch == 3"}),
    )
    .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(stopped_line(&v), Some(6), "{v}");
    assert_eq!(
        v.matches("Warning: breakpoint #2's condition \"nosuch == 3\" raised use of undeclared identifier 'nosuch'")
            .count(),
        1,
        "{v}"
    );
    let again = mcp.ok("breakpoint_list", json!({})).await;
    assert!(!again.contains("Warning:"), "told once: {again}");
    mcp.close().await;
}

/// delve reports a condition that fails when reached as a `runtime error`
/// exception stop: it reads as the breakpoint's stop, its condition's
/// error warned of once, not as the program's exception.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_failing_condition_is_a_condition_error_stop() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[("main.go", GO), ("go.mod", "module cond\n\ngo 1.21\n")]);
    let mcp = mcp_in(ws.path()).await;
    // gofmt parses it; only delve, at the breakpoint, finds no such name.
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "breakpoints": [
                {"file": "main.go", "line": 8, "condition": "undefinedName > 1"},
            ]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(8), "{v}");
    assert!(v.contains("Reason: breakpoint"), "{v}");
    assert!(
        !v.contains("Exception:") && !v.contains("runtime error"),
        "{v}"
    );
    assert_eq!(
        v.matches(
            "Warning: breakpoint #1's condition \"undefinedName > 1\" raised could not find symbol value for undefinedName"
        )
        .count(),
        1,
        "{v}"
    );
    let again = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(stopped_line(&again), Some(8), "{again}");
    assert!(!again.contains("Exception:"), "{again}");
    assert!(!again.contains("Warning:"), "told once: {again}");
    mcp.close().await;
}
