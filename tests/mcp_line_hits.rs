//! A breakpoint on a line with a function literal: delve binds it in the
//! line's function and in the literal, so one execution of the line stops
//! once there and once in each call of the literal. That is one hit, and
//! the stop says which.

mod common;

use common::*;
use serde_json::json;

const GO: &str = "package main

import \"fmt\"

func apply(xs []int, f func(int) int) int {
\tt := 0
\tfor _, x := range xs {
\t\tt += f(x)
\t}
\treturn t
}

func main() {
\txs := []int{1, 2, 3}
\tfor round := 0; round < 2; round++ {
\t\ttotal := apply(xs, func(x int) int { return x * 2 })
\t\tfmt.Println(\"round\", round, total)
\t}
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_execution_of_a_line_with_a_literal_is_one_hit() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/hits\n\ngo 1.19\n"),
        ("main.go", GO),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let mut v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "breakpoints": [{"file": "main.go", "line": 16}]}),
        )
        .await;
    // Each round: the line's own stop, then one in each of the three calls
    // of the literal.
    let mut seen = vec![];
    while v.contains("── STOPPED") {
        let function = stopped_function(&v).unwrap_or_default();
        let reason = v
            .lines()
            .find_map(|l| l.strip_prefix("Reason: "))
            .unwrap_or_default()
            .to_string();
        seen.push(format!("{function}: {reason}"));
        v = mcp.ok("debug_continue", json!({})).await;
    }
    let round = |n: u32| {
        vec![
            format!("main.main: breakpoint #1, hit {n}"),
            format!("main.main.func1: breakpoint #1, hit {n}"),
            format!("main.main.func1: breakpoint #1, hit {n}"),
            format!("main.main.func1: breakpoint #1, hit {n}"),
        ]
    };
    assert_eq!(seen, [round(1), round(2)].concat(), "{v}");
    let list = mcp.ok("breakpoint_list", json!({})).await;
    assert!(
        list.contains("#1 blocking main.go:16 enabled verified hits 2"),
        "{list}"
    );
    mcp.close().await;
}
