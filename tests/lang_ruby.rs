//! Ruby end to end: a small shop debugged by a real MCP client through the
//! real binary and a real rdbg (the debug gem).

mod common;

use std::time::Duration;

use common::*;
use serde_json::json;

pub const SHOP: &str = r#"class Order
  attr_reader :id, :total

  def initialize(id, total)
    @id = id
    @total = total
  end
end

def restock(stock, item)
  count = stock.fetch(item, 0)
  raise "out of stock: #{item}" if count.zero?
  count - 1
end

def checkout(orders, stock)
  sum = 0
  orders.each do |order|
    sum += order.total
  end
  left = restock(stock, "widget")
  puts "sum #{sum} left #{left}"
  restock(stock, "gadget")
end

orders = [Order.new(1, 9.5), Order.new(2, 20.0)]
stock = { "widget" => 3, "gadget" => 0 }
label = :shop
checkout(orders, stock)
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agent_debugs_a_ruby_program() {
    if !ruby_available() {
        return;
    }
    let ws = workspace(&[("shop.rb", SHOP)]);
    let mcp = mcp_in(ws.path()).await;
    // The condition is Ruby: only the second order stops.
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "shop.rb", "breakpoints": [
                {"file": "shop.rb", "line": 19, "condition": "order.id == 2"}
            ]}),
        )
        .await;
    assert!(v.contains("── STOPPED at shop.rb:19"), "{v}");
    assert!(v.contains("Reason: breakpoint"), "{v}");
    assert!(v.contains(" →19│     sum += order.total"), "{v}");
    assert_eq!(
        local(&v, "order").as_deref(),
        Some("<Order: id=2, total=20.0>"),
        "{v}"
    );
    assert_eq!(local(&v, "sum").as_deref(), Some("9.5"), "{v}");
    assert_eq!(
        local(&v, "stock").as_deref(),
        Some("{\"widget\": 3, \"gadget\": 0}"),
        "{v}"
    );
    // rdbg's own listings are not the program's variables.
    assert!(!v.contains("%self"), "{v}");
    assert!(
        v.contains("Object#checkout(orders=[Order {id: 1, total: 9.5}"),
        "the caller with its arguments: {v}"
    );

    // A condition Ruby cannot parse is refused when set, with its words.
    let r = mcp
        .fails(
            "breakpoint_set",
            json!({"file": "shop.rb", "line": 23, "condition": "stock.size =="}),
        )
        .await;
    assert!(r.contains("condition") && r.contains("syntax error"), "{r}");

    // Reading methods run without allow_side_effects; a mutating one not.
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "orders.length"}))
        .await;
    assert!(e.contains("= 2"), "{e}");
    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "stock.include?(\"widget\") && !stock.empty?"}),
        )
        .await;
    assert!(e.contains("= true"), "{e}");
    let refused = mcp
        .fails("debug_evaluate", json!({"expression": "orders.clear"}))
        .await;
    assert!(
        refused.contains("calls `clear`") && refused.contains("allow_side_effects"),
        "{refused}"
    );

    let s = mcp
        .ok("debug_set_variable", json!({"name": "sum", "value": "100"}))
        .await;
    assert!(s.contains("100"), "{s}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "sum + 1"}))
        .await;
    assert!(e.contains("= 101"), "{e}");

    // Out of the block to the next line of checkout, then into restock.
    mcp.ok("breakpoint_remove", json!({"file": "shop.rb", "line": 19}))
        .await;
    let v = mcp
        .ok("debug_run_to", json!({"file": "shop.rb", "line": 21}))
        .await;
    assert_eq!(stopped_line(&v), Some(21), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "into"})).await;
    assert_eq!(stopped_line(&v), Some(11), "{v}");
    assert!(v.contains("restock"), "{v}");
    // rdbg's step out ends as the method returns, showing what it returns.
    let v = mcp.ok("debug_step", json!({"kind": "out"})).await;
    assert!(
        v.contains("── STOPPED at shop.rb:14 (Object#restock)"),
        "{v}"
    );
    assert_eq!(local(&v, "(return)").as_deref(), Some("2"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "over"})).await;
    assert_eq!(stopped_line(&v), Some(22), "{v}");
    assert_eq!(local(&v, "left").as_deref(), Some("2"), "{v}");

    // The second restock raises: the stop names the class and message.
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("Reason: exception"), "{v}");
    assert!(v.contains("RuntimeError"), "{v}");
    assert!(v.contains("out of stock: gadget"), "{v}");
    assert_eq!(stopped_line(&v), Some(12), "{v}");
    let out = mcp.output_containing("sum ").await;
    assert!(out.contains("sum 120.0 left 2"), "{out}");
    assert!(!out.contains("DEBUGGER"), "{out}");

    let program = ws.path().join("shop.rb").display().to_string();
    assert!(!pids_matching(&program).is_empty(), "the program runs");
    // Uncaught, the error ends the program as Ruby ends it: status 1.
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 1 ──"), "{v}");
    mcp.close().await;
    let left = wait_gone(&program, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "nothing outlives the session: {left:?}");
}

