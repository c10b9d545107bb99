//! Latency and size figures for docs/benchmarks.md. Run with
//! `cargo bench --bench latency` (add `-- python`, `-- gdb`, `-- lldb`, `-- go`, `-- node`, `-- java` or `-- ruby` for one
//! adapter); every figure is a median over repeated runs in this one
//! process, so ratios compare like with like.

mod common;
mod go;
mod java;
mod js;
#[path = "common/mcp_call.rs"]
#[allow(dead_code)]
mod mcp_call;
#[path = "common/mcp_steps.rs"]
mod mcp_steps;
#[path = "common/raw.rs"]
mod raw;
#[path = "common/replay.rs"]
mod replay;
mod ruby;

use mcp_call::call;

use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

use pairdbg::adapters::{self, LaunchSpec};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use common::{median, root};
use raw::{DEMO, Demo, RawSession, Request, ms, wait_event};

const ROUNDS: usize = 8;
/// The first line of `calculate_discount`, whose caller takes arguments.
const CALLEE_LINE: u64 = 35;
/// Steps that stay inside process_order's loop: 41→42→43→42→43→42→43→42→44.
const STEPS: usize = 8;

// ---- pairdbg over MCP ------------------------------------------------------

/// `pairdbg mcp` through a real MCP client, stopped at the demo's breakpoint.
struct McpSession {
    client: rmcp::service::RunningService<RoleClient, ()>,
    diff: bool,
    launch_ms: f64,
    first_bytes: usize,
}

impl McpSession {
    async fn start(demo: &Demo, diff: bool) -> McpSession {
        McpSession::start_logged(demo, diff, None).await
    }

    /// With `log`, every DAP message goes to that file (which slows
    /// pairdbg down: only for recording what it sends).
    async fn start_logged(demo: &Demo, diff: bool, log: Option<&Path>) -> McpSession {
        let transport = TokioChildProcess::new(
            tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg")).configure(|cmd| {
                cmd.arg("mcp").current_dir(&demo.workspace);
                if let Some(log) = log {
                    cmd.env("PAIRDBG_LOG", log)
                        .env("PAIRDBG_LOG_LEVEL", "dap=trace");
                }
            }),
        )
        .expect("spawn");
        let client = ().serve(transport).await.expect("initialize");
        let t = Instant::now();
        let mut launch = json!({"program": demo.program, "breakpoints": [{"file": demo.source, "line": demo.break_line}], "viewport_config": {"diff_mode": diff}});
        if demo.choose_adapter {
            launch["adapter"] = json!(demo.adapter.name());
        }
        let first = call(&client, "debug_launch", launch).await;
        let launch_ms = ms(t.elapsed());
        assert!(first.contains("STOPPED"), "{first}");
        McpSession {
            client,
            diff,
            launch_ms,
            first_bytes: first.len(),
        }
    }

    /// One `debug_step`: its time, its size, and whether it came as a diff.
    async fn step(&self) -> (f64, usize, bool) {
        let t = Instant::now();
        let v = call(&self.client, "debug_step", json!({"kind": "over"})).await;
        (ms(t.elapsed()), v.len(), v.contains("(same frame)"))
    }

    /// Inside calculate_discount the caller's line shows process_order's
    /// arguments: one more read per step, sent with the stack.
    async fn caller_steps(&self) -> Vec<f64> {
        let v = call(
            &self.client,
            "debug_run_to",
            json!({"file": DEMO, "line": CALLEE_LINE}),
        )
        .await;
        assert!(v.contains("tax_rate=0.08)"), "{v}");
        let mut out = vec![];
        for _ in 0..2 {
            let t = Instant::now();
            let v = call(&self.client, "debug_step", json!({"kind": "over"})).await;
            out.push(ms(t.elapsed()));
            assert!(self.diff || v.contains("tax_rate=0.08)"), "{v}");
        }
        out
    }

    async fn end(self) {
        let _ = call(&self.client, "debug_terminate", json!({})).await;
        let _ = self.client.cancel().await;
    }
}

