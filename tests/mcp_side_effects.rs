//! Expressions that may change the program need `allow_side_effects: true`,
//! in every tool that runs one; plain reads and debug_set_variable do not.

mod common;

use common::native::*;
use common::*;
use serde_json::json;

const PROG: &str = "\
import os


def work(items):
    total = sum(items)
    return total


work([1, 2, 3])
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_side_effects_need_the_flag() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("work.py", PROG)]);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": "work.py", "breakpoints": [{"file": "work.py", "line": 6}]}),
    )
    .await;
    let refused = mcp
        .fails("debug_evaluate", json!({"expression": "items.pop()"}))
        .await;
    assert!(
        refused.contains("expression")
            && refused.contains("calls `pop`")
            && refused.contains("allow_side_effects: true"),
        "{refused}"
    );
    // A call inside an f-string's placeholder is a call too.
    let refused = mcp
        .fails(
            "debug_evaluate",
            json!({"expression": "f\"last={items.pop()}\""}),
        )
        .await;
    assert!(
        refused.contains("calls `pop` in a format string")
            && refused.contains("allow_side_effects: true"),
        "{refused}"
    );
    // Calls known to change nothing need no flag.
    let pid = mcp
        .ok("debug_evaluate", json!({"expression": "os.getpid() > 0"}))
        .await;
    assert!(pid.contains("True"), "{pid}");
    let r = mcp
        .fails("debug_evaluate", json!({"expression": "os.system('true')"}))
        .await;
    assert!(r.contains("calls `system`"), "{r}");
    // Refused means not run: the list is whole.
    let len = mcp
        .ok("debug_evaluate", json!({"expression": "len(items) == 3"}))
        .await;
    assert!(len.contains("True"), "{len}");
    for (tool, args, field) in [
        (
            "debug_evaluate",
            json!({"expression": "total = 0"}),
            "expression",
        ),
        (
            "debug_evaluate",
            json!({"expression": "del items[0]"}),
            "expression",
        ),
        ("debug_watch", json!({"add": ["items.append(4)"]}), "add"),
        (
            "debug_run_until",
            json!({"expression": "items.pop()"}),
            "expression",
        ),
        (
            "debug_variables",
            json!({"expand": "items.copy()"}),
            "expand",
        ),
    ] {
        let r = mcp.fails(tool, args).await;
        assert!(
            r.contains(field) && r.contains("allow_side_effects"),
            "{tool}: {r}"
        );
    }
    let ran = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "items.pop()", "allow_side_effects": true}),
        )
        .await;
    assert!(ran.contains('3'), "{ran}");
    let len = mcp
        .ok("debug_evaluate", json!({"expression": "len(items)"}))
        .await;
    assert!(len.contains("len(items) = 2"), "{len}");
    // Setting a variable is a side effect by its nature: no flag.
    mcp.ok(
        "debug_set_variable",
        json!({"name": "total", "value": "99"}),
    )
    .await;
    mcp.close().await;
}

const C_PROG: &str = r#"#include <stdio.h>

int main(void) {
    const char *name = "hello";
    int count = 4;
    printf("%d %s\n", count, name);
    return 0;
}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_increments_and_calls_need_the_flag() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[("count.c", C_PROG)]);
    build_c(&ws.path().join("count.c"), &ws.path().join("count"));
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": "count", "breakpoints": [{"file": "count.c", "line": 6}]}),
    )
    .await;
    let r = mcp
        .fails("debug_evaluate", json!({"expression": "count++"}))
        .await;
    assert!(
        r.contains("uses `++`") && r.contains("allow_side_effects"),
        "{r}"
    );
    let r = mcp
        .fails("debug_evaluate", json!({"expression": "puts(\"hi\")"}))
        .await;
    assert!(r.contains("calls `puts`"), "{r}");
    let r = mcp
        .ok("debug_evaluate", json!({"expression": "count + 1"}))
        .await;
    assert!(r.contains('5'), "{r}");
    // strlen changes nothing (lldb wants its return type, libc has no
    // debug information).
    let r = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "(unsigned long)strlen(name)"}),
        )
        .await;
    assert!(r.contains("= 5"), "{r}");
    let r = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "count += 2", "allow_side_effects": true}),
        )
        .await;
    assert!(r.contains('6'), "{r}");
    mcp.close().await;
}

const GO_PROG: &str = "package main

import \"fmt\"

func twice(n int) int {
\treturn n * 2
}

func main() {
\txs := []int{1, 2, 3}
\ttotal := 0
\tfmt.Println(total, xs, twice(1))
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_builtins_run_and_calls_run_once_allowed() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("main.go", GO_PROG),
        ("go.mod", "module calls\n\ngo 1.21\n"),
    ]);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": ".", "breakpoints": [{"file": "main.go", "line": 12}]}),
    )
    .await;
    let r = mcp
        .ok("debug_evaluate", json!({"expression": "len(xs) + cap(xs)"}))
        .await;
    assert!(r.contains("len(xs) + cap(xs) = 6"), "{r}");
    for (e, says) in [
        ("twice(4)", "calls `twice`"),
        ("total = 3", "assigns with `=`"),
    ] {
        let r = mcp.fails("debug_evaluate", json!({"expression": e})).await;
        assert!(r.contains(says) && r.contains("allow_side_effects"), "{r}");
    }
    // delve runs a call only in its `call` form; the person writes the
    // call as Go.
    let r = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "twice(21)", "allow_side_effects": true}),
        )
        .await;
    assert!(r.contains("twice(21) = 42"), "{r}");
    let r = mcp
        .ok("debug_evaluate", json!({"expression": "total"}))
        .await;
    assert!(r.contains("total = 0"), "{r}");
    mcp.close().await;
}

const JS_PROG: &str = "\
const items = [{ qty: 5 }, { qty: 150 }];
const label = 'axb';
let total = 0;
for (let i = 0; i < 2; i++) {
  total += items[i].qty;
}
console.log(total, label);
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn javascript_asks_v8_whether_a_call_is_pure() {
    let Some((_ws, mcp)) = js_mcp(&[("prog.js", JS_PROG)]).await else {
        return;
    };
    mcp.ok(
        "debug_launch",
        json!({"program": "prog.js", "breakpoints": [{"file": "prog.js", "line": 7}]}),
    )
    .await;
    let r = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "items.find(i => i.qty > 100).qty"}),
        )
        .await;
    assert!(r.contains("= 150"), "{r}");
    let r = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "label.match(/x/).index"}),
        )
        .await;
    assert!(r.contains("= 1"), "{r}");
    for (e, says) in [
        ("items.push(3)", "calls `push`"),
        ("total = 7", "assigns with `=`"),
    ] {
        let r = mcp.fails("debug_evaluate", json!({"expression": e})).await;
        assert!(
            r.contains(says) && r.contains("own check") && r.contains("allow_side_effects"),
            "{r}"
        );
    }
    let r = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "items.length + total"}),
        )
        .await;
    assert!(r.contains("= 157"), "refused means not run: {r}");
    let r = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "items.push(3)", "allow_side_effects": true}),
        )
        .await;
    assert!(r.contains("= 3"), "{r}");
    mcp.close().await;
}
