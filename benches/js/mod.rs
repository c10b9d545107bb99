//! The Node.js section of the latency benchmark: the floor-versus-pairdbg
//! comparison on the Node demo through js-debug's two connections. Run
//! alone with `cargo bench --bench latency -- node` after
//! `pairdbg adapters install node`.

use std::time::{Duration, Instant};

use pairdbg::adapters::{self, ChildContext, LaunchSpec, Target, Transport};
use pairdbg::dap::DapClient;
use pairdbg::dap::announced::connect_announced;
use pairdbg::dap::envelope::{Event, Request};
use pairdbg::dap::process::AdapterProcess;
use pairdbg::dap::transport::connect_with_retry;
use serde_json::{Value, json};
use tokio::sync::mpsc::{self, UnboundedReceiver};

use crate::common::{median, root};
use crate::mcp_steps::McpSteps;
use crate::{ms, wait_event};

const ROUNDS: usize = 8;
const DEMO: &str = "assets/demo/node/prog.js";
/// Inside main's loop; steps go 14 → 12 → 13 → 14 …
const BREAK_LINE: u64 = 14;
const STEPS: usize = 8;
const TIMEOUT: Duration = Duration::from_secs(30);

fn initialize() -> Value {
    json!({"clientID": "bench", "adapterID": "pwa-node", "linesStartAt1": true,
        "columnsStartAt1": true, "pathFormat": "path", "supportsVariableType": true,
        "supportsStartDebuggingRequest": true})
}

/// A minimal DAP client on js-debug, spawned exactly as pairdbg spawns it
/// (both latency preloads, the same launch arguments): the launch
/// connection answers `startDebugging`, and the child connection it asks
/// for carries the program, stopped at the demo's breakpoint.
struct RawJs {
    parent: DapClient,
    child: DapClient,
    events: UnboundedReceiver<Event>,
    proc: AdapterProcess,
    startup_ms: f64,
}

impl RawJs {
    async fn start() -> RawJs {
        let adapter = adapters::for_language("javascript").expect("javascript");
        let t0 = Instant::now();
        let program = root().join(DEMO);
        let spec = LaunchSpec {
            target: Target::Program(program.clone()),
            ..LaunchSpec::for_workspace(&root())
        };
        let spawned = adapter.spawn(&spec).expect("spawn js-debug");
        let Transport::Announced { stdout, parse, who } = spawned.transport else {
            panic!("js-debug names its port")
        };
        let (addr, sock) = connect_announced(stdout, parse, who, TIMEOUT)
            .await
            .expect("js-debug listens");
        let (child_tx, mut child_rx) = mpsc::unbounded_channel::<Value>();
        let reverse = std::sync::Arc::new(move |req: &Request| {
            if req.command == "startDebugging" {
                let _ = child_tx.send(req.arguments.clone().unwrap_or_default());
                return Ok(json!({}));
            }
            Err(format!("not answered: {}", req.command))
        });
        let (r, w) = sock.into_split();
        let (parent, mut parent_events) =
            DapClient::start(Box::pin(r), Box::pin(w), TIMEOUT, reverse);
        parent
            .request("initialize", Some(initialize()))
            .await
            .expect("initialize");
        let (command, args) = spawned.start;
        let _launch = parent.request(command, Some(args));
        wait_event(&mut parent_events, "initialized").await;
        let breakpoints =
            json!({"source": {"path": program}, "breakpoints": [{"line": BREAK_LINE}]});
        parent
            .request("setBreakpoints", Some(breakpoints.clone()))
            .await
            .expect("setBreakpoints");
        parent
            .request("configurationDone", None)
            .await
            .expect("configurationDone");
        let child_args = tokio::time::timeout(TIMEOUT, child_rx.recv())
            .await
            .expect("startDebugging in time")
            .expect("startDebugging");
        let ctx = ChildContext {
            spec: &spec,
            parent_addr: Some(addr),
            remote_host: None,
        };
        let start = adapter
            .child_connection(&ctx, &child_args)
            .expect("child connection");
        let Transport::Tcp(child_addr) = start.transport else {
            panic!("the child connects over TCP")
        };
        let sock = connect_with_retry(child_addr, TIMEOUT)
            .await
            .expect("connect child");
        let (r, w) = sock.into_split();
        let reverse =
            std::sync::Arc::new(|req: &Request| Err(format!("not answered: {}", req.command)));
        let (child, mut events) = DapClient::start(Box::pin(r), Box::pin(w), TIMEOUT, reverse);
        child
            .request("initialize", Some(initialize()))
            .await
            .expect("initialize child");
        let (command, args) = start.start;
        let _child_launch = child.request(command, Some(args));
        wait_event(&mut events, "initialized").await;
        child
            .request("setBreakpoints", Some(breakpoints))
            .await
            .expect("setBreakpoints");
        child
            .request(
                "setExceptionBreakpoints",
                Some(json!({"filters": ["uncaught"]})),
            )
            .await
            .expect("exceptions");
        child
            .request("configurationDone", None)
            .await
            .expect("configurationDone");
        wait_event(&mut events, "stopped").await;
        child
            .request("stackTrace", Some(json!({"threadId": 0, "levels": 20})))
            .await
            .expect("stack");
        RawJs {
            parent,
            child,
            events,
            proc: spawned.process.expect("js-debug's process"),
            startup_ms: ms(t0.elapsed()),
        }
    }

