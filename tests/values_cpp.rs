//! C++ values as lldb-dap and gdb send them, rendered at a stop through MCP:
//! each kind of value with its exact text. Real adapters, real client.

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

const MAPS: &str = r#"#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

int main() {
    std::map<std::string, int> balances = {{"food", -325}, {"rent", 1200}};
    std::map<int, std::string> names = {{1, "one"}, {2, "two"}};
    std::map<std::string, std::vector<int>> groups = {{"odd", {1, 3}}, {"even", {2, 4, 6}}};
    std::unordered_map<std::string, int> stock = {{"saw", 4}};
    std::multimap<int, int> repeats = {{1, 10}, {1, 11}, {2, 20}};
    std::printf("%zu %zu %zu %zu %zu\n", balances.size(), names.size(), groups.size(),
                stock.size(), repeats.size());
    return 0;
}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_map_expands_to_rows_named_by_their_keys() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[("maps.cpp", MAPS)]);
    build_cpp(&ws.path().join("maps.cpp"), &ws.path().join("maps"));
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "maps", "breakpoints": [{"file": "maps.cpp", "line": 13}]}),
        )
        .await;
    assert_eq!(
        local(&v, "balances").as_deref(),
        Some("{\"food\": -325, \"rent\": 1200}"),
        "{v}"
    );
    // Each entry is a row named by its key, holding its mapped value.
    let rows = mcp
        .ok("debug_variables", json!({"expand": "balances"}))
        .await;
    assert!(rows.contains("  [\"food\"] = -325  (int)"), "{rows}");
    assert!(rows.contains("  [\"rent\"] = 1200  (int)"), "{rows}");
    assert!(!rows.contains("<pair>") && !rows.contains("_M_t"), "{rows}");
    let rows = mcp.ok("debug_variables", json!({"expand": "names"})).await;
    assert!(rows.contains("  [1] = \"one\""), "{rows}");
    assert!(rows.contains("  [2] = \"two\""), "{rows}");
    let rows = mcp.ok("debug_variables", json!({"expand": "stock"})).await;
    assert!(rows.contains("  [\"saw\"] = 4  (int)"), "{rows}");
    // Repeated keys say which of their key's entries each is.
    let rows = mcp
        .ok("debug_variables", json!({"expand": "repeats"}))
        .await;
    assert!(rows.contains("  [1] (1 of 2) = 10"), "{rows}");
    assert!(rows.contains("  [1] (2 of 2) = 11"), "{rows}");
    assert!(rows.contains("  [2] = 20"), "{rows}");
    // A mapped value that is a container opens through the path its row
    // prints.
    let rows = mcp.ok("debug_variables", json!({"expand": "groups"})).await;
    let line = rows
        .lines()
        .find(|l| l.trim_start().starts_with("[\"even\"] = [2, 4, 6]"))
        .unwrap_or_else(|| panic!("an even row in:\n{rows}"));
    let path = line
        .split("▸ expand=")
        .nth(1)
        .unwrap_or_else(|| panic!("a path in {line}"));
    assert_eq!(path, "groups[\"even\"]");
    let items = mcp.ok("debug_variables", json!({"expand": path})).await;
    assert!(items.contains("  [0] = 2"), "{items}");
    assert!(items.contains("  [2] = 6"), "{items}");
    mcp.close().await;
}

/// gdb reads the standard library's containers through the printers
/// libstdc++ installs for the system's gdb: a map is a map there too, its
/// entries rows named by their keys.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_gdb_standard_containers_read_as_their_contents() {
    if !gdb_available() {
        return;
    }
    let ws = workspace(&[("maps.cpp", MAPS)]);
    build_cpp(&ws.path().join("maps.cpp"), &ws.path().join("maps"));
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "maps", "adapter": "gdb",
                   "breakpoints": [{"file": "maps.cpp", "line": 13}]}),
        )
        .await;
    let expected = [
        ("balances", "{\"food\": -325, \"rent\": 1200}"),
        ("names", "{1: \"one\", 2: \"two\"}"),
        ("groups", "{\"even\": [2, 4, 6], \"odd\": [1, 3]}"),
        ("stock", "{\"saw\": 4}"),
        ("repeats", "{1: 10, 1: 11, 2: 20}"),
    ];
    for (name, value) in expected {
        assert_eq!(local(&v, name).as_deref(), Some(value), "{name} in:\n{v}");
    }
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "groups"}))
        .await;
    assert!(
        e.starts_with(&format!("groups = {}  (", expected[2].1)),
        "{e}"
    );
    let rows = mcp
        .ok("debug_variables", json!({"expand": "balances"}))
        .await;
    assert!(rows.contains("  [\"food\"] = -325  (int)"), "{rows}");
    assert!(rows.contains("  [\"rent\"] = 1200  (int)"), "{rows}");
    let rows = mcp
        .ok("debug_variables", json!({"expand": "repeats"}))
        .await;
    assert!(rows.contains("  [1] (1 of 2) = 10"), "{rows}");
    assert!(rows.contains("  [1] (2 of 2) = 11"), "{rows}");
    assert!(rows.contains("  [2] = 20"), "{rows}");
    let rows = mcp.ok("debug_variables", json!({"expand": "groups"})).await;
    assert!(
        rows.contains("  [\"even\"] = [2, 4, 6]  (std::vector<int, std::allocator<int> >)  ▸ expand=groups[\"even\"]"),
        "{rows}"
    );
    let items = mcp
        .ok("debug_variables", json!({"expand": "groups[\"even\"]"}))
        .await;
    assert!(items.contains("  [2] = 6"), "{items}");
    mcp.close().await;
}
