//! MCP over streamable HTTP on 127.0.0.1, for agents to join a running TUI.
//! A bearer token guards it; Host and Origin checks stop web pages (DNS
//! rebinding, cross-site requests) from driving it.

use std::net::SocketAddr;

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use super::profiles::mcp_debugger::{self, McpDebuggerServer};
use super::server::PairdbgServer;
use crate::agent::Views;
use crate::agent::discovery::{self, Discovery, Published, Publisher};
use crate::session::Registry;
use crate::session::validate::Workspace;

pub struct HttpEndpoint {
    pub url: String,
    /// Where the REST API is served: the same server, at its root.
    pub base: String,
    pub addr: SocketAddr,
    pub token: String,
    /// Why `pairdbg mcp` cannot find this server, when it cannot (no private
    /// runtime directory to publish in): it is still served, by URL and token.
    pub unpublished: Option<String>,
    cancel: CancellationToken,
    _published: Option<Published>,
}

impl Drop for HttpEndpoint {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

async fn require_token(State(expected): State<String>, req: Request, next: Next) -> Response {
    let ok = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .is_some_and(|t| constant_time_eq(t.as_bytes(), expected.as_bytes()));
    if ok {
        next.run(req).await
    } else {
        (
            StatusCode::UNAUTHORIZED,
            "pairdbg: a bearer token is required; `pairdbg mcp` reads it from the discovery file",
        )
            .into_response()
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Serves the registry's sessions on a free loopback port and, when
/// `publish` names who serves, writes the discovery file for the workspace.
pub async fn serve(
    registry: Registry,
    views: Views,
    ws: Workspace,
    publish: Option<Publisher>,
) -> std::io::Result<HttpEndpoint> {
    let loopback = SocketAddr::from(([127, 0, 0, 1], 0));
    serve_at(registry, views, ws, publish, loopback).await
}

/// Serves at `bind` (a caller allows a non-loopback address only when told
/// to): MCP at /mcp, the REST API at the root.
pub async fn serve_at(
    registry: Registry,
    views: Views,
    ws: Workspace,
    publish: Option<Publisher>,
    bind: SocketAddr,
) -> std::io::Result<HttpEndpoint> {
    let listener = tokio::net::TcpListener::bind(bind).await?;
    let addr = listener.local_addr()?;
    // The address it can be reached at: the one bound, or for "any
    // address" the loopback one of the same family.
    let host = match addr.ip() {
        std::net::IpAddr::V4(ip) if ip.is_unspecified() => "127.0.0.1".to_string(),
        std::net::IpAddr::V6(ip) if ip.is_unspecified() => "[::1]".to_string(),
        std::net::IpAddr::V6(ip) => format!("[{ip}]"),
        ip => ip.to_string(),
    };
    let token = format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    );
    let cancel = CancellationToken::new();
    let port = addr.port();
    let mut hosts = vec![
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        "127.0.0.1".to_string(),
        "localhost".to_string(),
    ];
    let mut origins = vec![
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
    ];
    if host != "127.0.0.1" {
        hosts.extend([format!("{host}:{port}"), host.clone()]);
        origins.push(format!("http://{host}:{port}"));
    }
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts.clone())
        .with_allowed_origins(origins.clone())
        .enforce_origin_validation()
        .with_cancellation_token(cancel.child_token());
    let ws_for_server = ws.clone();
    let rest = crate::rest::router(
        registry.clone(),
        &views,
        ws.clone(),
        crate::rest::Allowed {
            hosts: hosts.into(),
            origins: origins.into(),
        },
    );
    let profile = mcp_debugger_service(&registry, &views, &ws, config.clone());
    let service: StreamableHttpService<PairdbgServer, LocalSessionManager> =
        StreamableHttpService::new(
            move || {
                Ok(PairdbgServer::with_views(
                    registry.clone(),
                    ws_for_server.clone(),
                    views.for_another_client(),
                ))
            },
            Default::default(),
            config,
        );
    let app = axum::Router::new()
        .nest_service("/mcp", service)
        .merge(rest)
        .nest_service(mcp_debugger::HTTP_PATH, profile)
        .layer(middleware::from_fn_with_state(token.clone(), require_token));
    let stop = cancel.clone();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(async move { stop.cancelled_owned().await })
            .await;
    });
    let base = format!("http://{host}:{port}");
    let url = format!("{base}/mcp");
    let (published, unpublished) = match publish {
        Some(publisher) => match discovery::publish(&Discovery {
            url: url.clone(),
            token: token.clone(),
            pid: std::process::id(),
            workspace: ws.root.clone(),
            publisher,
        }) {
            Ok(p) => (Some(p), None),
            Err(e) => {
                tracing::warn!("not published for `pairdbg mcp`: {e}");
                (None, Some(e.to_string()))
            }
        },
        None => (None, None),
    };
    Ok(HttpEndpoint {
        url,
        base,
        addr,
        token,
        cancel,
        unpublished,
        _published: published,
    })
}

/// The mcp-debugger profile over the same registry, for `pairdbg mcp
/// --profile mcp-debugger` joining this app; its clients share one table.
fn mcp_debugger_service(
    registry: &Registry,
    views: &Views,
    ws: &Workspace,
    config: StreamableHttpServerConfig,
) -> StreamableHttpService<McpDebuggerServer, LocalSessionManager> {
    let (registry, views, ws) = (registry.clone(), views.clone(), ws.clone());
    let table = mcp_debugger::Table::default();
    StreamableHttpService::new(
        move || {
            Ok(McpDebuggerServer::new(
                registry.clone(),
                ws.clone(),
                views.for_another_client(),
                table.clone(),
            ))
        },
        Default::default(),
        config,
    )
}
