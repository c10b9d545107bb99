//! The connection to the host a joined `pairdbg mcp` drives: what the host
//! pushes (breakpoint hits, state changes, resource updates, progress) goes
//! down to the agent.

use crate::sync::Locked;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    ClientConfig, CustomNotification, ExperimentalCapabilities, ProgressNotificationParam,
    ResourceUpdatedNotificationParam, ServerNotification,
};
use rmcp::service::{NotificationContext, Peer, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, RoleClient, RoleServer, ServiceExt};

use crate::agent::discovery::{Discovery, Publisher};
use crate::mcp::profiles::Profile;
use crate::mcp::push::OPT_IN;

/// The agent's side, once it is there; shared by every upstream in turn.
#[derive(Clone, Default)]
pub struct Agent {
    pub peer: Arc<Mutex<Option<Peer<RoleServer>>>>,
    /// The agent subscribed to `debugger://notifications`.
    pub subscribed: Arc<AtomicBool>,
}

impl Agent {
    fn peer(&self) -> Option<Peer<RoleServer>> {
        self.peer.locked().clone()
    }

    /// Whether the agent asked for pairdbg's own notifications, as the
    /// host would judge it were the agent its client.
    fn asked(&self, peer: &Peer<RoleServer>) -> bool {
        self.subscribed.load(Ordering::SeqCst)
            || peer.peer_info().is_some_and(|i| {
                let c = &i.capabilities;
                c.experimental
                    .as_ref()
                    .is_some_and(|m| m.contains_key(OPT_IN))
                    || c.extensions
                        .as_ref()
                        .is_some_and(|m| m.contains_key(OPT_IN))
            })
    }
}

/// The upstream client's handler: what the host pushes goes to the agent.
#[derive(Clone, Default)]
pub struct Forwarder {
    pub agent: Agent,
}

impl Forwarder {
    fn agent(&self) -> Option<Peer<RoleServer>> {
        self.agent.peer()
    }
}

impl ClientHandler for Forwarder {
    // The agent may ask for them after we joined: we always ask the host,
    // and pass them on only once the agent has.
    fn get_info(&self) -> ClientConfig {
        let mut config = ClientConfig::default();
        let mut asked = ExperimentalCapabilities::new();
        asked.insert(OPT_IN.to_string(), Default::default());
        config.capabilities.experimental = Some(asked);
        config
    }

    async fn on_custom_notification(
        &self,
        n: CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        if let Some(agent) = self.agent().filter(|p| self.agent.asked(p)) {
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

/// A live connection to one host.
pub struct Upstream {
    pub service: RunningService<RoleClient, Forwarder>,
    pub host: Host,
}

/// Which host a connection is to, in the words the agent reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Host {
    pub pid: u32,
    pub publisher: Publisher,
}

impl Host {
    pub fn of(d: &Discovery) -> Host {
        Host {
            pid: d.pid,
            publisher: d.publisher,
        }
    }

    /// "the pairdbg TUI (pid 123)" or "pairdbg serve (pid 123)".
    pub fn name(&self) -> String {
        match self.publisher {
            Publisher::Tui => format!("the pairdbg TUI (pid {})", self.pid),
            Publisher::Host => format!("pairdbg serve (pid {})", self.pid),
        }
    }
}

/// Joins the host `d` names, for `profile`.
pub async fn connect(d: &Discovery, profile: Profile, agent: Agent) -> Result<Upstream, String> {
    let url = profile.url_from(&d.url);
    let config =
        StreamableHttpClientTransportConfig::with_uri(url.clone()).auth_header(d.token.clone());
    let transport = StreamableHttpClientTransport::from_config(config);
    let service = Forwarder { agent }
        .serve(transport)
        .await
        .map_err(|e| format!("cannot join {} at {url}: {e}", Host::of(d).name()))?;
    Ok(Upstream {
        service,
        host: Host::of(d),
    })
}
