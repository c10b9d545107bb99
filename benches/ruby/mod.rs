//! The Ruby section of the latency benchmark: the same floor-versus-pairdbg
//! comparison on the Ruby demo, through rdbg over TCP. Run alone with
//! `cargo bench --profile dev --bench latency -- ruby`.

use std::time::{Duration, Instant};

use pairdbg::adapters::{self, LaunchSpec, ProgramOutput, Target, Transport};
use pairdbg::dap::DapClient;
use pairdbg::dap::announced::connect_announced;
use pairdbg::dap::client::default_reverse_handler;
use pairdbg::dap::envelope::Event;
use pairdbg::dap::process::AdapterProcess;
use pairdbg::dap::transport::connect_with_retry;
use serde_json::json;
use tokio::sync::mpsc::UnboundedReceiver;

use crate::common::{median, root};
use crate::mcp_steps::McpSteps;
use crate::{ms, wait_event};

const ROUNDS: usize = 8;
const PROGRAM: &str = "assets/demo/ruby/shop.rb";
const DEMO: &str = "assets/demo/ruby/shop.rb";
/// Inside subtotal's loop over three orders; steps go 9 → 10 → 9 …
const BREAK_LINE: u64 = 9;
const STEPS: usize = 4;

/// A minimal DAP client on rdbg, stopped at the demo's breakpoint.
struct RawRuby {
    c: DapClient,
    events: UnboundedReceiver<Event>,
    proc: AdapterProcess,
    /// Held open: the program writes its output here.
    _output: Option<ProgramOutput>,
    startup_ms: f64,
}

impl RawRuby {
    async fn start() -> RawRuby {
        let adapter = adapters::for_language("ruby").expect("ruby");
        let t0 = Instant::now();
        let spec = LaunchSpec {
            target: Target::Program(root().join(PROGRAM)),
            ..LaunchSpec::for_workspace(&root())
        };
        let spawned = adapter.spawn(&spec).expect("spawn rdbg");
        // rdbg picks its own port and says which, as pairdbg starts it.
        let stream = match spawned.transport {
            Transport::Tcp(addr) => connect_with_retry(addr, Duration::from_secs(30))
                .await
                .expect("connect"),
            Transport::Announced { stdout, parse, who } => {
                connect_announced(stdout, parse, who, Duration::from_secs(30))
                    .await
                    .expect("connect")
                    .1
            }
            Transport::Stdio { .. } => panic!("rdbg listens on TCP"),
        };
        // Acknowledging every read at once, as pairdbg's own connection
        // does: else each of rdbg's replies waits out a delayed ACK.
        let (r, w) = pairdbg::dap::quick_ack::split(stream);
        let (c, mut events) = DapClient::start(
            Box::pin(r),
            Box::pin(w),
            Duration::from_secs(60),
            default_reverse_handler(),
        );
        c.request("initialize", Some(json!({"adapterID": "rdbg", "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path", "supportsVariableType": true})))
            .await
            .expect("initialize");
        let (command, args) = spawned.start;
        let launch = c.request(command, Some(args));
        wait_event(&mut events, "initialized").await;
        c.request(
            "setBreakpoints",
            Some(json!({"source": {"path": root().join(DEMO)}, "breakpoints": [{"line": BREAK_LINE}]})),
        )
        .await
        .expect("setBreakpoints");
        c.request("configurationDone", None)
            .await
            .expect("configurationDone");
        launch.await.expect("launch");
        wait_event(&mut events, "stopped").await;
        c.request("stackTrace", Some(json!({"threadId": 1, "levels": 20})))
            .await
            .expect("stack");
        RawRuby {
            c,
            events,
            proc: spawned.process.expect("rdbg"),
            _output: spawned.program_output,
            startup_ms: ms(t0.elapsed()),
        }
    }

    /// next + stackTrace + scopes + variables, one after another.
    async fn step(&mut self) -> f64 {
        let c = &self.c;
        let t = Instant::now();
        c.request("next", Some(json!({"threadId": 1})))
            .await
            .expect("next");
        wait_event(&mut self.events, "stopped").await;
        let st = c
            .request(
                "stackTrace",
                Some(json!({"threadId": 1, "startFrame": 0, "levels": 20})),
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
        ms(t.elapsed())
    }

    async fn end(mut self) {
        let _ = self
            .c
            .request_with_timeout(
                "disconnect",
                Some(json!({"terminateDebuggee": true})),
                Duration::from_secs(2),
            )
            .await;
        self.proc.kill_all();
        self.proc.wait().await;
    }
}

/// Rounds of a raw session and an MCP session, stepped alternately.
pub async fn run() {
    let ruby = adapters::for_language("ruby").expect("ruby");
    if let Err(e) = ruby.probe(&LaunchSpec::for_workspace(&root())).await {
        println!("\nRuby section skipped: {e}");
        return;
    }
    let (mut raw_start, mut raw_steps, mut mcp_launch, mut mcp_steps, mut bytes) =
        (vec![], vec![], vec![], vec![], vec![]);
    for round in 0..ROUNDS {
        // Who launches first alternates, as in the Go section: the second
        // start finds the machine's caches warm.
        let (mut raw, mcp) = if round % 2 == 0 {
            let raw = RawRuby::start().await;
            (raw, McpSteps::start(PROGRAM, DEMO, BREAK_LINE).await)
        } else {
            let mcp = McpSteps::start(PROGRAM, DEMO, BREAK_LINE).await;
            (RawRuby::start().await, mcp)
        };
        raw_start.push(raw.startup_ms);
        mcp_launch.push(mcp.launch_ms);
        bytes.push(mcp.first_bytes);
        for _ in 0..STEPS {
            raw_steps.push(raw.step().await);
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
    println!("\n### Ruby (rdbg)\n");
    println!("| figure | median | samples | goal |");
    println!("|---|---|---|---|");
    println!(
        "| raw DAP floor: next + stackTrace + scopes + variables | {floor:.2} ms | {} | — |",
        raw_steps.len()
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
        "| rdbg start-up to first stop (raw client) | {start:.1} ms | {} | — |",
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
    println!(
        "| tokens per stop, full viewport (max) | {} | {} | ≤ 400 |",
        bytes.iter().map(|b| b / 4).max().unwrap_or(0),
        bytes.len()
    );
}
