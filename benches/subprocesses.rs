//! Python with subprocess debugging on (the default) against off: launch to
//! the first stop, and a step to its viewport, over MCP, the two settings
//! alternating launch by launch so load on the machine hits both alike.
//! Run with `cargo bench --bench subprocesses` (needs debugpy).

mod common;
#[path = "common/mcp_call.rs"]
mod mcp_call;

use std::time::Instant;

use serde_json::json;

use common::{median, root};
use mcp_call::{call, start_in};

const ROUNDS: usize = 10;
const STEPS: usize = 8;
const DEMO: &str = "assets/demo/order.py";
const BREAK_LINE: u64 = 41;

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// One launch: its time to the first stop, and its steps' times.
async fn run(subprocesses: bool) -> (f64, Vec<f64>) {
    let client = start_in(&root()).await;
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
