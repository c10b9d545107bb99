//! The caller's `timeout_ms` is the start's deadline, end to end: an adapter
//! that takes longer than the 20 s a request is otherwise given to answer
//! `launch` (a busy machine, a slow build) still starts when the caller
//! allowed for it. The adapter is a scripted one, a real process started as
//! the session's Python interpreter, driven through the real binary by a
//! real MCP client.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

use common::{mcp_in, workspace};
use serde_json::json;

/// Says it has debugpy when asked; answers `launch` after 22 s, then plays
/// a program that exits with code 7.
const SLOW_ADAPTER: &str = r#"#!/usr/bin/env python3
import json, sys, time
if len(sys.argv) > 1 and sys.argv[1] == "-c":
    print("1.8.0")
    sys.exit(0)
inp, out = sys.stdin.buffer, sys.stdout.buffer
seq = 0
def send(msg):
    global seq
    seq += 1
    msg["seq"] = seq
    data = json.dumps(msg).encode()
    out.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
    out.flush()
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
    command = req["command"]
    if command == "launch":
        # The fault this test plays: an adapter slower than the default deadline.
        time.sleep(22)
    body = {"supportsConfigurationDoneRequest": True} if command == "initialize" else {}
    if command == "threads":
        body = {"threads": []}
    send({"type": "response", "request_seq": req["seq"], "success": True,
          "command": command, "body": body})
    if command == "launch":
        send({"type": "event", "event": "initialized"})
    if command == "configurationDone":
        send({"type": "event", "event": "exited", "body": {"exitCode": 7}})
        send({"type": "event", "event": "terminated"})
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_launch_slower_than_the_default_deadline_starts_within_the_callers() {
    if !common::tool_available("python3") {
        return;
    }
    let ws = workspace(&[("prog.py", "x = 1\n"), ("slow_adapter", SLOW_ADAPTER)]);
    let fake = ws.path().join("slow_adapter");
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let mcp = mcp_in(ws.path()).await;
    let started = Instant::now();
    let (text, is_error) = mcp
        .call(
            "debug_launch",
            json!({"program": "prog.py", "python": fake.display().to_string(), "timeout_ms": 60000}),
        )
        .await;
    let took = started.elapsed();
    assert!(
        !is_error && text.contains("── EXITED with code 7 ──"),
        "the slow launch should start and end as the adapter said (after {took:?}): {text}"
    );
    assert!(
        took > Duration::from_secs(20),
        "the adapter answered `launch` after 22 s, yet the launch took {took:?}"
    );
    mcp.close().await;
}
