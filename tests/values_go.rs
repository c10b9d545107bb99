//! Go values as delve sends them, rendered at a stop through MCP: each
//! kind of value with its exact text. Real delve, real client.

mod common;

use common::*;
use serde_json::json;

const KINDS: &str = "\
package main

import \"fmt\"

type Item struct {
\tID   int
\tName string
}

type Shape interface{ Area() float64 }

type Rect struct{ W, H int }

func (r Rect) Area() float64 { return float64(r.W * r.H) }

type Circle struct{ R float64 }

func (c *Circle) Area() float64 { return 3 * c.R * c.R }

type Cart struct {
\tFirst *Item
\tItems []*Item
}

func main() {
\titem := Item{ID: 1, Name: \"hammer\"}
\titems := []Item{{1, \"hammer\"}, {2, \"saw\"}, {3, \"drill\"}}
\tshapes := []Shape{Rect{W: 2, H: 3}, &Circle{R: 1.5}}
\ttags := []string{\"new\", \"vip\"}
\tbalances := map[string]int{\"food\": -325}
\tvar results []int
\tempty := []int{}
\tvar missing *Item
\tvar small uint8 = 2
\tlabel := \"new\"
\tp := &Item{ID: 1, Name: \"hammer\"}
\tvar shape Shape = &Circle{R: 1.5}
\tvar anything any = &Item{ID: 2, Name: \"saw\"}
\tvar number any = 5
\tby := map[string]*Item{\"h\": p}
\tptrs := []*Item{p, nil}
\tcart := Cart{First: p, Items: ptrs}
\tvar none Shape
\tvar nc *Circle
\tvar typedNil Shape = nc
\tfmt.Println(item, items, shapes, tags, balances, results, empty, missing, small, label,
\t\tp, shape, anything, number, by, ptrs, cart, none, typedNil)
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_kind_of_value_reads_as_the_person_expects() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/kinds\n\ngo 1.19\n"),
        ("main.go", KINDS),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "breakpoints": [{"file": "main.go", "line": 47}]}),
        )
        .await;
    let expected = [
        ("item", "<Item: ID=1, Name=\"hammer\">"),
        (
            "items",
            "[Item {ID: 1, Name: \"hammer\"}, Item {ID: 2, Name: \"saw\"}, Item {ID: 3, Name: \"drill\"}]",
        ),
        ("shapes", "[Rect {W: 2, H: 3}, *Circle {R: 1.5}]"),
        ("tags", "[\"new\", \"vip\"]"),
        ("balances", "{\"food\": -325}"),
        ("results", "nil"),
        ("empty", "[]"),
        ("missing", "nil"),
        ("small", "2"),
        ("label", "\"new\""),
        // A pointer, and an interface, read as what they hold; nested, as
        // `*Item {..}`, and as such where delve did not load it.
        ("p", "<Item: ID=1, Name=\"hammer\">"),
        ("shape", "<Circle: R=1.5>"),
        ("anything", "<Item: ID=2, Name=\"saw\">"),
        ("number", "5"),
        ("by", "{\"h\": *Item {ID: 1, Name: \"hammer\"}}"),
        ("ptrs", "[*Item {ID: 1, Name: \"hammer\"}, nil]"),
        (
            "cart",
            "<Cart: First=*Item {ID: 1, Name: \"hammer\"}, Items=[*Item {...}, nil]>",
        ),
        ("none", "nil"),
        // Not a nil interface: it holds a nil pointer.
        ("typedNil", "(*Circle)(nil)"),
    ];
    for (name, value) in expected {
        assert_eq!(local(&v, name).as_deref(), Some(value), "{name} in:\n{v}");
    }
    // The JSON viewport tells a nil slice from an empty one the same way.
    let text = mcp.ok("debug_status", json!({"format": "json"})).await;
    // The JSON, without the session line under it.
    let j: serde_json::Value = serde_json::Deserializer::from_str(&text)
        .into_iter()
        .next()
        .expect("a JSON viewport")
        .expect("JSON");
    let locals = &j["locals"];
    assert_eq!(locals["results"]["value"], "nil", "{j}");
    assert_eq!(
        locals["results"]["tree"],
        json!({"kind": "nil", "text": "nil"})
    );
    assert_eq!(locals["empty"]["value"], "[]", "{j}");
    assert_eq!(locals["empty"]["tree"]["count"], 0, "{j}");
    assert_eq!(locals["ptrs"]["tree"]["items"][1]["kind"], "nil", "{j}");
    mcp.close().await;
}
