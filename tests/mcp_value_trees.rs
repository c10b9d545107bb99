//! The JSON viewport gives each value's tree beside its text: a Rust enum
//! gdb sends as parts is a variant with its payload, a Go slice a sequence
//! with its count and items. Real adapters, real binary, real MCP client.

mod common;

use common::native::*;
use common::*;
use serde_json::{Value, json};

/// The JSON viewport at the current stop, without the session footer.
async fn json_viewport(mcp: &Mcp) -> Value {
    let j = mcp.ok("debug_status", json!({"format": "json"})).await;
    let body = j.rsplit_once("\n[session ").map_or(j.as_str(), |(b, _)| b);
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {j}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rust_enum_is_a_variant_with_its_payload() {
    if !gdb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_rust_values(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let line = rust_values_line("println!(\"{:?} {:?} {:?} {:?} {:?}\"");
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "values", "breakpoints": [{"file": "src/main.rs", "line": line}]}),
        )
        .await;
    assert!(v.contains(&format!("src/main.rs:{line}")), "{v}");
    let j = json_viewport(&mcp).await;
    let found = &j["locals"]["found"];
    assert_eq!(
        found["value"], "Some(Item {id: 42, name: \"saw\"})",
        "{found}"
    );
    let tree = &found["tree"];
    assert_eq!(tree["kind"], "variant", "{tree}");
    assert_eq!(tree["name"], "Some", "{tree}");
    let item = &tree["items"][0];
    assert_eq!(item["kind"], "object", "{tree}");
    assert_eq!(item["type"], "main::Item", "{tree}");
    assert_eq!(
        item["fields"][0],
        json!({"name": "id", "value": {"kind": "atom", "text": "42"}})
    );
    assert_eq!(item["fields"][1]["value"]["text"], "saw", "{tree}");
    assert_eq!(
        j["locals"]["none"]["tree"],
        json!({"kind": "variant", "name": "None", "items": [], "cut": false})
    );
    let food = &j["locals"]["c_food"]["tree"];
    assert_eq!(food["name"], "Cat::Food", "{food}");
    assert_eq!(food["items"][0]["fields"][1]["name"], "days", "{food}");
    mcp.close().await;
}

const SLICES: &str = "\
package main

import \"fmt\"

type Item struct {
\tID   int
\tName string
}

func main() {
\titems := []Item{{1, \"hammer\"}, {2, \"saw\"}, {3, \"drill\"}}
\tcodes := []int{3, 1, 4, 1, 5, 9, 2}
\tfmt.Println(items, codes)
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_slice_is_a_sequence_with_its_count_and_items() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/slices\n\ngo 1.19\n"),
        ("main.go", SLICES),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "breakpoints": [{"file": "main.go", "line": 13}]}),
        )
        .await;
    assert!(v.contains("main.go:13"), "{v}");
    let j = json_viewport(&mcp).await;
    let items = &j["locals"]["items"]["tree"];
    assert_eq!(items["kind"], "sequence", "{items}");
    assert_eq!(items["type"], "[]Item", "{items}");
    assert_eq!(items["count"], 3, "{items}");
    assert_eq!(items["cut"], false, "{items}");
    assert_eq!(items["items"][2]["kind"], "object", "{items}");
    assert_eq!(items["items"][2]["fields"][1]["name"], "Name", "{items}");
    assert_eq!(
        items["items"][2]["fields"][1]["value"]["text"], "drill",
        "{items}"
    );
    let codes = &j["locals"]["codes"];
    assert_eq!(codes["value"], "[3, 1, 4, 1, 5, ...] (7 items)", "{codes}");
    assert_eq!(codes["tree"]["count"], 7, "{codes}");
    assert_eq!(codes["tree"]["cut"], true, "{codes}");
    let shown: Vec<&str> = codes["tree"]["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["text"].as_str())
        .collect();
    assert_eq!(shown, ["3", "1", "4", "1", "5"], "{codes}");
    mcp.close().await;
}
