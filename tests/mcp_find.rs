//! debug_find through a real MCP client: an agent finds where to put a
//! breakpoint without reading files, then sets it at a hit.

mod common;

use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finds_definitions_and_text_in_the_workspace() {
    let ws = workspace(&[
        (
            "app/order.py",
            "class Cart:\n    pass\n\ndef calculate_discount(user, subtotal):\n    return 0\n\ndef main():\n    calculate_discount(None, 1)\n",
        ),
        (
            "native/shop.c",
            "struct item {\n    int price;\n};\n\nstatic int subtotal(struct item *items, int n)\n{\n    return subtotal(items, n - 1);\n}\n",
        ),
        (
            "build/generated.py",
            "def calculate_discount():\n    pass\n",
        ),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let out = mcp
        .ok(
            "debug_find",
            json!({"pattern": "discount", "kind": "function"}),
        )
        .await;
    assert_eq!(
        out.trim(),
        "app/order.py:4  def calculate_discount(user, subtotal):",
        "a definition, not its call, and nothing from build output"
    );
    let out = mcp
        .ok("debug_find", json!({"pattern": "item", "kind": "class"}))
        .await;
    assert!(out.starts_with("native/shop.c:1  struct item {"), "{out}");
    let out = mcp
        .ok(
            "debug_find",
            json!({"pattern": "subtotal", "max_results": 1}),
        )
        .await;
    assert!(out.contains("app/order.py:4"), "{out}");
    assert!(out.contains("and 2 more"), "{out}");
    let out = mcp
        .ok("debug_find", json!({"pattern": "no_such_name"}))
        .await;
    assert!(out.contains("No match") && out.contains("2 files"), "{out}");
    let msg = mcp
        .fails("debug_find", json!({"pattern": "x", "max_results": 500}))
        .await;
    assert!(msg.contains("max_results") && msg.contains("200"), "{msg}");
    mcp.close().await;
}

/// With just_my_code off, a search reaches the modules the program has
/// loaded: an agent can find where to break inside a library.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_just_my_code_off_the_loaded_modules_are_searched_too() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[(
        "app.py",
        "import json\n\nrecord = json.loads('{\"a\": 1}')\nprint(record)\n",
    )]);
    for (just_my_code, wanted) in [(true, false), (false, true)] {
        let mcp = mcp_in(ws.path()).await;
        mcp.ok(
            "debug_launch",
            json!({"program": "app.py", "just_my_code": just_my_code,
                   "breakpoints": [{"file": "app.py", "line": 4}]}),
        )
        .await;
        let out = mcp
            .ok(
                "debug_find",
                json!({"pattern": "JSONDecoder", "kind": "class"}),
            )
            .await;
        let found = out
            .lines()
            .any(|l| l.contains("json/decoder.py:") && l.contains("class JSONDecoder"));
        assert_eq!(found, wanted, "just_my_code {just_my_code}: {out}");
        mcp.close().await;
    }
}
