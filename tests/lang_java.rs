//! Java end to end: the Maven demo (two classes, a list of orders, a map, a
//! second thread, a NullPointerException it catches) debugged by a real MCP
//! client through the real binary, a real JVM and pairdbg's JDI server.

mod common;

use std::time::Duration;

use common::java::{java_demo as demo, jdwp_jvm, jvms};
use common::*;
use serde_json::json;

const MAIN: &str = "src/main/java/shop/Main.java";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agent_debugs_the_java_demo() {
    if !java_available() {
        return;
    }
    let ws = demo();
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "breakpoints": [{"file": MAIN, "line": 24}],
                   "timeout_ms": 120000}),
        )
        .await;
    assert!(
        v.contains("── STOPPED at src/main/java/shop/Main.java:24 (Main.main) ──"),
        "{v}"
    );
    assert!(v.contains("Reason: breakpoint"), "{v}");
    assert_eq!(
        local(&v, "orders").as_deref(),
        Some("[Order{id=1, total=9.5}, Order{id=2, total=20.0}, Order{id=3, total=12.25}]"),
        "{v}"
    );
    assert_eq!(
        local(&v, "stock").as_deref(),
        Some("{\"widget\": 4, \"gadget\": 7}"),
        "{v}"
    );
    assert_eq!(local(&v, "sum").as_deref(), Some("0.0"), "{v}");
    // The JVM and the server both run under pairdbg, and must end with it.
    let pids = jvms(mcp.pid);
    assert!(
        pids.len() >= 2,
        "the server's and the program's JVMs: {pids:?}"
    );

    let vars = mcp.ok("debug_variables", json!({"expand": "orders"})).await;
    assert!(vars.contains("orders (0–3 of 3):"), "{vars}");
    assert!(
        vars.contains("[1] = Order{id=2, total=20.0}  (shop.Order)"),
        "{vars}"
    );

    let e = mcp
        .ok("debug_evaluate", json!({"expression": "order.total"}))
        .await;
    assert!(e.contains("= 9.5"), "{e}");
    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "orders.get(1).customer.toUpperCase()"}),
        )
        .await;
    assert!(e.contains("= \"GRACE\""), "{e}");
    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "orders.size() * 2 + 1"}),
        )
        .await;
    assert!(e.contains("= 7"), "{e}");
    let err = mcp
        .fails("debug_evaluate", json!({"expression": "nosuch + 1"}))
        .await;
    assert!(err.contains("nosuch is not defined here"), "{err}");
    let err = mcp
        .fails("debug_evaluate", json!({"expression": "order.("}))
        .await;
    assert!(err.contains("cannot parse"), "{err}");

    let s = mcp
        .ok(
            "debug_set_variable",
            json!({"name": "sum", "value": "100.5"}),
        )
        .await;
    assert!(s.contains("100.5"), "{s}");
    let err = mcp
        .fails(
            "debug_set_variable",
            json!({"name": "sum", "value": "\"text\""}),
        )
        .await;
    assert!(err.contains("sum is a double: give a number"), "{err}");

    let v = mcp.ok("debug_step", json!({"kind": "into"})).await;
    assert!(
        v.contains("── STOPPED at src/main/java/shop/Order.java:15 (Order.withTax) ──"),
        "{v}"
    );
    assert!(v.contains("Order.withTax(rate=0.1)"), "{v}");
    assert_eq!(local(&v, "rate").as_deref(), Some("0.1"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "out"})).await;
    assert_eq!(stopped_line(&v), Some(24), "{v}");
    assert_eq!(
        local(&v, "(return) withTax").as_deref(),
        Some("10.45"),
        "{v}"
    );
    let v = mcp.ok("debug_step", json!({"kind": "over"})).await;
    assert_eq!(stopped_line(&v), Some(25), "{v}");
    assert_eq!(local(&v, "taxed").as_deref(), Some("10.45"), "{v}");

    mcp.ok("breakpoint_remove", json!({"file": MAIN, "line": 24}))
        .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 3 ──"), "{v}");
    let out = mcp.output_containing("units").await;
    // The sum started from the value set: 100.5 + 10.45 + 22.0 + 13.48.
    assert!(out.contains("sum 146.4"), "{out}");
    assert!(out.contains("units 11"), "{out}");
    assert!(out.contains("audited 3"), "{out}");
    mcp.close().await;
    let left = wait_dead(&pids, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "JVMs outlived the session: {left:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn java_conditions_threads_and_exceptions() {
    if !java_available() {
        return;
    }
    let ws = demo();
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "timeout_ms": 120000, "breakpoints": [
                {"file": MAIN, "line": 41},
                {"file": MAIN, "line": 25, "condition": "order.id == 2"}]}),
        )
        .await;
    // The auditor thread reaches its line first.
    assert!(v.contains("(Main.audit) ──"), "{v}");
    // Line 41 declares the method: its first code is on 42.
    assert_eq!(stopped_line(&v), Some(42), "{v}");
    assert_eq!(local(&v, "seen").as_deref(), None, "not yet assigned: {v}");
    let t = mcp.ok("debug_threads", json!({})).await;
    assert!(t.contains("auditor") && t.contains("main"), "{t}");

    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(stopped_line(&v), Some(25), "{v}");
    assert_eq!(
        local(&v, "order").as_deref(),
        Some("Order{id=2, total=20.0}"),
        "the condition skipped order 1: {v}"
    );

    let x = mcp
        .ok(
            "breakpoint_set_exception",
            json!({"exception_type": "java.lang.NullPointerException"}),
        )
        .await;
    assert!(x.contains("NullPointerException"), "{x}");
    mcp.ok("breakpoint_remove", json!({"file": MAIN, "line": 25}))
        .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("Reason: exception"), "{v}");
    assert!(
        v.contains("── STOPPED at src/main/java/shop/Order.java:20 (Order.customerName) ──"),
        "stopped where it was thrown: {v}"
    );
    assert!(
        v.contains("Cannot invoke \"String.toUpperCase()\" because \"this.customer\" is null"),
        "{v}"
    );
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 3 ──"), "{v}");
    let out = mcp.output_containing("no customer").await;
    assert!(out.contains("no customer for order 3"), "{out}");
    mcp.close().await;
}

