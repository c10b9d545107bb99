//! Every MCP tool against one live debugpy session stopped at a
//! breakpoint, through an MCP client to the server in process: the input's
//! first line names the tool (else its bytes pick one), the rest is
//! its arguments as JSON, or bytes from which arguments are made by the
//! tool's own input schema (see schema_args). After each call: the answer
//! came within a bound, it holds no panic, and debug_status still answers.
//! A call that ended, restarted or left the session running is followed by
//! a fresh session stopped at the breakpoint, so the next input meets one.

use std::sync::OnceLock;
use std::time::Duration;

use pairdbg::mcp::PairdbgServer;
use pairdbg::session::validate::Workspace;
use pairdbg::session::{Registry, RunState};
use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value, json};

use super::schema_args::{self, Bytes};

/// The longest any one call may take: a launch in a debug build on a
/// loaded machine, well past the waits the arguments are held to.
const CALL_LIMIT: Duration = Duration::from_secs(40);
/// Waits the arguments ask for are cut to this, so that a valid wait on a
/// program that stays stopped (breakpoint_wait) does not hold the run.
const LONGEST_WAIT_MS: u64 = 2_000;

/// Stops at line 2 on every call of `work`, and ends by itself soon once
/// its breakpoints are gone.
const PROGRAM: &str = "\
def work(x):
    y = [x, x + 1]
    return len(y)


total = 0
for i in range(20000):
    total += work(i)
print(total)
";

struct Live {
    rt: tokio::runtime::Runtime,
    client: RunningService<RoleClient, ()>,
    registry: Registry,
    tools: Vec<Tool>,
    _dir: tempfile::TempDir,
}

fn debugpy_available() -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import debugpy"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "debugpy is required in CI: install it with `python3 -m pip install debugpy`"
        );
        eprintln!("\n!!!!! SKIPPED: fuzz mcp_live: debugpy is not installed !!!!!\n");
    }
    ok
}

fn live() -> Option<&'static Live> {
    static LIVE: OnceLock<Option<Live>> = OnceLock::new();
    LIVE.get_or_init(|| {
        if !debugpy_available() {
            return None;
        }
        let dir = tempfile::Builder::new()
            .prefix("pairdbg-fuzz-live-")
            .tempdir()
            .expect("tempdir");
        std::fs::write(dir.path().join("prog.py"), PROGRAM).expect("write");
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let registry = Registry::default();
        let (client, tools) = rt.block_on(async {
            let (ours, theirs) = tokio::io::duplex(1 << 20);
            let server = PairdbgServer::new(registry.clone(), Workspace::new(dir.path(), false));
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
            let tools = client.list_all_tools().await.expect("tools/list");
            (client, tools)
        });
        assert!(tools.len() > 20, "tools/list gave {} tools", tools.len());
        let live = Live {
            rt,
            client,
            registry,
            tools,
            _dir: dir,
        };
        live.ensure_session();
        Some(live)
    })
    .as_ref()
}

impl Live {
    fn call(&self, tool: &str, args: Map<String, Value>) -> CallToolResult {
        let call = self
            .client
            .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args));
        let answer = self
            .rt
            .block_on(async { tokio::time::timeout(CALL_LIMIT, call).await });
        match answer {
            Err(_) => panic!("{tool} did not answer within {CALL_LIMIT:?}"),
            // A protocol error (arguments that do not parse) is an answer;
            // a closed service is not.
            Ok(Err(e)) => {
                assert!(
                    !self.client.is_closed(),
                    "{tool}: the server went away: {e}"
                );
                CallToolResult::error(vec![])
            }
            Ok(Ok(r)) => r,
        }
    }

    /// One session, stopped: else every session ends and a new one starts.
    fn ensure_session(&self) {
        let (sessions, _) = self.registry.list();
        let stopped = |s: &pairdbg::session::SessionHandle| s.snapshot().state == RunState::Stopped;
        if sessions.len() == 1 && sessions.iter().all(stopped) {
            return;
        }
        for s in sessions {
            let mut args = Map::new();
            args.insert("session_id".into(), json!(s.id));
            self.call("debug_terminate", args);
        }
        let launch = json!({
            "program": "prog.py",
            "breakpoints": [{"file": "prog.py", "line": 2}],
            "timeout_ms": 30_000,
        });
        let Value::Object(args) = launch else {
            unreachable!("an object")
        };
        let text = text_of(&self.call("debug_launch", args));
        let (sessions, _) = self.registry.list();
        assert!(
            sessions.len() == 1 && sessions.iter().all(stopped),
            "the session was not re-established: {text}"
        );
    }
}

fn text_of(r: &CallToolResult) -> String {
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Holds what would reach past this run: a wait to the bound, an attach
/// to no process and no debug server but loopback's refusing port, a
/// build that runs nothing.
fn tame(tool: &str, args: &mut Map<String, Value>, schema: &Map<String, Value>) {
    let takes_wait = schema
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| p.contains_key("timeout_ms"));
    if takes_wait {
        match args.get("timeout_ms").and_then(Value::as_u64) {
            Some(ms)
                if ms > LONGEST_WAIT_MS && ms <= pairdbg::session::validate::MAX_TIMEOUT_MS =>
            {
                args.insert("timeout_ms".into(), json!(LONGEST_WAIT_MS));
            }
            None if !args.contains_key("timeout_ms") => {
                args.insert("timeout_ms".into(), json!(LONGEST_WAIT_MS));
            }
            _ => {}
        }
    }
    // A fuzzed build command would run in a shell: a harmless one stands in.
    if tool == "debug_launch" && args.get("build").is_some_and(Value::is_string) {
        args.insert("build".into(), json!("true"));
    }
    if tool == "debug_attach" {
        if args.get("pid").is_some_and(Value::is_u64) {
            // Past any pid_max: no process of anyone's.
            args.insert("pid".into(), json!(99_999_999u64));
        }
        if args.get("host").is_some_and(Value::is_string) {
            args.insert("host".into(), json!("127.0.0.1"));
        }
        if args.get("port").is_some_and(Value::is_u64) {
            args.insert("port".into(), json!(1));
        }
    }
}

pub fn run(data: &[u8]) {
    let Some(l) = live() else {
        return;
    };
    let (first, rest) = match data.iter().position(|b| *b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&b""[..], data),
    };
    let named = std::str::from_utf8(first).ok().map(str::trim);
    let tool = match named.and_then(|n| l.tools.iter().find(|t| t.name == n)) {
        Some(t) => t,
        // A mangled name still picks one, and not always the same few.
        None => {
            let pick = first.iter().fold(0usize, |h, b| {
                h.wrapping_mul(31).wrapping_add(usize::from(*b))
            });
            &l.tools[pick % l.tools.len()]
        }
    };
    let mut args = match serde_json::from_slice::<Value>(rest) {
        Ok(Value::Object(m)) => m,
        _ => schema_args::args(&tool.input_schema, &mut Bytes::new(rest)),
    };
    tame(&tool.name, &mut args, &tool.input_schema);
    if std::env::var_os("PAIRDBG_FUZZ_REPLAY").is_some() {
        let shown = Value::Object(args.clone()).to_string();
        println!("{} {}", tool.name, &shown[..shown.len().min(600)]);
    }
    let answer = text_of(&l.call(&tool.name, args));
    assert!(
        !answer.contains("panicked"),
        "{}: the answer tells of a panic: {answer}",
        tool.name
    );
    let status = text_of(&l.call("debug_status", Map::new()));
    assert!(
        !status.is_empty() && !status.contains("panicked"),
        "after {}: debug_status said {status:?}",
        tool.name
    );
    l.ensure_session();
}