/// Spawn to the initialize reply, over raw stdio.
async fn mcp_initialize_ms() -> f64 {
    let t = Instant::now();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .arg("mcp")
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}});
    stdin
        .write_all(format!("{init}\n").as_bytes())
        .await
        .expect("write");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let line = lines.next_line().await.expect("read").expect("a reply");
    let took = ms(t.elapsed());
    assert!(line.contains("\"id\":1"), "{line}");
    drop(stdin);
    let _ = child.wait().await;
    took
}

async fn tool_list_bytes() -> usize {
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg")).configure(|cmd| {
            cmd.arg("mcp").current_dir(root());
        }),
    )
    .expect("spawn");
    let client = ().serve(transport).await.expect("initialize");
    let tools = client.list_all_tools().await.expect("tools");
    let n = serde_json::to_string(&tools).map(|s| s.len()).unwrap_or(0);
    let _ = client.cancel().await;
    n
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let only: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    if only.as_deref().is_none_or(|o| o == "python") {
        python_figures().await;
    }
    if only.as_deref().is_none_or(|o| o == "gdb") {
        rust_figures("gdb").await;
    }
    if only.as_deref().is_none_or(|o| o == "lldb") {
        rust_figures("lldb-dap").await;
    }
    if only.as_deref().is_none_or(|o| o == "go") {
        go::run().await;
    }
    if only.as_deref().is_none_or(|o| o == "node") {
        js::run().await;
    }
    if only.as_deref().is_none_or(|o| o == "java") {
        java::run().await;
    }
    if only.as_deref().is_none_or(|o| o == "ruby") {
        ruby::run().await;
    }
}

/// An adapter on the Rust demo, rustc's pretty printers or formatters
/// loaded on both sides (the raw client spawns the adapter exactly as
/// pairdbg does).
async fn rust_figures(name: &str) {
    let adapter = adapters::by_name_or_language(name).expect("a known adapter");
    adapter
        .probe(&LaunchSpec::for_workspace(&root()))
        .await
        .unwrap_or_else(|e| panic!("{name} is not installed: {e}"));
    let ws = tempfile::tempdir().expect("tempdir");
    let demo = Demo::rust(adapter, ws.path());
    // Steps that stay in subtotal's loop: 17 → 16 → 17 → 16 → 17 → 16.
    demo_figures(
        &demo,
        &Figures {
            name,
            title: "the Rust demo (assets/demo/rust), rustc's formatters loaded",
            extra: "into `items` and `item`",
            rounds: ROUNDS,
            steps: 5,
        },
    )
    .await;
}

/// What one adapter's section is called and how long it runs.
struct Figures<'a> {
    name: &'a str,
    title: &'a str,
    /// The viewport's reads beyond the floor's, as the table names them.
    extra: &'a str,
    rounds: usize,
    steps: usize,
}

