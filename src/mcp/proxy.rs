//! `pairdbg mcp` when a TUI runs in the same workspace: a stdio MCP server
//! that hands every call to the TUI's HTTP endpoint, so the agent drives the
//! person's live session with the same client configuration it uses alone.

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ListToolsResult, PaginatedRequestParams, ServerConfig,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};

use super::discovery::Discovery;

pub struct Proxy {
    upstream: RunningService<RoleClient, ()>,
    info: ServerConfig,
}

impl ServerHandler for Proxy {
    fn get_info(&self) -> ServerConfig {
        self.info.clone()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        self.upstream
            .list_tools(request)
            .await
            .map_err(upstream_error)
    }

    async fn complete(
        &self,
        request: rmcp::model::CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CompleteResult, ErrorData> {
        self.upstream
            .complete(request)
            .await
            .map_err(upstream_error)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.upstream
            .call_tool(request)
            .await
            .map(Into::into)
            .map_err(upstream_error)
    }
}

fn upstream_error(e: rmcp::ServiceError) -> ErrorData {
    ErrorData::internal_error(format!("the pairdbg TUI did not answer: {e}"), None)
}

/// Connects to the TUI, then serves stdio until the agent leaves.
pub async fn run(d: Discovery) -> Result<(), String> {
    let config =
        StreamableHttpClientTransportConfig::with_uri(d.url.clone()).auth_header(d.token.clone());
    let transport = StreamableHttpClientTransport::from_config(config);
    let upstream = ()
        .serve(transport)
        .await
        .map_err(|e| format!("cannot join the TUI at {}: {e}", d.url))?;
    let mut info = upstream
        .peer_info()
        .map(|i| ServerConfig::new(i.capabilities.clone()))
        .unwrap_or_default();
    if let Some(upstream_info) = upstream.peer_info() {
        info.instructions = upstream_info.instructions.clone();
    }
    let proxy = Proxy { upstream, info };
    let service = proxy
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| e.to_string())?;
    let _ = service.waiting().await;
    Ok(())
}
