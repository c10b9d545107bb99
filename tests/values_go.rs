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
\tfmt.Println(item, items, shapes, tags, balances, results, empty, missing, small, label)
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
            json!({"program": ".", "breakpoints": [{"file": "main.go", "line": 32}]}),
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
    ];
    for (name, value) in expected {
        assert_eq!(local(&v, name).as_deref(), Some(value), "{name} in:\n{v}");
    }
    mcp.close().await;
}
