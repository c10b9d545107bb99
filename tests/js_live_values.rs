//! Node values at a live stop, read through a real js-debug and rendered
//! by the viewport's rules: a Map, undefined, null, a string, a nested
//! object shown whole where it fits, and an array of objects.

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
