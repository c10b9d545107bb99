//! `pairdbg mcp` when a TUI (or `pairdbg serve`) runs in the same workspace:
//! a stdio MCP server that hands every call to that host's HTTP endpoint, so
//! the agent drives the person's live session with the same client
//! configuration it uses alone.
//!
//! The agent cannot restart us, so a host that ends must not strand it: the
//! next call says in plain words what happened, and we join the next host
//! of the workspace or, with none, serve sessions of our own.

mod upstream;

use crate::sync::Locked;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ServerConfig, SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ErrorData, RoleClient, RoleServer, ServerHandler, ServiceError, ServiceExt};

use crate::agent::discovery::{self, Discovery};
use crate::mcp::profiles::Profile;
use crate::session::Registry;
use upstream::{Agent, Host, Upstream};

/// Builds the server that takes over when no host is left.
pub type MakeLocal<L> = Box<dyn Fn() -> (L, Registry) + Send + Sync>;

pub struct Proxy<L> {
    info: ServerConfig,
    profile: Profile,
    workspace: std::path::PathBuf,
    agent: Agent,
    backend: std::sync::Arc<tokio::sync::RwLock<Backend<L>>>,
    make_local: MakeLocal<L>,
}

enum Backend<L> {
    Upstream(Upstream),
    Local(L, Registry),
}

/// Where one request goes, taken without holding the lock across it.
enum Route<L> {
    Upstream(Peer<RoleClient>, Host),
    Local(L),
}

/// What a failed upstream request means.
enum Failure {
    /// The host answered with an error of its own: the agent gets it as is.
    Answered(ErrorData),
    /// The host is gone or cannot be reached; the agent was told this.
    Lost(String),
}

impl<L: ServerHandler + Clone> Proxy<L> {
    async fn route(&self) -> Route<L> {
        match &*self.backend.read().await {
            Backend::Upstream(u) => Route::Upstream(u.service.peer().clone(), u.host.clone()),
            Backend::Local(l, _) => Route::Local(l.clone()),
        }
    }

    async fn failed(&self, host: &Host, e: ServiceError) -> Failure {
        match e {
            ServiceError::McpError(data) => Failure::Answered(data),
            ServiceError::Timeout { timeout } => Failure::Answered(ErrorData::internal_error(
                format!(
                    "{} did not answer within {} ms",
                    host.name(),
                    timeout.as_millis()
                ),
                None,
            )),
            other => Failure::Lost(self.replace(host, &other).await),
        }
    }

    /// The connection to `lost` failed with `why`: joins the next host of
    /// the workspace, or serves on our own, and says which in one sentence.
    async fn replace(&self, lost: &Host, why: &ServiceError) -> String {
        let gone = if alive(lost.pid) {
            let why = match why {
                ServiceError::TransportClosed => "its connection closed".to_string(),
                _ => "its connection failed".to_string(),
            };
            format!("{} stopped answering ({why})", lost.name())
        } else {
            format!("{} has ended, and its sessions with it", lost.name())
        };
        let mut backend = self.backend.write().await;
        // A call that failed at the same time may have replaced it already.
        let still_lost = matches!(&*backend, Backend::Upstream(u) if u.host == *lost);
        if still_lost {
            *backend = self.next_backend().await;
        }
        let now = match &*backend {
            Backend::Upstream(u) => format!("joined {} in this workspace", u.host.name()),
            Backend::Local(..) => {
                "debugging on its own: `debug_launch` starts a new session".to_string()
            }
        };
        let said = format!("{gone}. pairdbg mcp has {now}. Call again to go on.");
        tracing::warn!("{said}");
        said
    }

    async fn next_backend(&self) -> Backend<L> {
        if let Some(d) = discovery::find(&self.workspace) {
            match upstream::connect(&d, self.profile, self.agent.clone()).await {
                Ok(u) => return Backend::Upstream(u),
                Err(e) => tracing::warn!("{e}"),
            }
        }
        let (local, registry) = (self.make_local)();
        Backend::Local(local, registry)
    }
}

fn alive(pid: u32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { libc::kill(pid as i32, 0) == 0 }
}