    /// next + stackTrace + scopes + variables, one after another: the time
    /// to the floor's last answer, and to the end of the reads the viewport
    /// also makes, the variables of the frame's other block and local
    /// scopes (js-debug splits a function's locals by block).
    async fn step(&mut self) -> (f64, f64) {
        let c = &self.child;
        let t = Instant::now();
        c.request("next", Some(json!({"threadId": 0})))
            .await
            .expect("next");
        wait_event(&mut self.events, "stopped").await;
        let st = c
            .request(
                "stackTrace",
                Some(json!({"threadId": 0, "startFrame": 0, "levels": 20})),
            )
            .await
            .expect("stack");
        let frame = st["stackFrames"][0]["id"].as_i64().unwrap_or(0);
        let sc = c
            .request("scopes", Some(json!({"frameId": frame})))
            .await
            .expect("scopes");
        let r = sc["scopes"][0]["variablesReference"].as_i64().unwrap_or(0);
        c.request("variables", Some(json!({"variablesReference": r})))
            .await
            .expect("variables");
        let floor = ms(t.elapsed());
        let more = sc["scopes"]
            .as_array()
            .into_iter()
            .flatten()
            .skip(1)
            .filter(|s| {
                s["name"]
                    .as_str()
                    .is_some_and(|n| n.starts_with("Block") || n.starts_with("Local"))
            });
        for s in more {
            let r = s["variablesReference"].as_i64().unwrap_or(0);
            c.request("variables", Some(json!({"variablesReference": r})))
                .await
                .expect("variables");
        }
        (floor, ms(t.elapsed()))
    }

    async fn end(mut self) {
        for c in [&self.child, &self.parent] {
            let _ = c
                .request_with_timeout(
                    "disconnect",
                    Some(json!({"terminateDebuggee": true})),
                    Duration::from_secs(2),
                )
                .await;
        }
        self.proc.kill_all();
        self.proc.wait().await;
    }
}

/// Rounds of a raw session and an MCP session, stepped alternately, who
/// launches first alternating by round.
pub async fn run() {
    let adapter = adapters::for_language("javascript").expect("javascript");
    if let Err(e) = adapter.probe(&LaunchSpec::for_workspace(&root())).await {
        println!("\nNode.js section skipped: {e}");
        return;
    }
    let (mut raw_start, mut raw_steps, mut mcp_launch, mut mcp_steps, mut bytes) =
        (vec![], vec![], vec![], vec![], vec![]);
    let mut raw_same = vec![];
    for round in 0..ROUNDS {
        let (mut raw, mcp) = if round % 2 == 0 {
            let raw = RawJs::start().await;
            (raw, McpSteps::start(DEMO, DEMO, BREAK_LINE).await)
        } else {
            let mcp = McpSteps::start(DEMO, DEMO, BREAK_LINE).await;
            (RawJs::start().await, mcp)
        };
        raw_start.push(raw.startup_ms);
        mcp_launch.push(mcp.launch_ms);
        bytes.push(mcp.first_bytes);
        for _ in 0..STEPS {
            let (floor, same) = raw.step().await;
            raw_steps.push(floor);
            raw_same.push(same);
            let (took, b) = mcp.step().await;
            mcp_steps.push(took);
            bytes.push(b);
        }
        raw.end().await;
        mcp.end().await;
    }
    let floor = median(raw_steps.clone());
    let step = median(mcp_steps.clone());
    let start = median(raw_start.clone());
    let launch = median(mcp_launch.clone());
    println!("\n### Node.js (js-debug)\n");
    println!("| figure | median | samples | goal |");
    println!("|---|---|---|---|");
    println!(
        "| raw DAP floor (child connection): next + stackTrace + scopes + variables | {floor:.2} ms | {} | — |",
        raw_steps.len()
    );
    let same = median(raw_same.clone());
    println!(
        "| raw floor plus the viewport's reads of the other block and local scopes | {same:.2} ms | {} | — |",
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
        "| js-debug start-up to first stop, both connections (raw client) | {start:.1} ms | {} | — |",
        raw_start.len()
    );
    println!(
        "| MCP debug_launch → first viewport | {launch:.1} ms | {} | ≤ raw + 100 ms |",
        mcp_launch.len()
    );
    println!(
        "| launch overhead over raw | {:.1} ms | — | ≤ 100 ms |",
        launch - start
    );
    // Each round's own difference: a launch varies by a hundred
    // milliseconds and more from one round to the next under load.
    let diffs: Vec<f64> = mcp_launch
        .iter()
        .zip(&raw_start)
        .map(|(m, r)| m - r)
        .collect();
    println!(
        "| launch overhead, median of the rounds' own differences | {:.1} ms | {} | ≤ 100 ms |",
        median(diffs.clone()),
        diffs.len()
    );
    println!(
        "| tokens per stop, full viewport (max) | {} | {} | ≤ 400 |",
        bytes.iter().map(|b| b / 4).max().unwrap_or(0),
        bytes.len()
    );
}