const LINES: &str = r#"def build
  a = 1
  b = a + 1
  c = b + 1
  d = c + 1
  puts "d is #{d}"
end

build
"#;

/// rdbg records lines once told to and steps back through them with DAP's
/// `stepBack`, which it never answers: its stop ends the move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ruby_program_steps_back_through_its_recording() {
    if !ruby_available() {
        return;
    }
    let ws = workspace(&[("lines.rb", LINES)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "lines.rb", "breakpoints": [{"file": "lines.rb", "line": 2}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(2), "{v}");

    // Before recording, a move back is refused with the way to allow it.
    let refused = mcp.fails("debug_step", json!({"kind": "back"})).await;
    assert!(refused.contains("not recording"), "{refused}");
    let r = mcp.ok("debug_record", json!({"on": true})).await;
    assert!(
        r.contains("Can step back: yes (rdbg record), from stop 1"),
        "{r}"
    );
    let refused = mcp
        .fails("debug_record", json!({"on": true, "max_instructions": 10}))
        .await;
    assert!(refused.contains("takes no limit"), "{refused}");

    let v = mcp
        .ok("debug_step", json!({"kind": "over", "count": 3}))
        .await;
    assert_eq!(stopped_line(&v), Some(5), "{v}");
    assert_eq!(local(&v, "c").as_deref(), Some("3"), "{v}");

    // Back a line, and back again: the line and the locals go back.
    let v = mcp.ok("debug_step", json!({"kind": "back"})).await;
    assert_eq!(stopped_line(&v), Some(4), "{v}");
    assert_eq!(local(&v, "b").as_deref(), Some("2"), "{v}");
    assert_eq!(local(&v, "c").as_deref(), Some("nil"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "back"})).await;
    assert_eq!(stopped_line(&v), Some(3), "{v}");
    assert_eq!(local(&v, "a").as_deref(), Some("1"), "{v}");
    assert_eq!(local(&v, "b").as_deref(), Some("nil"), "{v}");
    // rdbg's recording starts with the first line run after it was turned
    // on: going further back is refused, and the program stays.
    let refused = mcp.fails("debug_step", json!({"kind": "back"})).await;
    assert!(
        refused.contains("cannot step back") && refused.contains("lines.rb:3"),
        "{refused}"
    );

    // rdbg has no other move back: refused, naming the one it has.
    let refused = mcp.fails("debug_step", json!({"kind": "back_out"})).await;
    assert!(refused.contains("a line at a time"), "{refused}");

    // Forward again to the end: the program's own output, its exit.
    let v = mcp.ok("debug_record", json!({"on": false})).await;
    assert!(!v.contains("yes (rdbg record)"), "{v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 0 ──"), "{v}");
    let out = mcp.output_containing("d is").await;
    assert!(out.contains("d is 4"), "{out}");
    mcp.close().await;
}

const THREADS: &str = r#"worker = Thread.new do
  n = 5
  n * 2
end
worker.join
puts "done"
"#;

/// A breakpoint in a thread stops there, and the threads list has the
/// main thread and the worker.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ruby_thread_stops_and_is_listed() {
    if !ruby_available() {
        return;
    }
    let ws = workspace(&[("threads.rb", THREADS)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "threads.rb", "breakpoints": [{"file": "threads.rb", "line": 3}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(3), "{v}");
    assert_eq!(local(&v, "n").as_deref(), Some("5"), "{v}");
    let t = mcp.ok("debug_threads", json!({})).await;
    // rdbg names a thread by where it is: the main thread waits in join.
    assert!(t.contains("threads.rb:5:in `<main>'"), "{t}");
    assert!(
        t.contains("→ ") && t.contains("threads.rb:3:in `block in <main>'"),
        "{t}"
    );
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 0 ──"), "{v}");
    mcp.close().await;
}
