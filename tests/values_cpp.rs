//! C++ values as lldb-dap sends them, rendered at a stop through MCP:
//! each kind of value with its exact text. Real lldb-dap, real client.

mod common;

use common::native::*;
use common::*;
use serde_json::json;

const KINDS: &str = r#"#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

struct Item {
    int id;
    const char *name;
};

int main() {
    Item item = {1, "hammer"};
    std::vector<Item> items = {{1, "hammer"}, {2, "saw"}, {3, "drill"}};
    std::map<std::string, int> balances = {{"food", -325}, {"rent", 1200}, {"fun", 50}};
    std::vector<int> results;
    Item *missing = nullptr;
    uint8_t small = 2;
    std::string label = "new";
    std::printf("%d %zu %zu %zu %p %d %s\n", item.id, items.size(), balances.size(),
                results.size(), (void *)missing, small, label.c_str());
    return 0;
}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_kind_of_value_reads_as_the_person_expects() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[("kinds.cpp", KINDS)]);
    build_cpp(&ws.path().join("kinds.cpp"), &ws.path().join("kinds"));
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "kinds", "breakpoints": [{"file": "kinds.cpp", "line": 20}]}),
        )
        .await;
    eprintln!("{v}");
    let expected = [
        ("item", "<Item: id=1, name=\"hammer\">"),
        (
            "items",
            "[Item {id: 1, name: \"hammer\"}, Item {id: 2, name: \"saw\"}, Item {id: 3, name: \"drill\"}]",
        ),
        ("balances", "{\"food\": -325, \"fun\": 50, \"rent\": 1200}"),
        ("results", "[]"),
        ("missing", "NULL"),
        ("small", "2"),
        ("label", "\"new\""),
    ];
    for (name, value) in expected {
        assert_eq!(local(&v, name).as_deref(), Some(value), "{name} in:\n{v}");
    }
    // Evaluated by name, a value reads as it does among the locals.
    for (name, value) in [expected[1], expected[2]] {
        let e = mcp.ok("debug_evaluate", json!({"expression": name})).await;
        assert!(e.starts_with(&format!("{name} = {value}  (")), "{e}");
    }
    mcp.close().await;
}
