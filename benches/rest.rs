//! The REST API against MCP on one host: `POST /sessions/{id}/breakpoint`
//! end to end on the demo beside MCP's `debug_launch` with the same
//! breakpoint, alternated round by round; then the memory 1000 idle REST
//! sessions cost, and the answer at session 1001.
//! Run with `cargo bench --bench rest` (needs debugpy).

mod common;

use std::process::Stdio;
use std::time::Instant;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};

use common::median;

const ROUNDS: usize = 8;
const DEMO: &str = "assets/demo/order.py";
const LINE: u64 = 41;

struct Host {
    child: tokio::process::Child,
    base: String,
    token: String,
    _runtime: tempfile::TempDir,
}

async fn start_host() -> Host {
    let runtime = tempfile::tempdir().unwrap();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(["serve", "--http", "127.0.0.1:0"])
        .current_dir(common::root())
        .env("XDG_RUNTIME_DIR", runtime.path())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn pairdbg serve");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let (mut base, mut token) = (None, None);
    while base.is_none() || token.is_none() {
        let line = lines.next_line().await.unwrap().expect("serve ended");
        if let Some(r) = line.strip_prefix("pairdbg: REST API at ") {
            base = r.split_whitespace().next().map(str::to_string);
        }
        if let Some(t) = line.strip_prefix("Bearer token: ") {
            token = Some(t.to_string());
        }
    }
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Host {
        child,
        base: base.unwrap(),
        token: token.unwrap(),
        _runtime: runtime,
    }
}

async fn call(
    client: &reqwest::Client,
    host: &Host,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut req = client
        .request(method, format!("{}{path}", host.base))
        .bearer_auth(&host.token);
    if let Some(b) = body {
        req = req.json(&b);
    }
    let resp = req.send().await.expect("request");
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut host = start_host().await;
    let client = reqwest::Client::new();
    let config = StreamableHttpClientTransportConfig::with_uri(format!("{}/mcp", host.base))
        .auth_header(host.token.clone());
    let mcp =
        ().serve(StreamableHttpClientTransport::from_config(config))
            .await
            .expect("MCP initialize");

    let (mut rest_ms, mut mcp_ms) = (vec![], vec![]);
    for round in 0..ROUNDS + 1 {
        let (_, created) = call(
            &client,
            &host,
            reqwest::Method::POST,
            "/sessions",
            Some(json!({"entry": DEMO})),
        )
        .await;
        let id = created["sessionId"]
            .as_str()
            .expect("sessionId")
            .to_string();
        let t = Instant::now();
        let (status, hit) = call(
            &client,
            &host,
            reqwest::Method::POST,
            &format!("/sessions/{id}/breakpoint"),
            Some(json!({"file": DEMO, "line": LINE})),
        )
        .await;
        let rest = t.elapsed().as_secs_f64() * 1000.0;
        assert!(status == 200 && hit["hit"] == true, "{hit}");
        call(
            &client,
            &host,
            reqwest::Method::DELETE,
            &format!("/sessions/{id}"),
            None,
        )
        .await;

        let t = Instant::now();
        let args = json!({"program": DEMO, "breakpoints": [{"file": DEMO, "line": LINE}]});
        let r = mcp
            .call_tool(
                CallToolRequestParams::new("debug_launch")
                    .with_arguments(args.as_object().unwrap().clone()),
            )
            .await
            .expect("debug_launch");
        let via_mcp = t.elapsed().as_secs_f64() * 1000.0;
        let text: String = r
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect();
        assert!(
            text.contains(&format!("STOPPED at {DEMO}:{LINE}")),
            "{text}"
        );
        mcp.call_tool(CallToolRequestParams::new("debug_terminate"))
            .await
            .expect("debug_terminate");
        // The first round warms both paths up (imports, caches).
        if round > 0 {
            rest_ms.push(rest);
            mcp_ms.push(via_mcp);
        }
    }
    let (r, m) = (median(rest_ms.clone()), median(mcp_ms.clone()));
    println!(
        "REST POST /sessions/{{id}}/breakpoint, end to end: {r:.1} ms median of {}",
        rest_ms.len()
    );
    println!(
        "MCP debug_launch to the same breakpoint:          {m:.1} ms median of {}",
        mcp_ms.len()
    );
    println!("ratio REST / MCP: {:.3}", r / m);
    let _ = mcp.cancel().await;

    stop(&mut host).await;

    // 1000 idle sessions on a fresh host, whose heap no earlier run left
    // slack in: no process each, so the cost is pairdbg's own.
    let mut host = start_host().await;
    let pid = host.child.id().expect("serve pid");
    let before = rss_kib(pid);
    for _ in 0..1000 {
        let (status, body) = call(
            &client,
            &host,
            reqwest::Method::POST,
            "/sessions",
            Some(json!({"entry": DEMO})),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let after = rss_kib(pid);
    println!(
        "1000 idle REST sessions: RSS {before} KiB -> {after} KiB, {:.2} KiB per session",
        (after.saturating_sub(before)) as f64 / 1000.0
    );
    let (status, body) = call(
        &client,
        &host,
        reqwest::Method::POST,
        "/sessions",
        Some(json!({"entry": DEMO})),
    )
    .await;
    println!("session 1001: {status} {body}");
    stop(&mut host).await;
}

async fn stop(host: &mut Host) {
    if let Some(pid) = host.child.id() {
        unsafe { libc::kill(pid as i32, libc::SIGTERM) };
    }
    let _ = host.child.wait().await;
}