const GREETER: &str = "public class Greeter {
    static String greet(String name, int times) {
        String line = \"hello \" + name;
        return line.repeat(times);
    }

    public static void main(String[] args) {
        for (String n : new String[] {\"ada\", \"bob\", \"cy\"}) {
            System.out.println(greet(n, 1));
        }
    }
}
";

/// A single `.java` file, compiled by the server with its local names; a
/// function breakpoint by `Class.method` that stops on its second hit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_java_file_with_a_counted_function_breakpoint() {
    if !java_available() {
        return;
    }
    let ws = workspace(&[("Greeter.java", GREETER)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "Greeter.java", "timeout_ms": 60000,
                   "breakpoints": [{"function": "Greeter.greet", "hit_count": 2}]}),
        )
        .await;
    assert!(
        v.contains("── STOPPED at Greeter.java:3 (Greeter.greet) ──"),
        "{v}"
    );
    assert_eq!(local(&v, "name").as_deref(), Some("\"bob\""), "{v}");
    assert_eq!(local(&v, "times").as_deref(), Some("1"), "{v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 0 ──"), "{v}");
    let out = mcp.output_containing("hello cy").await;
    assert!(
        out.contains("hello ada") && out.contains("hello bob"),
        "{out}"
    );
    mcp.close().await;
}

const LOOP: &str = "public class Loop {
    public static void main(String[] args) throws Exception {
        int count = 0;
        while (true) {
            count += 1;
            Thread.sleep(10);
        }
    }
}
";

/// A JVM started with JDWP on a loopback port is attached to by host and
/// port; the session stops it at a breakpoint, and ending the session
/// leaves it running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attaches_to_a_running_jvm_and_leaves_it_running() {
    if !java_available() {
        return;
    }
    let ws = workspace(&[("Loop.java", LOOP)]);
    let (jvm, port) = jdwp_jvm(ws.path(), "Loop");
    let pid = jvm.0.id();

    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_attach",
            json!({"host": "127.0.0.1", "port": port, "language": "java",
                   "timeout_ms": 60000,
                   "breakpoints": [{"file": "Loop.java", "line": 5}]}),
        )
        .await;
    assert!(
        v.contains("── STOPPED at Loop.java:5 (Loop.main) ──"),
        "{v}"
    );
    let count: u64 = local(&v, "count")
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("count is a number: {v}"));
    assert!(count > 0, "{v}");
    let t = mcp.ok("debug_terminate", json!({})).await;
    assert!(t.contains("detached and keeps running"), "{t}");
    mcp.close().await;
    assert!(alive(pid), "the attached JVM was killed");
    let state = stat(pid).map(|(_, s)| s);
    assert!(
        matches!(state, Some('S' | 'R')),
        "running, not held: {state:?}"
    );
}

/// `stop_on_entry` stops at `main`; a condition that cannot be evaluated
/// stops the program where it failed, and the stop says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_java_condition_stops_and_says_why() {
    if !java_available() {
        return;
    }
    let ws = workspace(&[("Greeter.java", GREETER)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "Greeter.java", "timeout_ms": 60000, "stop_on_entry": true}),
        )
        .await;
    assert!(
        v.contains("── STOPPED at Greeter.java:8 (Greeter.main) ──"),
        "{v}"
    );
    assert!(v.contains("Reason: entry"), "{v}");
    mcp.ok(
        "breakpoint_set",
        json!({"file": "Greeter.java", "line": 3, "condition": "nosuch > 1"}),
    )
    .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(
        v.contains("── STOPPED at Greeter.java:3 (Greeter.greet) ──"),
        "{v}"
    );
    assert!(
        v.contains("condition \"nosuch > 1\" raised nosuch is not defined here"),
        "{v}"
    );
    mcp.close().await;
}

/// A tracepoint records each hit in the documented form and never stops.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_java_tracepoint_records_each_hit() {
    if !java_available() {
        return;
    }
    let ws = workspace(&[("Greeter.java", GREETER)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "Greeter.java", "timeout_ms": 60000,
                   "breakpoints": [{"file": "Greeter.java", "line": 8}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(8), "{v}");
    let t = mcp
        .ok(
            "tracepoint_set",
            json!({"file": "Greeter.java", "line": 3,
                   "log_message": "{{name}}={name} x{times + 1} bad={nope}"}),
        )
        .await;
    let id = t
        .split('#')
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap_or_else(|| panic!("no id in {t}"))
        .to_string();
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(
        v.contains("── EXITED with code 0 ──"),
        "tracepoints never stop: {v}"
    );
    let trace = mcp
        .ok(
            "debug_output",
            json!({"stream": "trace", "max_bytes": 100000}),
        )
        .await;
    let hits: Vec<&str> = trace
        .lines()
        .filter(|l| l.contains(&format!("#{id} hit")))
        .collect();
    assert_eq!(hits.len(), 3, "{trace}");
    for (hit, name) in hits.iter().zip(["ada", "bob", "cy"]) {
        assert!(
            hit.ends_with(&format!(
                "{{name}}={name} x2 bad=<error: nope is not defined here>"
            )),
            "{hit}"
        );
    }
    mcp.close().await;
}
