//! Node values at a live stop, read through a real js-debug and rendered
//! by the viewport's rules: a Map, undefined, null, a string, a nested
//! object shown whole where it fits, and an array of objects; Maps, Sets
//! and classes as Chrome writes them, and a call with no arguments.

mod common;

use common::*;
use serde_json::json;

const PROG: &str = r#"function report() {
  const m = new Map([["apples", 3]]);
  const u = undefined;
  const z = null;
  const name = "widget";
  const order = { id: 7, Tags: ["new", "vip"], customer: { name: "Ada", tier: "gold" } };
  const items = [{ sku: "a", qty: 1 }, { sku: "b", qty: 2 }, { sku: "c", qty: 3 }];
  return [m, u, z, name, order, items].length;  // line 8
}
report();

class Item {
  constructor(id) { this.id = id; }
}
class Special extends Item {}

function kinds() {
  const pairs = new Map([["a", 1], ["b", 2]]);
  const deep = new Map([["x", { a: { b: 1 } }]]);
  const ids = new Set([1, 2]);
  const cls = Item;
  const sub = Special;
  const add = function add(a, b) { return a + b; };
  return [pairs, deep, ids, cls, sub, add].length;  // line 24
}
kinds();
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn node_values_at_a_stop_read_as_the_viewport_writes_them() {
    let Some((_ws, mcp)) = js_mcp(&[("values.js", PROG)]).await else {
        return;
    };
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "values.js", "breakpoints": [{"file": "values.js", "line": 8}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at values.js:8 (report) ──"), "{v}");
    let expected = [
        ("m", "Map(1) {\"apples\" => 3}"),
        ("u", "undefined"),
        ("z", "null"),
        ("name", "\"widget\""),
        // The preview leaves out its nested levels (`Tags: Array(2)`,
        // `customer: {...}`); its children fill the width there is.
        (
            "order",
            "<Object: customer=Object {name: \"Ada\", tier: \"gold\"}, id=7, Tags=[\"new\", \"vip\"]>",
        ),
        (
            "items",
            "[Object {sku: \"a\", qty: 1}, Object {sku: \"b\", qty: 2}, Object {sku: \"c\", qty: 3}]",
        ),
    ];
    for (name, value) in expected {
        assert_eq!(local(&v, name).as_deref(), Some(value), "{name}: {v}");
    }
    // An evaluation reads as the local it names.
    let e = mcp.ok("debug_evaluate", json!({"expression": "m"})).await;
    assert!(e.starts_with("m = Map(1) {\"apples\" => 3}"), "{e}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "order.customer"}))
        .await;
    assert!(
        e.starts_with("order.customer = <Object: name=\"Ada\", tier=\"gold\">"),
        "{e}"
    );
    let e = mcp
        .ok("debug_variables", json!({"expand": "items[1]"}))
        .await;
    assert!(e.contains("sku = \"b\""), "{e}");
    assert!(e.contains("qty = 2"), "{e}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn maps_sets_classes_and_calls_read_as_in_chrome() {
    let Some((_ws, mcp)) = js_mcp(&[("values.js", PROG)]).await else {
        return;
    };
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "values.js", "breakpoints": [{"file": "values.js", "line": 24}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at values.js:24 (kinds) ──"), "{v}");
    // A function written with no parameters is called with none.
    assert!(
        v.contains("Call Stack:\n  → values.js:24  kinds()\n"),
        "{v}"
    );
    let expected = [
        ("pairs", "Map(2) {\"a\" => 1, \"b\" => 2}"),
        // Its entry's value leaves a level out: still a Map, not its entries
        // as an object's fields.
        ("deep", "Map(1) {\"x\" => {a: {...}}}"),
        ("ids", "Set(2) {1, 2}"),
        ("cls", "class Item"),
        ("sub", "class Special extends Item"),
        ("add", "<function add>"),
    ];
    for (name, value) in expected {
        assert_eq!(local(&v, name).as_deref(), Some(value), "{name}: {v}");
    }
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "deep"}))
        .await;
    assert!(e.starts_with("deep = Map(1) {\"x\" => {a: {...}}}"), "{e}");
    mcp.close().await;
}
