//! An MCP client with no library between it and `pairdbg mcp`'s stdout:
//! raw JSON-RPC read line by line, so messages are seen in exactly the
//! order the server wrote them (a library client handles notifications
//! concurrently, which hides their order).

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

pub struct RawMcp {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    next_id: u64,
}

impl RawMcp {
    /// Spawns `bin mcp` in `workspace` and completes the handshake.
    pub async fn start(bin: &str, workspace: &Path) -> RawMcp {
        let mut child = Command::new(bin)
            .arg("mcp")
            .current_dir(workspace)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn pairdbg mcp");
        let stdin = child.stdin.take().expect("stdin");
        let lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut mcp = RawMcp {
            child,
            stdin,
            lines,
            next_id: 1,
        };
        let init = json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {"experimental": {"debugger/notifications": {}}},
            "clientInfo": {"name": "raw", "version": "0"},
        });
        mcp.request("initialize", init, |_| {}).await;
        mcp.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        mcp
    }

    pub async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin
            .write_all(line.as_bytes())
            .await
            .expect("write to pairdbg mcp");
    }

    /// The next message the server wrote, or None after `within`.
    pub async fn next(&mut self, within: Duration) -> Option<Value> {
        let line = tokio::time::timeout(within, self.lines.next_line())
            .await
            .ok()?
            .expect("read pairdbg mcp")?;
        Some(serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}")))
    }

    /// Sends a request and reads up to its response, handing every message
    /// before it to `seen` in order.
    pub async fn request(
        &mut self,
        method: &str,
        params: Value,
        mut seen: impl FnMut(&Value),
    ) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let m = self
                .next(Duration::from_secs(60))
                .await
                .unwrap_or_else(|| panic!("no answer to {method} within 60 s"));
            if m.get("id") == Some(&json!(id)) && m.get("method").is_none() {
                return m;
            }
            seen(&m);
        }
    }

    /// A tool's result text; panics on a protocol error.
    pub async fn call(&mut self, tool: &str, args: Value, seen: impl FnMut(&Value)) -> String {
        let r = self
            .request("tools/call", json!({"name": tool, "arguments": args}), seen)
            .await;
        let content = r["result"]["content"]
            .as_array()
            .unwrap_or_else(|| panic!("{tool}: {r}"));
        content
            .iter()
            .filter_map(|c| c["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub async fn close(mut self) {
        drop(self.stdin);
        if tokio::time::timeout(Duration::from_secs(10), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

/// The loop index a `{i}` tracepoint's hit carries, when `m` is one.
pub fn traced_index(m: &Value) -> Option<u64> {
    if m["method"] != "debugger/breakpointHit" || m["params"]["type"] != "tracepoint" {
        return None;
    }
    m["params"]["logMessage"].as_str()?.trim().parse().ok()
}
