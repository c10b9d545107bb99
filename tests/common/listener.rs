//! A real MCP client that records what the server pushes: custom
//! notifications, resource updates and progress. Tests wait for an entry
//! with a timeout, never by sleeping.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, ClientConfig, CustomNotification, ProgressNotificationParam,
    ProtocolVersion, RequestMetaObject, ResourceUpdatedNotificationParam,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::Value;
use tokio::sync::watch;

#[derive(Debug, Clone)]
pub enum Pushed {
    Custom { method: String, params: Value },
    ResourceUpdated(String),
    Progress(f64),
}

#[derive(Clone)]
pub struct Recorder {
    log: Arc<Mutex<Vec<Pushed>>>,
    count: Arc<watch::Sender<usize>>,
}

impl Default for Recorder {
    fn default() -> Self {
        Recorder {
            log: Default::default(),
            count: Arc::new(watch::Sender::new(0)),
        }
    }
}

impl Recorder {
    fn push(&self, p: Pushed) {
        let mut log = self.log.lock().unwrap();
        log.push(p);
        let n = log.len();
        drop(log);
        self.count.send_replace(n);
    }

    pub fn all(&self) -> Vec<Pushed> {
        self.log.lock().unwrap().clone()
    }

    /// How many entries so far: pass it to `wait_for` to see only newer ones.
    pub fn mark(&self) -> usize {
        self.log.lock().unwrap().len()
    }

    /// The first entry after `from` that `pred` accepts, waiting up to
    /// `secs` for it.
    pub async fn wait_for(
        &self,
        from: usize,
        secs: u64,
        what: &str,
        pred: impl Fn(&Pushed) -> bool,
    ) -> Pushed {
        let mut rx = self.count.subscribe();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
        loop {
            if let Some(p) = self.all().into_iter().skip(from).find(|p| pred(p)) {
                return p;
            }
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                panic!("no {what} within {secs} s; got {:#?}", self.all());
            }
        }
    }

    /// A custom notification's params, after `from`, matching `pred`.
    pub async fn custom(&self, from: usize, method: &str, pred: impl Fn(&Value) -> bool) -> Value {
        match self
            .wait_for(from, 30, method, |p| {
                matches!(p, Pushed::Custom { method: m, params } if m == method && pred(params))
            })
            .await
        {
            Pushed::Custom { params, .. } => params,
            _ => unreachable!(),
        }
    }

    pub fn customs(&self, method: &str) -> Vec<Value> {
        self.all()
            .into_iter()
            .filter_map(|p| match p {
                Pushed::Custom { method: m, params } if m == method => Some(params),
                _ => None,
            })
            .collect()
    }
}

impl ClientHandler for Recorder {
    // Resource subscriptions live on the protocol versions with a session;
    // the recorder asks for pairdbg's own notifications.
    fn get_info(&self) -> ClientConfig {
        let mut config =
            ClientConfig::default().with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE);
        let mut asked = rmcp::model::ExperimentalCapabilities::new();
        asked.insert("debugger/notifications".into(), Default::default());
        config.capabilities.experimental = Some(asked);
        config
    }

    async fn on_custom_notification(
        &self,
        n: CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        self.push(Pushed::Custom {
            method: n.method,
            params: n.params.unwrap_or(Value::Null),
        });
    }

    async fn on_resource_updated(
        &self,
        p: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.push(Pushed::ResourceUpdated(p.uri));
    }

    async fn on_progress(
        &self,
        p: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.push(Pushed::Progress(p.progress));
    }
}

pub struct Listening {
    pub client: RunningService<RoleClient, Recorder>,
    pub pushed: Recorder,
}

/// `pairdbg mcp` in `workspace`, with extra environment, and a recording client.
pub async fn listen_in(workspace: &Path, env: &[(&str, &str)]) -> Listening {
    let ws = workspace.to_path_buf();
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg")).configure(|cmd| {
            cmd.arg("mcp").current_dir(&ws).envs(env.clone());
        }),
    )
    .expect("spawn pairdbg mcp");
    let pushed = Recorder::default();
    let client = pushed
        .clone()
        .serve(transport)
        .await
        .expect("MCP initialize");
    Listening { client, pushed }
}

/// A recording client on an MCP endpoint over streamable HTTP.
pub async fn listen_http(url: &str, token: &str) -> Listening {
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_string())
        .auth_header(token.to_string());
    let pushed = Recorder::default();
    let client = pushed
        .clone()
        .serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("MCP initialize over HTTP");
    Listening { client, pushed }
}

impl Listening {
    /// Calls a tool, with a progress token when given; (text, is_error).
    pub async fn call_with(
        &self,
        tool: &str,
        args: Value,
        progress: Option<&str>,
    ) -> (String, bool) {
        let Value::Object(args) = args else {
            panic!("arguments must be an object")
        };
        let mut params = CallToolRequestParams::new(tool.to_string()).with_arguments(args);
        if let Some(token) = progress {
            let mut meta = RequestMetaObject::default();
            meta.set_progress_token(rmcp::model::ProgressToken(
                rmcp::model::NumberOrString::String(token.into()),
            ));
            params.meta = Some(meta);
        }
        let r = tokio::time::timeout(Duration::from_secs(90), self.client.call_tool(params))
            .await
            .unwrap_or_else(|_| panic!("{tool} did not answer within 90 s"))
            .unwrap_or_else(|e| panic!("{tool} failed at the protocol level: {e}"));
        let text = r
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect::<Vec<_>>()
            .join("\n");
        (text, r.is_error.unwrap_or(false))
    }

    pub async fn ok(&self, tool: &str, args: Value) -> String {
        let (text, is_error) = self.call_with(tool, args, None).await;
        assert!(!is_error, "{tool} failed: {text}");
        text
    }

    pub async fn fails(&self, tool: &str, args: Value) -> String {
        let (text, is_error) = self.call_with(tool, args, None).await;
        assert!(is_error, "{tool} should have failed: {text}");
        text
    }

    pub async fn close(self) {
        let _ = self.client.cancel().await;
    }
}
