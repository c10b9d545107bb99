//! `pairdbg mcp` when a TUI runs in the same workspace: a stdio MCP server
//! that hands every call to the TUI's HTTP endpoint, so the agent drives the
//! person's live session with the same client configuration it uses alone.
//! What the TUI pushes (breakpoint hits, state changes, resource updates,
//! progress) is passed down to the agent the same way.

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientConfig, CustomNotification,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ReadResourceRequestParams, ResourceUpdatedNotificationParam,
    ServerConfig, ServerNotification, SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};

use crate::agent::discovery::Discovery;

pub struct Proxy {
    upstream: RunningService<RoleClient, Forwarder>,
    info: ServerConfig,
}

/// The upstream client's handler: what the TUI pushes goes to the agent.
#[derive(Clone, Default)]
struct Forwarder {
    agent: Arc<Mutex<Option<Peer<RoleServer>>>>,
}

impl Forwarder {
    fn agent(&self) -> Option<Peer<RoleServer>> {
        self.agent.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

impl ClientHandler for Forwarder {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::default()
    }

    async fn on_custom_notification(
        &self,
        n: CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        if let Some(agent) = self.agent() {
            let _ = agent
                .send_notification(ServerNotification::CustomNotification(n))
                .await;
        }
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        if let Some(agent) = self.agent() {
            let _ = agent.notify_resource_updated(params).await;
        }
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        if let Some(agent) = self.agent() {
            let _ = agent.notify_progress(params).await;
        }
    }
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

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.upstream
            .list_resources(request)
            .await
            .map_err(upstream_error)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.upstream
            .list_resource_templates(request)
            .await
            .map_err(upstream_error)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ReadResourceResponse, ErrorData> {
        self.upstream
            .read_resource(request)
            .await
            .map(Into::into)
            .map_err(upstream_error)
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.upstream
            .subscribe(request)
            .await
            .map_err(upstream_error)
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.upstream
            .unsubscribe(request)
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

/// Connects to the TUI's endpoint for `profile`, then serves stdio until
/// the agent leaves.
pub async fn run(d: Discovery, profile: super::profiles::Profile) -> Result<(), String> {
    let url = profile.url_from(&d.url);
    let config =
        StreamableHttpClientTransportConfig::with_uri(url.clone()).auth_header(d.token.clone());
    let transport = StreamableHttpClientTransport::from_config(config);
    let forwarder = Forwarder::default();
    let upstream = forwarder
        .clone()
        .serve(transport)
        .await
        .map_err(|e| format!("cannot join the TUI at {url}: {e}"))?;
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
    *forwarder.agent.lock().unwrap_or_else(|p| p.into_inner()) = Some(service.peer().clone());
    let _ = service.waiting().await;
    Ok(())
}
