//! The pairdbg side of the per-language latency sections: `pairdbg mcp`
//! behind a real MCP client, launched to a breakpoint and stepped over.

use std::time::Instant;

use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::json;

use crate::common::root;
use crate::{call, ms};

pub struct McpSteps {
    client: rmcp::service::RunningService<RoleClient, ()>,
    /// `debug_launch` to its first viewport.
    pub launch_ms: f64,
    /// The first viewport's size.
    pub first_bytes: usize,
}

impl McpSteps {
    /// Launches `program` with one breakpoint at `file:line` and waits for
    /// the stop there.
    pub async fn start(program: &str, file: &str, line: u64) -> McpSteps {
        let transport = TokioChildProcess::new(
            tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg")).configure(|cmd| {
                cmd.arg("mcp").current_dir(root());
            }),
        )
        .expect("spawn");
        let client = ().serve(transport).await.expect("initialize");
        let t = Instant::now();
        let first = call(
            &client,
            "debug_launch",
            json!({"program": program, "breakpoints": [{"file": file, "line": line}]}),
        )
        .await;
        let launch_ms = ms(t.elapsed());
        assert!(first.contains("STOPPED"), "{first}");
        McpSteps {
            client,
            launch_ms,
            first_bytes: first.len(),
        }
    }

    /// One step over: its time and the viewport's size.
    pub async fn step(&self) -> (f64, usize) {
        let t = Instant::now();
        let v = call(&self.client, "debug_step", json!({"kind": "over"})).await;
        assert!(v.contains("STOPPED") || v.contains("STEP"), "{v}");
        (ms(t.elapsed()), v.len())
    }

    pub async fn end(self) {
        let _ = call(&self.client, "debug_terminate", json!({})).await;
        let _ = self.client.cancel().await;
    }
}
