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
use crate::agent::discovery::{self, Discovery, Published};
use crate::session::Registry;
use crate::session::validate::Workspace;

pub struct HttpEndpoint {
    pub url: String,
    pub addr: SocketAddr,
    pub token: String,
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

/// Serves the registry's sessions on a free loopback port and, when `publish`
/// is set, writes the discovery file for the workspace.
pub async fn serve(
    registry: Registry,
    views: Views,
    ws: Workspace,
    publish: bool,
) -> std::io::Result<HttpEndpoint> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let token = format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    );
    let cancel = CancellationToken::new();
    let port = addr.port();
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts([
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            "127.0.0.1".into(),
            "localhost".into(),
        ])
        .with_allowed_origins([
            format!("http://127.0.0.1:{port}"),
            format!("http://localhost:{port}"),
        ])
        .enforce_origin_validation()
        .with_cancellation_token(cancel.child_token());
    let ws_for_server = ws.clone();
    let profile = mcp_debugger_service(&registry, &views, &ws, config.clone());
    let service: StreamableHttpService<PairdbgServer, LocalSessionManager> =
        StreamableHttpService::new(
            move || {
                Ok(PairdbgServer::with_views(
                    registry.clone(),
                    ws_for_server.clone(),
                    views.clone(),
                ))
            },
            Default::default(),
            config,
        );
    let app = axum::Router::new()
        .nest_service("/mcp", service)
        .nest_service(mcp_debugger::HTTP_PATH, profile)
        .layer(middleware::from_fn_with_state(token.clone(), require_token));
    let stop = cancel.clone();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(async move { stop.cancelled_owned().await })
            .await;
    });
    let url = format!("http://127.0.0.1:{port}/mcp");
    let published = if publish {
        Some(discovery::publish(&Discovery {
            url: url.clone(),
            token: token.clone(),
            pid: std::process::id(),
            workspace: ws.root.clone(),
        })?)
    } else {
        None
    };
    Ok(HttpEndpoint {
        url,
        addr,
        token,
        cancel,
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
                views.clone(),
                table.clone(),
            ))
        },
        Default::default(),
        config,
    )
}
