//! `completion/complete` with a real rmcp client: session ids, workspace
//! files and breakpoint ids for the resource templates.

mod common;

use common::*;
use rmcp::model::CompletionContext;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resource_arguments_complete() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[
        ("app.py", "x = 1\ny = 2\nprint(x + y)\n"),
        ("pkg/util.py", "pass\n"),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let caps = mcp
        .client
        .peer_info()
        .map(|i| i.capabilities.completions.is_some());
    assert_eq!(caps, Some(true), "completions are not advertised");
    mcp.ok(
        "debug_launch",
        json!({"program": "app.py", "breakpoints": [{"file": "app.py", "line": 2}]}),
    )
    .await;
    mcp.ok("breakpoint_set", json!({"file": "app.py", "line": 3}))
        .await;

    let ids = mcp
        .client
        .complete_resource_argument("debugger://session/{id}", "id", "s", None)
        .await
        .expect("complete id");
    assert_eq!(ids.values, vec!["s1".to_string()]);

    let files = mcp
        .client
        .complete_resource_argument("debugger://session/{id}/source/{path}", "path", "pk", None)
        .await
        .expect("complete path");
    assert_eq!(files.values, vec!["pkg/util.py".to_string()]);

    let mut context = CompletionContext::new();
    context.arguments = Some([("id".to_string(), "s1".to_string())].into());
    let bps = mcp
        .client
        .complete_resource_argument(
            "debugger://session/{id}/breakpoints/{breakpoint_id}",
            "breakpoint_id",
            "",
            Some(context),
        )
        .await
        .expect("complete breakpoint_id");
    assert_eq!(bps.values.len(), 2, "{:?}", bps.values);
    // Each id it offers reads back as that breakpoint.
    let uri = format!("debugger://session/s1/breakpoints/{}", bps.values[1]);
    let read = mcp
        .client
        .read_resource(rmcp::model::ReadResourceRequestParams::new(uri))
        .await
        .expect("read the breakpoint");
    let text = format!("{:?}", read.contents);
    assert!(text.contains("\\\"line\\\":3"), "{text}");
    mcp.close().await;
}
