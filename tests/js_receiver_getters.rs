//! JavaScript through a real js-debug: a method's locals list its `this`
//! (a plain function's, the global object, stays out), and a getter is
//! shown as `(...)` until asked for, when its code runs and its value shows.

mod common;

use common::*;
use serde_json::json;

const PROG: &str = "class Circle {
  constructor(r) { this.r = r; }
  get area() { return 3 * this.r * this.r; }
  grow(by) {
    const next = this.r + by;
    return next;
  }
}
function plain(n) {
  const m = n + 1;
  return m;
}
new Circle(2).grow(1);
plain(4);
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_methods_this_is_listed_and_a_getter_reads_on_request() {
    let Some((_ws, mcp)) = js_mcp(&[("prog.js", PROG)]).await else {
        return;
    };
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.js", "breakpoints": [
                {"file": "prog.js", "line": 6}, {"file": "prog.js", "line": 11}]}),
        )
        .await;
    assert!(
        v.contains("── STOPPED at prog.js:6 (Circle.grow) ──"),
        "{v}"
    );
    // The getter is not run to show the stop: it could change the program.
    assert_eq!(
        local(&v, "this").as_deref(),
        Some("<Circle: area=(...), r=2>"),
        "{v}"
    );
    let this = mcp.ok("debug_variables", json!({"expand": "this"})).await;
    assert!(
        this.contains("  area = (...)  ▸ expand=this.area"),
        "{this}"
    );
    let area = mcp
        .ok("debug_variables", json!({"expand": "this.area"}))
        .await;
    assert!(area.contains("  area = 12  (number)"), "{area}");

    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── STOPPED at prog.js:11 (plain) ──"), "{v}");
    assert_eq!(local(&v, "n").as_deref(), Some("4"), "{v}");
    assert_eq!(local(&v, "this"), None, "no receiver here: {v}");
    mcp.close().await;
}
