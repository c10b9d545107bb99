//! Every MCP tool's arguments, sent by an MCP client to the server in
//! process: the input's first line names the tool, the rest is its
//! arguments. debug_launch and debug_attach would start adapters, so their
//! arguments go through the same checks and conversion the tools make, up
//! to the launch's validation, without starting anything.

use std::sync::OnceLock;
use std::time::Duration;

use pairdbg::mcp::PairdbgServer;
use pairdbg::mcp::params::{AttachParams, BreakpointParam, LaunchParams};
use pairdbg::session::remote::RemoteRequest;
use pairdbg::session::validate::{check_json, check_timeout};
use pairdbg::session::{BreakpointRequest, LaunchRequest, Registry};
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value};

use super::workspace;

const CALL_LIMIT: Duration = Duration::from_secs(5);

struct Served {
    rt: tokio::runtime::Runtime,
    client: RunningService<RoleClient, ()>,
    tools: Vec<String>,
}

fn served() -> &'static Served {
    static SERVED: OnceLock<Served> = OnceLock::new();
    SERVED.get_or_init(|| {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let (client, tools) = rt.block_on(async {
            let (ours, theirs) = tokio::io::duplex(1 << 20);
            let server = PairdbgServer::new(Registry::default(), workspace::workspace());
            // Through the guard `pairdbg mcp` puts on its stdio, so that a
            // line it answers the SDK never sees, as in the real server.
            let (r, w) = tokio::io::split(theirs);
            let guarded = pairdbg::mcp::stdio_guard::guard(r, w);
            tokio::spawn(async move {
                if let Ok(running) = server.serve(guarded).await {
                    let _ = running.waiting().await;
                }
            });
            let client = ().serve(ours).await.expect("MCP initialize");
            let tools: Vec<String> = client
                .list_all_tools()
                .await
                .expect("tools/list")
                .into_iter()
                .map(|t| t.name.to_string())
                .collect();
            (client, tools)
        });
        assert!(tools.len() > 20, "tools/list gave {tools:?}");
        Served { rt, client, tools }
    })
}

pub fn run(data: &[u8]) {
    let s = served();
    let (first, rest) = match data.iter().position(|b| *b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&b""[..], data),
    };
    let named = std::str::from_utf8(first).ok().map(str::trim);
    let tool = match named.filter(|n| s.tools.iter().any(|t| t == n)) {
        Some(t) => t.to_string(),
        None => s.tools[usize::from(first.first().copied().unwrap_or(0)) % s.tools.len()].clone(),
    };
    let args = match serde_json::from_slice::<Value>(rest) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    match tool.as_str() {
        "debug_launch" => launch(args),
        "debug_attach" => attach(args),
        _ => {
            let call = s
                .client
                .call_tool(CallToolRequestParams::new(tool.clone()).with_arguments(args));
            let answer =
                s.rt.block_on(async { tokio::time::timeout(CALL_LIMIT, call).await });
            match &answer {
                Err(_) => panic!("{tool} did not answer within {CALL_LIMIT:?}"),
                // A protocol error is an answer too; a closed service is not.
                Ok(Err(e)) => {
                    assert!(!s.client.is_closed(), "{tool}: the server went away: {e}")
                }
                Ok(Ok(_)) => {}
            }
        }
    }
}

/// What every call's arguments pass before any tool sees them.
fn checked(args: &Map<String, Value>) -> bool {
    args.iter().all(|(field, v)| check_json(field, v).is_ok())
}

fn breakpoint(b: BreakpointParam) -> BreakpointRequest {
    BreakpointRequest {
        file: b.file.unwrap_or_default(),
        line: b.line.unwrap_or(0),
        function: b.function,
        statement: b.statement,
        expected_content: b.expected_content,
        condition: b.condition,
        hit_condition: b.hit_count.map(|h| h.as_condition()),
        log_message: b.log_message,
        trace: None,
    }
}

fn launch(args: Map<String, Value>) {
    if !checked(&args) {
        return;
    }
    let Ok(p) = serde_json::from_value::<LaunchParams>(Value::Object(args)) else {
        return;
    };
    if let Some(cfg) = &p.viewport_config {
        let _ = cfg.validate();
    }
    let _ = check_timeout(p.timeout_ms, 30_000);
    let request = LaunchRequest {
        program: p.program,
        module: p.module,
        args: p.args.unwrap_or_default(),
        cwd: p.cwd,
        env: p.env.unwrap_or_default().into_iter().collect(),
        language: p.language,
        adapter: p.adapter,
        python: p.python,
        stop_on_entry: p.stop_on_entry.unwrap_or(false),
        breakpoints: p
            .breakpoints
            .unwrap_or_default()
            .into_iter()
            .map(breakpoint)
            .collect(),
        exception_filters: p.exception_breakpoints,
        just_my_code: p.just_my_code,
        subprocesses: p.subprocesses,
        build: p
            .build
            .map(|b| pairdbg::session::build::BuildRequest::shell("build", &b)),
        ..Default::default()
    };
    let _ = request.validate(&workspace::workspace(), Duration::from_secs(5));
}

fn attach(args: Map<String, Value>) {
    if !checked(&args) {
        return;
    }
    let Ok(p) = serde_json::from_value::<AttachParams>(Value::Object(args)) else {
        return;
    };
    let _ = check_timeout(p.timeout_ms, 30_000);
    let request = LaunchRequest {
        attach: p.pid,
        remote: RemoteRequest {
            host: p.host,
            port: p.port,
            path_mappings: p
                .path_mappings
                .unwrap_or_default()
                .into_iter()
                .map(|m| (m.local, m.remote))
                .collect(),
        },
        program: p.program,
        terminate_debuggee: p.terminate_debuggee,
        language: p.language,
        adapter: p.adapter,
        breakpoints: p
            .breakpoints
            .unwrap_or_default()
            .into_iter()
            .map(breakpoint)
            .collect(),
        exception_filters: p.exception_breakpoints,
        just_my_code: p.just_my_code,
        ..Default::default()
    };
    let _ = request.validate(&workspace::workspace(), Duration::from_secs(5));
}
