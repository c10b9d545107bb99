//! Python values as debugpy sends them, rendered at a stop through MCP:
//! each kind of value with its exact text, and diff mode naming a change
//! deep inside a container. Real debugpy, real client.

mod common;

use common::*;
use serde_json::json;

const KINDS: &str = "\
from dataclasses import dataclass


@dataclass
class Item:
    id: int
    name: str


def main():
    item = Item(1, 'hammer')
    items = [Item(1, 'hammer'), Item(2, 'saw'), Item(3, 'drill')]
    balances = {'food': -325, 'rent': 1200, 'fun': 50}
    results = []
    many = list(range(50))
    nothing = None
    label = 'new'
    small = 2
    tags = ['new', 'vip']
    print(len(items))


main()
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_kind_of_value_reads_as_the_person_expects() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("kinds.py", KINDS)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "kinds.py", "breakpoints": [{"file": "kinds.py", "line": 20}]}),
        )
        .await;
    let expected = [
        ("item", "<Item: id=1, name=\"hammer\">"),
        (
            "items",
            "[Item {id: 1, name: \"hammer\"}, Item {id: 2, name: \"saw\"}, Item {id: 3, name: \"drill\"}]",
        ),
        ("balances", "{\"food\": -325, \"rent\": 1200, \"fun\": 50}"),
        ("many", "[0, 1, 2, 3, 4, ...] (50 items)"),
        ("results", "[]"),
        ("nothing", "None"),
        ("label", "\"new\""),
        ("small", "2"),
        ("tags", "[\"new\", \"vip\"]"),
    ];
    for (name, value) in expected {
        let line = format!("  {name:<8}  = {value}\n");
        assert!(v.contains(&line), "missing `{line}` in:\n{v}");
    }
    mcp.close().await;
}

const PARTS: &str = "\
def main():
    parts = ['1', '2', '3', '4', '5', '6', '', '8']
    total = 0
    parts[6] = '167'
    total += 1
    print(total, parts)


main()
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn diff_mode_names_a_change_inside_a_list() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("parts.py", PARTS)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({
                "program": "parts.py",
                "breakpoints": [{"file": "parts.py", "line": 4}],
                "viewport_config": {"diff_mode": true}
            }),
        )
        .await;
    assert!(v.contains("── STOPPED at parts.py:4"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "over"})).await;
    assert!(v.contains("(same frame)"), "{v}");
    assert!(
        v.contains("parts[6]: \"\" → \"167\""),
        "the change inside the list is named: {v}"
    );
    assert!(v.contains("(1 locals unchanged)"), "{v}");
    mcp.close().await;
}
