//! Function breakpoints on JavaScript through a real js-debug, which has
//! none of its own: the function (a method, a plain function) is found in
//! the source and the breakpoint set on its body's first line, as the
//! answer says.

mod common;

use common::*;
use serde_json::json;

const PROG: &str = "class Circle {
  constructor(r) { this.r = r; }
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
async fn a_method_and_a_function_are_found_in_the_source_and_stop() {
    let Some((_ws, mcp)) = js_mcp(&[("prog.js", PROG)]).await else {
        return;
    };
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.js", "breakpoints": [{"function": "Circle.grow"}]}),
        )
        .await;
    assert!(
        v.contains("── STOPPED at prog.js:4 (Circle.grow) ──"),
        "{v}"
    );
    let f = mcp.ok("breakpoint_set", json!({"function": "plain"})).await;
    assert!(
        f.contains("found in the source (def plain at prog.js:8)"),
        "{f}"
    );
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── STOPPED at prog.js:9 (plain) ──"), "{v}");
    let bad = mcp
        .fails("breakpoint_set", json!({"function": "Circle.shrink"}))
        .await;
    assert!(
        bad.contains("function: no function Circle.shrink in the workspace's JavaScript"),
        "{bad}"
    );
    mcp.close().await;
}
