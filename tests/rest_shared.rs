//! REST sessions are ordinary sessions: an MCP agent joining the same host
//! sees and drives them, and the REST state follows; the breakpoint
//! operation works on a native program as on Python.

mod common;

use std::time::Duration;

use serde_json::json;

use common::listener::listen_in;
use common::rest::RestHost;

#[tokio::test(flavor = "multi_thread")]
async fn an_mcp_agent_sees_and_drives_a_session_started_over_rest() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("add.py", common::ADD_PROGRAM)]);
    let host = RestHost::start(ws.path()).await;
    let id = host.session("add.py").await;
    let (status, hit) = host
        .post(
            &format!("/sessions/{id}/breakpoint"),
            json!({"file": "add.py", "line": 3}),
        )
        .await;
    assert_eq!(status, 200, "{hit}");
    assert_eq!(hit["locals"]["total"]["repr"], "3", "{hit}");

    let runtime = host.runtime_dir();
    let agent = listen_in(ws.path(), &[("XDG_RUNTIME_DIR", &runtime)]).await;
    let sessions = agent.ok("debug_sessions", json!({})).await;
    assert!(
        sessions.contains("add.py") && sessions.contains("stopped"),
        "{sessions}"
    );
    // The agent moves it on: to the second call's stop, then to the end.
    let viewport = agent.ok("debug_continue", json!({})).await;
    assert_eq!(common::stopped_line(&viewport), Some(3), "{viewport}");
    assert_eq!(
        common::local(&viewport, "total").as_deref(),
        Some("13"),
        "{viewport}"
    );
    let (_, state) = host.get(&format!("/sessions/{id}")).await;
    assert_eq!(state["status"], "paused", "{state}");
    let end = agent.ok("debug_continue", json!({})).await;
    assert!(end.contains("EXITED"), "{end}");
    let (_, state) = host.get(&format!("/sessions/{id}")).await;
    assert_eq!(state["status"], "completed", "{state}");
    agent.close().await;
    host.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_breakpoint_operation_debugs_a_c_program() {
    if !common::native::lldb_available() {
        return;
    }
    let ws = common::workspace(&[]);
    common::native::build_c_demo(ws.path());
    let host = RestHost::start(ws.path()).await;
    let id = host.session("inventory").await;
    let (status, hit) = host
        .post(
            &format!("/sessions/{id}/breakpoint"),
            json!({"file": "inventory.c", "line": 22}),
        )
        .await;
    assert_eq!(status, 200, "{hit}");
    assert_eq!(hit["hit"], true, "{hit}");
    assert!(
        hit["frameInfo"]["file"]
            .as_str()
            .unwrap()
            .ends_with("/inventory.c"),
        "{hit}"
    );
    assert_eq!(hit["frameInfo"]["line"], 22);
    assert_eq!(
        hit["locals"]["margin"],
        json!({"type": "int", "repr": "0", "isTruncated": false, "tree": {"kind": "atom", "text": "0"}}),
        "{hit}"
    );
    let (status, next) = host
        .post(
            &format!("/sessions/{id}/continue"),
            json!({"file": "inventory.c", "line": 33}),
        )
        .await;
    assert_eq!(status, 200, "{next}");
    // The breakpoint at 22 stays in the active set and is met first.
    assert_eq!(next["frameInfo"]["line"], 22, "{next}");
    let (_, state) = host.get(&format!("/sessions/{id}")).await;
    assert_eq!(
        state["lastBreakpoint"],
        json!({"file": "inventory.c", "line": 22, "hitCount": 2}),
        "{state}"
    );
    let (status, _) = host.delete(&format!("/sessions/{id}")).await;
    assert_eq!(status, 200);
    let left = common::wait_gone("inventory", Duration::from_secs(10)).await;
    assert!(
        left.is_empty(),
        "the program outlived its session: {left:?}"
    );
    host.stop().await;
}
