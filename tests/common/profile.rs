//! A client of `pairdbg mcp --profile mcp-debugger`: JSON results,
//! checked for mcp-debugger's `success` and MCP's isError together.

use std::path::Path;
use std::time::Duration;

use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

pub struct Client {
    client: RunningService<RoleClient, ()>,
}

/// A client of the profile over stdio, with extra environment.
pub async fn profile_in(ws: &Path, env: &[(&str, &str)]) -> Client {
    let ws = ws.to_path_buf();
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg")).configure(|cmd| {
            cmd.args(["mcp", "--profile", "mcp-debugger"])
                .current_dir(&ws)
                .envs(env.clone());
        }),
    )
    .expect("spawn pairdbg mcp --profile mcp-debugger");
    let client = ().serve(transport).await.expect("MCP initialize");
    Client { client }
}

impl Client {
    /// The tool's JSON result, and whether it set isError.
    pub async fn call(&self, tool: &str, args: Value) -> (Value, bool) {
        let Value::Object(args) = args else {
            panic!("arguments must be an object")
        };
        let r = tokio::time::timeout(
            Duration::from_secs(60),
            self.client
                .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args)),
        )
        .await
        .unwrap_or_else(|_| panic!("{tool} did not answer within 60 s"))
        .unwrap_or_else(|e| panic!("{tool} failed at the protocol level: {e}"));
        let text = r
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect::<String>();
        let body: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{tool} did not answer JSON ({e}): {text}"));
        (body, r.is_error.unwrap_or(false))
    }

    /// A call that must succeed: `success: true` and no isError.
    pub async fn ok(&self, tool: &str, args: Value) -> Value {
        let (body, is_error) = self.call(tool, args).await;
        assert_eq!(body["success"], json!(true), "{tool}: {body}");
        assert!(!is_error, "{tool} set isError: {body}");
        body
    }

    /// A call that must fail both ways: `success: false` and isError.
    pub async fn fails(&self, tool: &str, args: Value) -> Value {
        let (body, is_error) = self.call(tool, args).await;
        assert_eq!(body["success"], json!(false), "{tool}: {body}");
        assert!(is_error, "{tool} failed without isError: {body}");
        body
    }

    /// The names of the tools the server lists.
    pub async fn tool_names(&self) -> Vec<String> {
        let tools = tokio::time::timeout(Duration::from_secs(60), self.client.list_all_tools())
            .await
            .expect("tools/list did not answer within 60 s")
            .expect("tools/list failed");
        tools.into_iter().map(|t| t.name.to_string()).collect()
    }

    /// get_output from `since` until the output read contains `needle` (10 s
    /// at most): the text read, and the response last read.
    pub async fn output_containing(&self, id: &str, since: u64, needle: &str) -> (String, Value) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let body = self
                .ok("get_output", json!({"sessionId": id, "since": since}))
                .await;
            let text: String = body["entries"]
                .as_array()
                .map(|es| es.iter().filter_map(|e| e["output"].as_str()).collect())
                .unwrap_or_default();
            if text.contains(needle) || tokio::time::Instant::now() > deadline {
                return (text, body);
            }
            tokio::task::yield_now().await;
        }
    }

    pub async fn close(self) {
        let _ = self.client.cancel().await;
    }
}

/// The variable `name` of a `variables` list.
pub fn var<'a>(body: &'a Value, name: &str) -> &'a Value {
    body["variables"]
        .as_array()
        .and_then(|vs| vs.iter().find(|v| v["name"] == name))
        .unwrap_or_else(|| panic!("no variable {name} in {body}"))
}

pub fn top_frame(stack: &Value) -> &Value {
    &stack["stackFrames"][0]
}
