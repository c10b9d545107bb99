//! Python with subprocess debugging on (the default) against off: launch to
//! the first stop, and a step to its viewport, over MCP, the two settings
//! alternating launch by launch so load on the machine hits both alike.
//! Run with `cargo bench --bench subprocesses` (needs debugpy).

mod common;

use std::time::Instant;

use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

use common::{median, root};

const ROUNDS: usize = 10;
const STEPS: usize = 8;
const DEMO: &str = "assets/demo/order.py";
const BREAK_LINE: u64 = 41;

type Client = rmcp::service::RunningService<RoleClient, ()>;

async fn call(client: &Client, tool: &str, args: Value) -> String {
    let r = client
        .call_tool(
            CallToolRequestParams::new(tool.to_string())
                .with_arguments(args.as_object().cloned().unwrap_or_default()),
        )
        .await
        .expect("tool call");
    assert!(
        !r.is_error.unwrap_or(false),
        "{tool} failed: {:?}",
        r.content
    );
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// One launch: its time to the first stop, and its steps' times.
async fn run(subprocesses: bool) -> (f64, Vec<f64>) {
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg")).configure(|cmd| {
            cmd.arg("mcp").current_dir(root());
        }),
    )
    .expect("spawn");
    let client = ().serve(transport).await.expect("initialize");
    let t = Instant::now();
    let first = call(
        &client,
        "debug_launch",
        json!({"program": DEMO, "breakpoints": [{"file": DEMO, "line": BREAK_LINE}], "subprocesses": subprocesses}),
    )
    .await;
    let launch = ms(t.elapsed());
    assert!(first.contains("STOPPED"), "{first}");
    let mut steps = vec![];
    for _ in 0..STEPS {
        let t = Instant::now();
        call(&client, "debug_step", json!({"kind": "over"})).await;
        steps.push(ms(t.elapsed()));
    }
    let _ = call(&client, "debug_terminate", json!({})).await;
    let _ = client.cancel().await;
    (launch, steps)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let (mut on_launch, mut off_launch) = (vec![], vec![]);
    let (mut on_steps, mut off_steps) = (vec![], vec![]);
    for round in 0..ROUNDS {
        // Alternate which goes first, so neither always meets a warm cache.
        for on in if round % 2 == 0 {
            [true, false]
        } else {
            [false, true]
        } {
            let (launch, steps) = run(on).await;
            if on {
                on_launch.push(launch);
                on_steps.extend(steps);
            } else {
                off_launch.push(launch);
                off_steps.extend(steps);
            }
        }
    }
    let row = |what: &str, on: &[f64], off: &[f64]| {
        let (a, b) = (median(on.to_vec()), median(off.to_vec()));
        println!(
            "| {what} | {a:.2} ms | {b:.2} ms | {:+.1}% | {} + {} |",
            (a / b - 1.0) * 100.0,
            on.len(),
            off.len()
        );
    };
    println!("| figure | subprocesses on | off | on vs off | samples |");
    println!("|---|---|---|---|---|");
    row(
        "launch → first stop (MCP debug_launch)",
        &on_launch,
        &off_launch,
    );
    row("debug_step → viewport", &on_steps, &off_steps);
}
