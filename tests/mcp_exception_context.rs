//! `exception_get_context` end to end: a Python exception with a chain of
//! causes, and a native crash (a signal), each read in one call.

mod common;

use common::native::*;
use common::*;
use serde_json::{Value, json};

const CHAINED: &str = "\
def lookup(d):
    return d['qty']


def convert(d):
    try:
        return lookup(d)
    except KeyError:
        return int(None)


def parse(record, strict=True):
    width = 3
    try:
        return convert(record)
    except TypeError as e:
        raise ValueError('bad record') from e


parse({'name': 'x'})
";

fn context(text: &str) -> Value {
    let json = text
        .rsplit_once("\n[session")
        .map(|(j, _)| j)
        .unwrap_or(text);
    serde_json::from_str(json.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_exception_with_its_causes_in_one_call() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("chained.py", CHAINED)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok("debug_launch", json!({"program": "chained.py"}))
        .await;
    assert!(v.contains("ValueError"), "{v}");
    let c = context(
        &mcp.ok(
            "exception_get_context",
            json!({"max_frames": 5, "include_variables_for_frames": 2, "max_inner_exceptions": 3}),
        )
        .await,
    );
    assert!(
        c["exception"]["type"]
            .as_str()
            .unwrap()
            .contains("ValueError"),
        "{c}"
    );
    assert!(
        c["exception"]["message"]
            .as_str()
            .unwrap()
            .contains("bad record"),
        "{c}"
    );
    assert!(
        c["exception"]["stackTraceString"]
            .as_str()
            .unwrap()
            .contains("chained.py"),
        "{c}"
    );
    let inner = c["innerExceptions"].as_array().unwrap();
    assert_eq!(inner.len(), 2, "{c}");
    assert_eq!(inner[0]["type"], "TypeError", "{c}");
    assert_eq!(inner[0]["relation"], "cause", "{c}");
    assert_eq!(inner[0]["depth"], 1, "{c}");
    assert_eq!(inner[1]["type"], "KeyError", "{c}");
    assert_eq!(inner[1]["relation"], "context", "{c}");
    assert!(inner[1]["message"].as_str().unwrap().contains("qty"), "{c}");
    assert_eq!(c["innerExceptionsTruncated"], false, "{c}");
    assert_eq!(c["throwingFrameIndex"], 0, "{c}");
    let top = &c["frames"][0];
    assert_eq!(top["function"], "parse", "{c}");
    assert_eq!(top["isExternal"], false, "{c}");
    assert_eq!(top["location"]["file"], "chained.py", "{c}");
    assert_eq!(top["location"]["line"], 17, "{c}");
    let args: Vec<&str> = top["arguments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(args, ["record", "strict"], "{c}");
    let locals = top["variables"]["locals"].as_array().unwrap();
    assert!(
        locals
            .iter()
            .any(|l| l["name"] == "width" && l["value"] == "3"),
        "{c}"
    );
    assert!(c["totalFrames"].as_u64().unwrap() >= 2, "{c}");
    assert!(c["frames"][1]["variables"].is_object(), "{c}");

    // Limits: one cause only, and no values.
    let c = context(
        &mcp.ok(
            "exception_get_context",
            json!({"max_inner_exceptions": 1, "include_variables_for_frames": 0}),
        )
        .await,
    );
    assert_eq!(c["innerExceptions"].as_array().unwrap().len(), 1, "{c}");
    assert_eq!(c["innerExceptionsTruncated"], true, "{c}");
    assert!(c["frames"][0]["variables"].is_null(), "{c}");
    let e = mcp
        .fails("exception_get_context", json!({"max_frames": 0}))
        .await;
    assert!(e.contains("max_frames") && e.contains("1 to 100"), "{e}");
    let e = mcp
        .fails(
            "exception_get_context",
            json!({"include_variables_for_frames": 11}),
        )
        .await;
    assert!(
        e.contains("include_variables_for_frames") && e.contains("0 to 10"),
        "{e}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn not_at_an_exception_is_refused_by_name() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("chained.py", CHAINED)]);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": "chained.py", "breakpoints": [{"file": "chained.py", "line": 13}]}),
    )
    .await;
    let e = mcp.fails("exception_get_context", json!({})).await;
    assert!(
        e.contains("not at an exception") && e.contains("breakpoint"),
        "{e}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_c_crash_names_its_signal_and_frame_values() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_c_demo(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "inventory", "args": ["crash"]}),
        )
        .await;
    assert!(v.contains("SIGSEGV"), "{v}");
    let c = context(&mcp.ok("exception_get_context", json!({})).await);
    let what = format!("{} {}", c["exception"]["type"], c["exception"]["message"]);
    assert!(what.contains("SIGSEGV"), "{c}");
    let throwing = c["throwingFrameIndex"].as_u64().unwrap() as usize;
    let f = &c["frames"][throwing];
    assert_eq!(f["function"], "main", "{c}");
    assert_eq!(f["location"]["file"], "inventory.c", "{c}");
    assert_eq!(f["location"]["line"], 51, "{c}");
    assert_eq!(f["isExternal"], false, "{c}");
    let locals = f["variables"]["locals"].as_array().unwrap();
    assert!(locals.iter().any(|l| l["name"] == "missing"), "{c}");
    assert!(
        c["exception"]["stackTraceString"]
            .as_str()
            .unwrap()
            .contains("main"),
        "{c}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rust_panic_gives_its_message_and_the_users_frame() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[]);
    common::native::build_rust_demo(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "target/debug/shop", "args": ["panic"]}),
        )
        .await;
    assert!(v.contains("Reason: exception"), "{v}");
    let c = context(&mcp.ok("exception_get_context", json!({})).await);
    let what = format!("{} {}", c["exception"]["type"], c["exception"]["message"]);
    assert!(what.contains("no price for widget (have 0 prices)"), "{c}");
    let throwing = c["throwingFrameIndex"].as_u64().unwrap() as usize;
    let f = &c["frames"][throwing];
    assert_eq!(f["function"], "shop::checkout", "{c}");
    assert_eq!(f["location"]["file"], "src/main.rs", "{c}");
    assert_eq!(f["location"]["line"], 41, "{c}");
    assert_eq!(f["isExternal"], false, "{c}");
    let named = |list: &Value, n: &str| {
        list.as_array()
            .is_some_and(|a| a.iter().any(|v| v["name"] == n))
    };
    assert!(named(&f["arguments"], "coupon"), "{c}");
    assert!(named(&f["variables"]["locals"], "empty"), "{c}");
    mcp.close().await;
}

/// Under `panic = "abort"` the panic runtime is another crate: the panic
/// still stops before the abort, with its message, in the user's frame.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rust_panic_built_to_abort_stops_with_its_message_on_gdb() {
    if !gdb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_rust_demo_panicking(ws.path(), "abort");
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "target/debug/shop", "args": ["panic"], "adapter": "gdb"}),
        )
        .await;
    assert!(v.contains("Reason: exception"), "{v}");
    assert!(
        v.contains("panic: no price for widget (have 0 prices)"),
        "{v}"
    );
    assert!(
        v.contains("STOPPED at src/main.rs:41 (shop::checkout)"),
        "{v}"
    );
    mcp.close().await;
}
