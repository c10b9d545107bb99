//! Go on the current toolchain (a `go 1.22` module): generic frames read
//! as Go writes them, with the type arguments read from their receiver and
//! arguments; where nothing tells them, delve's shape name stays.

mod common;

use common::tmux::{Tmux, current_line};
use common::*;
use serde_json::json;

const PROG: &str = "package main

import \"fmt\"

type Number interface{ ~int | ~float64 }

func Sum[T Number](xs []T) T {
\tvar total T
\tfor _, x := range xs {
\t\ttotal += x
\t}
\treturn total
}

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) {
\ts.items = append(s.items, v)
}

func Zero[T any]() T {
\tvar z T
\treturn z
}

func main() {
\ts := &Stack[string]{}
\ts.Push(\"a\")
\tn := Sum([]int{1, 2, 3})
\tfmt.Println(n, len(s.items), Zero[int]())
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generic_frames_name_their_type_arguments() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/generics\n\ngo 1.22\n"),
        ("main.go", PROG),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "breakpoints": [
                {"file": "main.go", "line": 18},
                {"file": "main.go", "line": 12},
                {"file": "main.go", "line": 23}]}),
        )
        .await;
    // The receiver's type gives the method's type argument.
    assert!(
        v.contains("── STOPPED at main.go:18 (main.(*Stack[string]).Push) ──"),
        "{v}"
    );
    assert!(!v.contains("go.shape"), "{v}");
    // Values of generic types keep their type arguments.
    assert_eq!(
        local(&v, "s").as_deref(),
        Some("<Stack[string]: items=nil>"),
        "{v}"
    );

    // An argument's type gives the function's.
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(
        v.contains("── STOPPED at main.go:12 (main.Sum[int]) ──")
            && v.contains("main.Sum[int](xs=[1, 2, 3])"),
        "{v}"
    );
    // Nothing tells Zero's type argument: the shape stays, not a guess.
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(
        v.contains("── STOPPED at main.go:23 (main.Zero[go.shape.int]) ──"),
        "{v}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_stack_names_the_type_arguments() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/generics\n\ngo 1.22\n"),
        ("main.go", PROG),
    ]);
    let t = Tmux::start(
        "go-generics",
        ws.path(),
        &["--break", "main.go:18", "--", "."],
    );
    let s = t
        .wait_for("the stop in the generic method", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(18)
        })
        .await;
    assert!(
        s.contains("main.(*Stack[string]).Push") && !s.contains("go.shape"),
        "{s}"
    );
}
