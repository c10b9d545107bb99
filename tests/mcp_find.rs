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
        "app/order.py:4  def calculate_discount(user, subtotal):\n(matched in its case)",
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
    assert!(
        out.contains("No match") && out.contains("2 files, in any case"),
        "{out}"
    );
    let msg = mcp
        .fails("debug_find", json!({"pattern": "x", "max_results": 500}))
        .await;
    assert!(msg.contains("max_results") && msg.contains("200"), "{msg}");
    mcp.close().await;
}

/// A class's methods are definitions too; a name in another case is found
/// when nothing matches in its own, and the answer says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finds_class_methods_and_says_when_case_was_ignored() {
    let ws = workspace(&[(
        "shapes.js",
        "class Circle {\n  constructor(r) { this.r = r; }\n  grow(by) {\n    if (by > 0) {\n      this.r += by;\n    }\n  }\n}\nnew Circle(1).grow(2);\n",
    )]);
    let mcp = mcp_in(ws.path()).await;
    let out = mcp
        .ok("debug_find", json!({"pattern": "grow", "kind": "function"}))
        .await;
    assert_eq!(
        out.trim(),
        "shapes.js:3  grow(by) {\n(matched in its case)",
        "the method, not its call"
    );
    let out = mcp
        .ok("debug_find", json!({"pattern": "GROW", "kind": "function"}))
        .await;
    assert_eq!(
        out.trim(),
        "No match for \"GROW\" in its case; ignoring case:\nshapes.js:3  grow(by) {"
    );
    let out = mcp.ok("debug_find", json!({"pattern": "circle"})).await;
    assert!(
        out.starts_with(
            "No match for \"circle\" in its case; ignoring case:\nshapes.js:1  class Circle {"
        ),
        "{out}"
    );
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