/// A raw client's steps, the same client replaying pairdbg's own requests
/// of each step, and pairdbg's steps through MCP, alternated step by step
/// in one run; who launches first alternates by round.
async fn demo_figures(demo: &Demo, f: &Figures<'_>) {
    let name = f.name;
    let plan = record_requests(demo, f.steps).await;
    let mut replayed = vec![];
    let (mut raw_startup, mut raw_steps, mut raw_same) = (vec![], vec![], vec![]);
    let (mut mcp_launch, mut mcp_steps, mut full_bytes) = (vec![], vec![], vec![]);
    for round in 0..f.rounds {
        // Who launches first alternates, as in the Go section: the second
        // start finds the machine's caches warm.
        let (mut raw, mcp) = if round % 2 == 0 {
            let raw = RawSession::start(demo, true).await;
            (raw, McpSession::start(demo, false).await)
        } else {
            let mcp = McpSession::start(demo, false).await;
            (RawSession::start(demo, true).await, mcp)
        };
        raw_startup.push(raw.startup_ms);
        mcp_launch.push(mcp.launch_ms);
        full_bytes.push(mcp.first_bytes);
        let mut copy = RawSession::start(demo, true).await;
        for step in plan.iter().take(f.steps) {
            let (floor, same) = raw.step(demo.extra_reads).await;
            raw_steps.push(floor);
            raw_same.push(same);
            replayed.push(copy.replay(step).await);
            let (took, bytes, _) = mcp.step().await;
            mcp_steps.push(took);
            full_bytes.push(bytes);
        }
        copy.end().await;
        raw.end().await;
        mcp.end().await;
    }
    let floor = median(raw_steps.clone());
    let same = median(raw_same.clone());
    let step = median(mcp_steps.clone());
    let start = median(raw_startup.clone());
    let launch = median(mcp_launch.clone());
    let exact = median(replayed.clone());
    let full_tok = full_bytes.iter().map(|b| b / 4).max().unwrap_or(0);
    println!();
    println!(
        "{name}: pairdbg's requests per step: {:?}",
        plan.iter().map(|s| s.len()).collect::<Vec<_>>()
    );
    println!("{name}, {}:", f.title);
    println!("| figure | median | samples | goal |");
    println!("|---|---|---|---|");
    println!(
        "| raw DAP floor: next + stackTrace + scopes + variables | {floor:.2} ms | {} | — |",
        raw_steps.len()
    );
    println!(
        "| raw floor plus the viewport's reads {} | {same:.2} ms | {} | — |",
        f.extra,
        raw_same.len()
    );
    println!(
        "| MCP debug_step → viewport | {step:.2} ms | {} | ≤ 1.3× floor |",
        mcp_steps.len()
    );
    println!(
        "| ratio MCP step / floor | {:.2}× | — | ≤ 1.3× |",
        step / floor
    );
    println!(
        "| ratio MCP step / floor with the same reads | {:.2}× | — | — |",
        step / same
    );
    println!(
        "| raw client sending pairdbg's own requests of the step, one after another | {exact:.2} ms | {} | — |",
        replayed.len()
    );
    println!(
        "| ratio MCP step / raw client with pairdbg's requests | {:.2}× | — | ≤ 1.3× |",
        step / exact
    );
    println!(
        "| {name} start-up to first stop (raw client) | {start:.1} ms | {} | — |",
        raw_startup.len()
    );
    println!(
        "| MCP debug_launch → first viewport | {launch:.1} ms | {} | ≤ raw + 100 ms |",
        mcp_launch.len()
    );
    println!(
        "| launch overhead over raw | {:.1} ms | — | ≤ 100 ms |",
        launch - start
    );
    // Each round's own difference: a launch that builds varies by a
    // second and more from one round to the next.
    let diffs: Vec<f64> = mcp_launch
        .iter()
        .zip(&raw_startup)
        .map(|(m, r)| m - r)
        .collect();
    println!(
        "| launch overhead, median of the rounds' own differences | {:.1} ms | {} | ≤ 100 ms |",
        median(diffs.clone()),
        diffs.len()
    );
    println!(
        "| tokens per stop, full viewport (max) | {full_tok} | {} | ≤ 400 |",
        full_bytes.len()
    );
}

/// The requests pairdbg sends for each of the first `steps` steps, from
/// a session of its own with DAP tracing on.
async fn record_requests(demo: &Demo, steps: usize) -> Vec<Vec<Request>> {
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("dap.log");
    let mcp = McpSession::start_logged(demo, false, Some(&log)).await;
    let (_, mut at) = replay::requests_since(&log, 0);
    let mut plan = vec![];
    for _ in 0..steps {
        mcp.step().await;
        let (requests, end) = replay::requests_since(&log, at);
        assert!(!requests.is_empty(), "no step in the trace log");
        plan.push(requests);
        at = end;
    }
    mcp.end().await;
    plan
}

