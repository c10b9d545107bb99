//! `pairdbg serve`: the sessions of a workspace without a terminal UI,
//! reachable over HTTP by every agent front end and published in the
//! workspace's discovery file, so `pairdbg mcp` and `pairdbg ctl` find it
//! as they find a TUI.

use std::net::SocketAddr;
use std::time::Duration;

use crate::agent::Views;
use crate::session::Registry;
use crate::session::types::RunState;
use crate::session::validate::Workspace;

/// What `pairdbg serve` was asked for.
#[derive(Debug, Clone, Default)]
pub struct ServeOptions {
    pub redact: bool,
    /// Stop once no program has been live for this long (a daemon started
    /// for the shell CLI does not linger).
    pub idle_exit: Option<Duration>,
    /// Where to serve; a free loopback port when unset.
    pub http: Option<SocketAddr>,
    /// Permits an `http` address other than loopback.
    pub allow_remote: bool,
}

/// Serves until a signal, or until idle for `idle_exit`; then ends every
/// session.
pub async fn run(ws: Workspace, options: ServeOptions) -> u8 {
    let registry = Registry::default();
    let views = Views::default().with_redaction(options.redact);
    let bind = options
        .http
        .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 0)));
    if !bind.ip().is_loopback() && !options.allow_remote {
        eprintln!(
            "pairdbg: --http {bind} is not a loopback address; add --allow-remote to serve it to other machines"
        );
        return 2;
    }
    let served = crate::mcp::http::serve_at(
        registry.clone(),
        views,
        ws.clone(),
        Some(crate::agent::discovery::Publisher::Host),
        bind,
    )
    .await;
    let endpoint = match served {
        Ok(e) => e,
        Err(e) => {
            eprintln!("pairdbg: cannot serve: {e}");
            return 1;
        }
    };
    eprintln!(
        "pairdbg: serving {} (MCP at {}); the token is in the discovery file",
        ws.root.display(),
        endpoint.url
    );
    if let Some(why) = &endpoint.unpublished {
        eprintln!("pairdbg: {why}; `pairdbg mcp` cannot find this server");
    }
    if options.http.is_some() {
        eprintln!(
            "pairdbg: REST API at {} (OpenAPI at {}/openapi.yaml)",
            endpoint.base, endpoint.base
        );
        eprintln!("Bearer token: {}", endpoint.token);
    }
    tokio::select! {
        _ = super::ending::signalled() => {},
        _ = idle(&registry, options.idle_exit) => {
            eprintln!("pairdbg: no session for a while; stopping");
        },
    }
    drop(endpoint);
    super::ending::end_all(&registry).await;
    0
}

/// Resolves once the registry has held no live program for `limit`. A
/// session whose program ended counts as idle: its output stays readable
/// until then, but it holds no process worth keeping a host for.
async fn idle(registry: &Registry, limit: Option<Duration>) {
    let Some(limit) = limit else {
        return std::future::pending().await;
    };
    let tick = (limit / 10).clamp(Duration::from_millis(50), Duration::from_secs(5));
    let mut empty_since = tokio::time::Instant::now();
    loop {
        tokio::time::sleep(tick).await;
        let live = registry
            .list()
            .0
            .iter()
            .any(|s| !matches!(s.snapshot().state, RunState::Exited | RunState::Error));
        if live {
            empty_since = tokio::time::Instant::now();
        } else if empty_since.elapsed() >= limit {
            return;
        }
    }
}
