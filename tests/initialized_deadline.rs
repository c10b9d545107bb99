//! An adapter that answers `initialize` and `launch` but never sends
//! `initialized`: the launch fails within the caller's wait, naming the
//! missing event and how long it was waited for, and the adapter is gone.
//! The adapter is a scripted one, a real process started as the session's
//! Python interpreter, driven through the real binary by a real MCP client.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

use common::{descendants, mcp_in, wait_dead, workspace};
use serde_json::json;

/// Says it has debugpy when asked, and otherwise answers every DAP request
/// on stdin with success, never sending an event.
const SILENT_ADAPTER: &str = r#"#!/usr/bin/env python3
import json, sys
if len(sys.argv) > 1 and sys.argv[1] == "-c":
    print("1.8.0")
    sys.exit(0)
inp, out = sys.stdin.buffer, sys.stdout.buffer
seq = 0
while True:
    length = None
    while True:
        line = inp.readline()
        if not line:
            sys.exit(0)
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    req = json.loads(inp.read(length))
    seq += 1
    body = {"supportsConfigurationDoneRequest": True} if req["command"] == "initialize" else {}
    resp = json.dumps({"seq": seq, "type": "response", "request_seq": req["seq"],
                       "success": True, "command": req["command"], "body": body}).encode()
    out.write(b"Content-Length: %d\r\n\r\n" % len(resp) + resp)
    out.flush()
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adapter_that_never_sends_initialized_fails_the_launch_and_is_gone() {
    if !common::tool_available("python3") {
        return;
    }
    let ws = workspace(&[
        ("prog.py", "x = 1\nprint(x)\n"),
        ("silent_adapter", SILENT_ADAPTER),
    ]);
    let fake = ws.path().join("silent_adapter");
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let mcp = mcp_in(ws.path()).await;
    let started = Instant::now();
    let wait_ms = 30_000;
    let (text, is_error) = mcp
        .call(
            "debug_launch",
            json!({"program": "prog.py", "python": fake.display().to_string(), "timeout_ms": wait_ms}),
        )
        .await;
    let took = started.elapsed();
    assert!(
        text.contains("the debug adapter never sent `initialized` (waited 20000 ms)"),
        "the launch did not say why it failed (error: {is_error}): {text}"
    );
    assert!(
        took < Duration::from_millis(wait_ms),
        "the launch took {took:?}, past the {wait_ms} ms asked"
    );
    let status = mcp.ok("debug_status", json!({})).await;
    assert!(status.contains("initialized"), "{status}");
    let left = wait_dead(&descendants(mcp.pid), Duration::from_secs(10)).await;
    assert!(
        left.is_empty(),
        "still alive after the failed launch: {:?}",
        left.iter()
            .map(|p| common::faults::cmdline(*p))
            .collect::<Vec<_>>()
    );
    mcp.close().await;
}
