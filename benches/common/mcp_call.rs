//! `pairdbg mcp` behind a real MCP client, and one tool call's text.

use std::path::Path;

use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

pub type Client = rmcp::service::RunningService<RoleClient, ()>;

/// `pairdbg mcp` started in `dir`, initialized.
pub async fn start_in(dir: &Path) -> Client {
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg")).configure(|cmd| {
            cmd.arg("mcp").current_dir(dir);
        }),
    )
    .expect("spawn");
    ().serve(transport).await.expect("initialize")
}

/// The call's text; a tool error ends the benchmark with it.
pub async fn call(client: &Client, tool: &str, args: Value) -> String {
    let r = client
        .call_tool(
            CallToolRequestParams::new(tool.to_string())
                .with_arguments(args.as_object().cloned().unwrap_or_default()),
        )
        .await
        .expect("tool call");
    assert!(
        !r.is_error.unwrap_or(false),
        "{tool} failed: {:?}",
        r.content
    );
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}
