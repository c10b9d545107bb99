//! Resources and push notifications over the streamable HTTP endpoint the
//! TUI serves, with a real HTTP MCP client: a client configured with the
//! endpoint's URL gets what a stdio client gets.

mod common;

use common::listener::*;
use common::*;
use pairdbg::mcp::http;
use pairdbg::session::Registry;
use pairdbg::session::validate::Workspace;
use rmcp::model::{ReadResourceRequestParams, SubscribeRequestParams};
use serde_json::{Value, json};

const PROG: &str = "\
def work(n):
    total = 0
    for i in range(n):
        total += i
    return total


print(work(3))
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_client_reads_subscribes_and_is_pushed_hits() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("p.py", PROG)]);
    let ep = http::serve(
        Registry::default(),
        Default::default(),
        Workspace::new(ws.path(), false),
        None,
    )
    .await
    .expect("serve");
    let l = listen_http(&ep.url, &ep.token).await;
    let v = l
        .ok(
            "debug_launch",
            json!({"program": "p.py", "breakpoints": [{"file": "p.py", "line": 4}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(4), "{v}");
    let hit = l
        .pushed
        .custom(0, "debugger/breakpointHit", |p| p["hitCount"] == 1)
        .await;
    assert_eq!(hit["location"]["line"], 4, "{hit}");
    let r = l
        .client
        .read_resource(ReadResourceRequestParams::new("debugger://session/s1"))
        .await
        .expect("read the viewport");
    let text = match &r.contents[0] {
        rmcp::model::ResourceContents::TextResourceContents { text, .. } => text.clone(),
        other => panic!("{other:?}"),
    };
    assert!(text.contains("── STOPPED at p.py:4"), "{text}");
    #[allow(deprecated)]
    l.client
        .subscribe(SubscribeRequestParams::new("debugger://session/s1"))
        .await
        .expect("subscribe");
    let mark = l.pushed.mark();
    let v = l.ok("debug_continue", json!({})).await;
    assert_eq!(stopped_line(&v), Some(4), "{v}");
    l.pushed
        .wait_for(
            mark,
            30,
            "viewport update over HTTP",
            |p| matches!(p, Pushed::ResourceUpdated(u) if u == "debugger://session/s1"),
        )
        .await;
    let hit = l
        .pushed
        .custom(mark, "debugger/breakpointHit", |_| true)
        .await;
    assert_eq!(hit["hitCount"], 2, "{hit}");
    l.ok("debug_terminate", json!({})).await;
    l.close().await;
}

/// Two clients of one server, each driving its own session: each hears
/// pairdbg's notifications about its own session only, until it subscribes
/// to the other's resource.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_hears_only_of_the_sessions_it_drives_or_follows() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("p.py", PROG)]);
    let ep = http::serve(
        Registry::default(),
        Default::default(),
        Workspace::new(ws.path(), false),
        None,
    )
    .await
    .expect("serve");
    let a = listen_http(&ep.url, &ep.token).await;
    let b = listen_http(&ep.url, &ep.token).await;
    let launch = json!({"program": "p.py", "breakpoints": [{"file": "p.py", "line": 4}]});
    a.ok("debug_launch", launch.clone()).await;
    b.ok("debug_launch", launch).await;
    let hit = |p: &Value, id: &str| p["sessionId"] == id;
    b.pushed
        .custom(0, "debugger/breakpointHit", |p| hit(p, "s2"))
        .await;
    // A moves its own session on: once it hears of that, it would have
    // heard of B's earlier stop too.
    let mark = a.pushed.mark();
    a.ok("debug_continue", json!({"session_id": "s1"})).await;
    a.pushed
        .custom(mark, "debugger/breakpointHit", |p| {
            hit(p, "s1") && p["hitCount"] == 2
        })
        .await;
    let sessions = |l: &Listening| -> Vec<String> {
        let mut ids: Vec<String> = ["debugger/breakpointHit", "debugger/sessionStateChanged"]
            .iter()
            .flat_map(|m| l.pushed.customs(m))
            .map(|p| p["sessionId"].as_str().unwrap_or("?").to_string())
            .collect();
        ids.sort();
        ids.dedup();
        ids
    };
    assert_eq!(sessions(&a), ["s1"], "A heard of B's session");

    // Following A's session by its resource, B hears of it from then on.
    #[allow(deprecated)]
    b.client
        .subscribe(SubscribeRequestParams::new("debugger://session/s1"))
        .await
        .expect("subscribe");
    let mark = b.pushed.mark();
    a.ok("debug_continue", json!({"session_id": "s1"})).await;
    b.pushed
        .custom(mark, "debugger/breakpointHit", |p| {
            hit(p, "s1") && p["hitCount"] == 3
        })
        .await;
    a.close().await;
    b.close().await;
}