/// Forwards one request that may be retried once the host is replaced (it
/// only reads), or runs it on our own server.
macro_rules! forward {
    ($self:ident, $context:ident, |$peer:ident| $up:expr, |$local:ident| $down:expr) => {{
        for _ in 0..2 {
            match $self.route().await {
                Route::Local($local) => return $down,
                Route::Upstream($peer, host) => match $up.await {
                    Ok(r) => return Ok(r),
                    Err(e) => match $self.failed(&host, e).await {
                        Failure::Answered(data) => return Err(data),
                        Failure::Lost(_) => continue,
                    },
                },
            }
        }
        Err(ErrorData::internal_error(
            "no pairdbg host answered; call again",
            None,
        ))
    }};
}

impl<L: ServerHandler + Clone> ServerHandler for Proxy<L> {
    fn get_info(&self) -> ServerConfig {
        self.info.clone()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        forward!(
            self,
            context,
            |peer| peer.list_tools(request.clone()),
            |local| local.list_tools(request, context).await
        )
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        forward!(
            self,
            context,
            |peer| peer.list_resources(request.clone()),
            |local| local.list_resources(request, context).await
        )
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        forward!(
            self,
            context,
            |peer| peer.list_resource_templates(request.clone()),
            |local| local.list_resource_templates(request, context).await
        )
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ReadResourceResponse, ErrorData> {
        forward!(
            self,
            context,
            |peer| async { peer.read_resource(request.clone()).await.map(Into::into) },
            |local| local.read_resource(request, context).await
        )
    }

    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if request.uri == crate::mcp::push::OPT_IN_URI {
            self.agent
                .subscribed
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
        forward!(
            self,
            context,
            |peer| peer.subscribe(request.clone()),
            |local| local.subscribe(request, context).await
        )
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if request.uri == crate::mcp::push::OPT_IN_URI {
            self.agent
                .subscribed
                .store(false, std::sync::atomic::Ordering::SeqCst);
        }
        forward!(
            self,
            context,
            |peer| peer.unsubscribe(request.clone()),
            |local| local.unsubscribe(request, context).await
        )
    }

    async fn complete(
        &self,
        request: rmcp::model::CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CompleteResult, ErrorData> {
        forward!(
            self,
            context,
            |peer| peer.complete(request.clone()),
            |local| local.complete(request, context).await
        )
    }

    /// A tool call is never repeated on another host: it could step or
    /// launch where the agent did not mean to. The agent is told what
    /// happened and calls again.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match self.route().await {
            Route::Local(local) => local.call_tool(request, context).await,
            Route::Upstream(peer, host) => match peer.call_tool(request).await {
                Ok(r) => Ok(r.into()),
                Err(e) => match self.failed(&host, e).await {
                    Failure::Answered(data) => Err(data),
                    Failure::Lost(said) => {
                        Ok(CallToolResult::error(vec![ContentBlock::text(said)]).into())
                    }
                },
            },
        }
    }
}

/// Joins the host `d` names for `profile`, then serves stdio until the
/// agent leaves. Returns the registry of the sessions served on our own
/// after the hosts ended, for the caller to end.
pub async fn run<L: ServerHandler + Clone>(
    d: Discovery,
    profile: Profile,
    workspace: std::path::PathBuf,
    make_local: MakeLocal<L>,
) -> Result<Option<Registry>, String> {
    let agent = Agent::default();
    let upstream = upstream::connect(&d, profile, agent.clone()).await?;
    let mut info = upstream
        .service
        .peer_info()
        .map(|i| ServerConfig::new(i.capabilities.clone()))
        .unwrap_or_default();
    if let Some(upstream_info) = upstream.service.peer_info() {
        info.instructions = upstream_info.instructions.clone();
    }
    let backend = std::sync::Arc::new(tokio::sync::RwLock::new(Backend::Upstream(upstream)));
    let proxy = Proxy {
        info,
        profile,
        workspace,
        agent: agent.clone(),
        backend: backend.clone(),
        make_local,
    };
    let service = proxy
        .serve(crate::mcp::stdio_guard::stdio())
        .await
        .map_err(|e| e.to_string())?;
    *agent.peer.locked() = Some(service.peer().clone());
    let _ = service.waiting().await;
    let registry = match &*backend.read().await {
        Backend::Local(_, registry) => Some(registry.clone()),
        Backend::Upstream(_) => None,
    };
    Ok(registry)
}
