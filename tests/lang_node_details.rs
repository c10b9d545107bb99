//! Node.js details through a real js-debug that read as in the other
//! languages: evaluations written as locals are, an uncaught error's line,
//! the locals a read of the variables lists, and Node's own frames.

mod common;

use common::*;
use serde_json::json;

const DEMO: &str = "assets/demo/node/prog.js";

async fn stopped_at_14(
    data: &std::path::Path,
    ws: &std::path::Path,
    args: &[&str],
) -> (Mcp, String) {
    let mcp = mcp_with_env(ws, &[], &[("XDG_DATA_HOME", data)]).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.js", "args": args,
                   "breakpoints": [{"file": "prog.js", "line": 14}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at prog.js:14 (main) ──"), "{v}");
    (mcp, v)
}

fn demo() -> tempfile::TempDir {
    workspace(&[(
        "prog.js",
        &std::fs::read_to_string(repo_root().join(DEMO)).unwrap(),
    )])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn evaluations_and_variables_read_as_the_viewports_locals() {
    let Some(data) = js_debug_available() else {
        return;
    };
    let ws = demo();
    let (mcp, v) = stopped_at_14(&data, ws.path(), &[]).await;
    assert_eq!(
        local(&v, "info").as_deref(),
        Some("<Object: name=\"spike\", n=3>"),
        "{v}"
    );
    // The same values through evaluate: double quotes, the count after.
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "info"}))
        .await;
    assert!(e.starts_with("info = <Object: name=\"spike\", n=3>"), "{e}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "items"}))
        .await;
    assert!(e.starts_with("items = [1, 2, 3]"), "{e}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "[info.name, 'x']"}))
        .await;
    assert!(
        e.starts_with("[info.name, 'x'] = [\"spike\", \"x\"]"),
        "{e}"
    );
    // The loop block's locals and the function's, as the viewport lists
    // them, and not the receiver it leaves out.
    let vars = mcp.ok("debug_variables", json!({})).await;
    assert!(vars.starts_with("locals (0–5 of 5):"), "{vars}");
    for line in [
        "  x = 0  (number)",
        "  i = 0  (number)",
        "  total = 0  (number)",
        "  items = [1, 2, 3]  (Array)",
    ] {
        assert!(vars.contains(line), "{line}: {vars}");
    }
    assert!(!vars.contains("this ="), "{vars}");
    let page = mcp
        .ok("debug_variables", json!({"start": 1, "count": 2}))
        .await;
    assert!(page.starts_with("locals (1–3 of 5):\n  i = 0"), "{page}");
    let only = mcp.ok("debug_variables", json!({"filter": "tot"})).await;
    assert!(
        only.starts_with("locals (0–1 of 1):\n  total = 0"),
        "{only}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uncaught_error_reads_as_its_type_and_message() {
    let Some(data) = js_debug_available() else {
        return;
    };
    let ws = demo();
    let mcp = mcp_with_env(ws.path(), &[], &[("XDG_DATA_HOME", &data)]).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.js", "args": ["--crash"]}),
        )
        .await;
    assert!(v.contains("── STOPPED at prog.js:25 (inventory) ──"), "{v}");
    assert!(v.contains("\nException: RangeError: bad size\n"), "{v}");
    let ctx = mcp.ok("exception_get_context", json!({})).await;
    assert!(ctx.contains("\"type\":\"RangeError\""), "{ctx}");
    assert!(ctx.contains("\"message\":\"bad size\""), "{ctx}");
    mcp.close().await;
}

/// Node's internals under the program's frames are counted in the
/// viewport, and marked where the whole stack is listed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_own_frames_are_not_user_code() {
    let Some(data) = js_debug_available() else {
        return;
    };
    let ws = demo();
    let (mcp, v) = stopped_at_14(&data, ws.path(), &[]).await;
    assert!(
        v.contains("Call Stack:\n  → prog.js:14  main()\n    prog.js:30  <anonymous>\n    (6 frames not user code: debug_stack)\n"),
        "{v}"
    );
    assert!(!v.contains("node_internals"), "{v}");
    let stack = mcp.ok("debug_stack", json!({})).await;
    assert!(stack.contains("  #0 prog.js:14 main()\n"), "{stack}");
    assert!(
        stack.contains(
            "  #2 <node_internals>/internal/modules/cjs/loader:1521 Module._compile(…) (not user code)\n"
        ),
        "{stack}"
    );
    // The JSON viewport lists them, marked.
    let j = mcp.ok("debug_status", json!({"format": "json"})).await;
    assert!(
        j.contains(r#""stack":[{"args":{},"file":"prog.js","function":"main","line":14},{"file":"prog.js","function":"<anonymous>","line":30},{"external":true,"file":"<node_internals>/internal/modules/cjs/loader","function":"Module._compile","line":1521}"#),
        "{j}"
    );
    // A method's receiver named as Node's own traces name it.
    assert!(
        stack.contains("Module.executeUserEntryPoint(…) (not user code)"),
        "{stack}"
    );
    mcp.close().await;
}
