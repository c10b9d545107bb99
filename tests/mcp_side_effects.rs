//! Expressions that may change the program need `allow_side_effects: true`,
//! in every tool that runs one; plain reads and debug_set_variable do not.

mod common;

use common::native::*;
use common::*;
use serde_json::json;

const PROG: &str = "\
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
        json!({"program": "work.py", "breakpoints": [{"file": "work.py", "line": 3}]}),
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
    int count = 4;
    printf("%d\n", count);
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
        json!({"program": "count", "breakpoints": [{"file": "count.c", "line": 5}]}),
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
    let r = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "count += 2", "allow_side_effects": true}),
        )
        .await;
    assert!(r.contains('6'), "{r}");
    mcp.close().await;
}
