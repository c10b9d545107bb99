//! `pairdbg serve --http` and a plain HTTP client for the REST API.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};

pub struct RestHost {
    pub child: tokio::process::Child,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    pub token: String,
    pub client: reqwest::Client,
    /// The host's discovery file lives here; `pairdbg mcp` finds it through it.
    pub runtime: tempfile::TempDir,
}

impl RestHost {
    /// Starts the host in `ws` and reads its address and token from stderr.
    pub async fn start(ws: &Path) -> RestHost {
        let runtime = tempfile::tempdir().unwrap();
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
            .args(["serve", "--http", "127.0.0.1:0"])
            .current_dir(ws)
            .env("XDG_RUNTIME_DIR", runtime.path())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn pairdbg serve");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let (mut base, mut token) = (None, None);
        while base.is_none() || token.is_none() {
            let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
                .await
                .expect("pairdbg serve printed no address and token within 20 s")
                .unwrap()
                .expect("pairdbg serve ended before printing its address and token");
            if let Some(rest) = line.strip_prefix("pairdbg: REST API at ") {
                base = rest.split_whitespace().next().map(str::to_string);
            }
            if let Some(t) = line.strip_prefix("Bearer token: ") {
                token = Some(t.trim().to_string());
            }
        }
        // Keep reading so the host never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        RestHost {
            child,
            base: base.unwrap(),
            token: token.unwrap(),
            client: reqwest::Client::new(),
            runtime,
        }
    }

    pub fn runtime_dir(&self) -> String {
        self.runtime.path().to_str().unwrap().to_string()
    }

    async fn send(&self, req: reqwest::RequestBuilder) -> (u16, Value) {
        let resp = req
            .bearer_auth(&self.token)
            .timeout(Duration::from_secs(60))
            .send()
            .await
            .expect("HTTP request");
        let status = resp.status().as_u16();
        let text = resp.text().await.unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, body)
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(self.client.post(format!("{}{path}", self.base)).json(&body))
            .await
    }

    /// A POST of raw text, for bodies that are not what a serializer makes.
    pub async fn post_raw(&self, path: &str, body: &str) -> (u16, Value) {
        self.send(
            self.client
                .post(format!("{}{path}", self.base))
                .header("content-type", "application/json")
                .body(body.to_string()),
        )
        .await
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        self.send(self.client.get(format!("{}{path}", self.base)))
            .await
    }

    pub async fn delete(&self, path: &str) -> (u16, Value) {
        self.send(self.client.delete(format!("{}{path}", self.base)))
            .await
    }

    /// Creates a session for `entry` and returns its id.
    pub async fn session(&self, entry: &str) -> String {
        let (status, body) = self
            .post("/sessions", serde_json::json!({ "entry": entry }))
            .await;
        assert_eq!(status, 200, "{body}");
        body["sessionId"].as_str().expect("sessionId").to_string()
    }

    /// Ends the host as a signal would, and waits for it.
    pub async fn stop(mut self) {
        if let Some(pid) = self.child.id() {
            unsafe { libc::kill(pid as i32, libc::SIGTERM) };
        }
        let _ = tokio::time::timeout(Duration::from_secs(10), self.child.wait()).await;
    }
}
