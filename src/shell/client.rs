//! The MCP client `pairdbg ctl` speaks to a running TUI or `pairdbg serve`
//! host over its loopback HTTP endpoint, found through the discovery file.
//! It introduces itself as `pairdbg-ctl`, so the host answers in ctl's
//! names and shows its calls as the shell's.

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation,
    ReadResourceRequestParams, ResourceContents,
};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::Value;

use super::commands::Call;
use super::names::CTL_CLIENT;
use crate::agent::Reply;
use crate::agent::discovery::Discovery;

#[derive(Clone)]
struct Shell;

impl ClientHandler for Shell {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new(CTL_CLIENT, env!("CARGO_PKG_VERSION")),
        )
    }
}

pub struct Host {
    service: RunningService<RoleClient, Shell>,
    url: String,
}

pub async fn connect(d: &Discovery) -> Result<Host, String> {
    let config =
        StreamableHttpClientTransportConfig::with_uri(d.url.clone()).auth_header(d.token.clone());
    let service = Shell
        .serve(StreamableHttpClientTransport::from_config(config))
        .await
        .map_err(|e| format!("cannot reach the pairdbg at {}: {e}", d.url))?;
    Ok(Host {
        service,
        url: d.url.clone(),
    })
}

impl Host {
    pub async fn call(&self, call: &Call) -> Result<Reply, String> {
        let r = self
            .service
            .call_tool(
                CallToolRequestParams::new(call.tool.to_string())
                    .with_arguments(call.arguments.clone()),
            )
            .await
            .map_err(|e| format!("the pairdbg at {} did not answer: {e}", self.url))?;
        let text = r
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect::<Vec<_>>()
            .join("\n");
        Ok(Reply {
            is_error: r.is_error.unwrap_or(false),
            text,
        })
    }

    /// Each session's id, program, state and epoch. Read as a resource, so
    /// asking adds no call to the activity pane.
    pub async fn sessions(&self) -> Result<Vec<Value>, String> {
        let r = self
            .service
            .read_resource(ReadResourceRequestParams::new("debugger://sessions"))
            .await
            .map_err(|e| format!("the pairdbg at {} did not answer: {e}", self.url))?;
        let text = r
            .contents
            .iter()
            .find_map(|c| match c {
                ResourceContents::TextResourceContents { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .unwrap_or("[]");
        serde_json::from_str(text).map_err(|e| format!("the session list does not parse: {e}"))
    }

    pub async fn close(self) {
        let _ = self.service.cancel().await;
    }
}