async fn python_figures() {
    let python = adapters::for_language("python").expect("python");
    python
        .probe(&LaunchSpec::for_workspace(&root()))
        .await
        .expect("the Python adapter installed (pairdbg adapters install python)");

    let mut raw_startup = vec![];
    let mut raw_steps = vec![];
    let mut raw_same = vec![];
    let mut nagle_steps = vec![];
    let mut mcp_launch = vec![];
    let mut mcp_steps = vec![];
    let mut caller_steps = vec![];
    let mut full_bytes = vec![];
    let mut diff_bytes = vec![];
    let mut init_ms = vec![];
    // Interleaved step by step, a raw step then an MCP step, so that load
    // on the machine hits both series alike.
    for round in 0..ROUNDS {
        let demo = Demo::python(python);
        let mut raw = RawSession::start(&demo, true).await;
        raw_startup.push(raw.startup_ms);
        let mcp = McpSession::start(&demo, round % 2 == 1).await;
        mcp_launch.push(mcp.launch_ms);
        full_bytes.push(mcp.first_bytes);
        for _ in 0..STEPS {
            let (floor, same) = raw.step(demo.extra_reads).await;
            raw_steps.push(floor);
            raw_same.push(same);
            let (took, bytes, is_diff) = mcp.step().await;
            mcp_steps.push(took);
            if is_diff {
                diff_bytes.push(bytes);
            } else {
                full_bytes.push(bytes);
            }
        }
        caller_steps.extend(mcp.caller_steps().await);
        raw.end().await;
        mcp.end().await;
        if round < 2 {
            let mut slow = RawSession::start(&demo, false).await;
            for _ in 0..STEPS {
                nagle_steps.push(slow.step(demo.extra_reads).await.0);
            }
            slow.end().await;
        }
        for _ in 0..3 {
            init_ms.push(mcp_initialize_ms().await);
        }
    }
    let tools = tool_list_bytes().await;
    let floor = median(raw_steps.clone());
    let step = median(mcp_steps.clone());
    let start = median(raw_startup.clone());
    let launch = median(mcp_launch.clone());
    let full_tok = full_bytes.iter().map(|b| b / 4).max().unwrap_or(0);
    let diff_tok = diff_bytes.iter().map(|b| b / 4).max().unwrap_or(0);
    println!("| figure | median | samples | goal |");
    println!("|---|---|---|---|");
    println!(
        "| raw DAP floor: next + stackTrace + scopes + variables (TCP_NODELAY fix) | {floor:.2} ms | {} | — |",
        raw_steps.len()
    );
    println!(
        "| raw DAP floor without the TCP_NODELAY fix | {:.2} ms | {} | — |",
        median(nagle_steps.clone()),
        nagle_steps.len()
    );
    println!(
        "| MCP debug_step → viewport | {step:.2} ms | {} | ≤ 1.3× floor, ≤ 10 ms |",
        mcp_steps.len()
    );
    println!(
        "| ratio MCP step / floor | {:.2}× | — | ≤ 1.3× |",
        step / floor
    );
    let caller = median(caller_steps.clone());
    println!(
        "| MCP debug_step in `calculate_discount`, the caller's arguments shown | {caller:.2} ms | {} | — |",
        caller_steps.len()
    );
    println!(
        "| ratio of that step / floor | {:.2}× | — | — |",
        caller / floor
    );
    let same = median(raw_same.clone());
    println!(
        "| raw floor plus the viewport's one extra read (the fields of `user`) | {same:.2} ms | {} | — |",
        raw_same.len()
    );
    println!(
        "| ratio MCP step / floor with the same reads | {:.2}× | — | — |",
        step / same
    );
    println!(
        "| debugpy start-up to first stop (raw client) | {start:.1} ms | {} | — |",
        raw_startup.len()
    );
    println!(
        "| MCP debug_launch → first viewport | {launch:.1} ms | {} | ≤ raw + 100 ms |",
        mcp_launch.len()
    );
    println!(
        "| launch overhead over raw | {:.1} ms | — | ≤ 100 ms |",
        launch - start
    );
    println!(
        "| tokens per stop, full viewport (max) | {full_tok} | {} | ≤ 400 |",
        full_bytes.len()
    );
    println!(
        "| tokens per stop, diff mode (max) | {diff_tok} | {} | ≤ 150 |",
        diff_bytes.len()
    );
    println!(
        "| pairdbg mcp spawn → initialize reply | {:.1} ms | {} | ≤ 50 ms |",
        median(init_ms.clone()),
        init_ms.len()
    );
    println!(
        "| tools/list size | {} tokens ({tools} bytes) | 1 | compact |",
        tools / 4
    );
}
