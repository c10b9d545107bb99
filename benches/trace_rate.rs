//! Tracepoint hits per second that reach an MCP client in order: a loop of
//! `HITS` iterations on debugpy with a `{i}` tracepoint, read off `pairdbg
//! mcp`'s stdout line by line. Run with `cargo bench --bench trace_rate`
//! (needs debugpy).

#[path = "../tests/common/raw_stdio.rs"]
mod raw_stdio;

use std::time::{Duration, Instant};

use raw_stdio::{RawMcp, traced_index};
use serde_json::json;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

const ROUNDS: usize = 5;
const HITS: u64 = 5000;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let bin = env!("CARGO_BIN_EXE_pairdbg");
    let mut rates = vec![];
    let mut whole = vec![];
    for round in 0..ROUNDS {
        let ws = tempfile::tempdir().expect("tempdir");
        let program =
            format!("total = 0\nfor i in range({HITS}):\n    total += i\nprint('end', total)\n");
        std::fs::write(ws.path().join("loop.py"), program).expect("write loop.py");
        let mut mcp = RawMcp::start(bin, ws.path()).await;
        let launch = json!({"program": "loop.py", "stop_on_entry": true,
            "breakpoints": [{"file": "loop.py", "line": 4}]});
        mcp.call("debug_launch", launch, |_| {}).await;
        mcp.call(
            "tracepoint_set",
            json!({"file": "loop.py", "line": 3, "log_message": "{i}"}),
            |_| {},
        )
        .await;
        let mut got = vec![];
        let mut first = None;
        let start = Instant::now();
        let mut seen = |m: &serde_json::Value, got: &mut Vec<u64>| {
            if let Some(i) = traced_index(m) {
                first.get_or_insert_with(Instant::now);
                got.push(i);
            }
        };
        mcp.call("debug_continue", json!({}), |m| seen(m, &mut got))
            .await;
        while (got.len() as u64) < HITS {
            match mcp.next(Duration::from_secs(10)).await {
                Some(m) => seen(&m, &mut got),
                None => break,
            }
        }
        let end = Instant::now();
        let in_order = got == (0..HITS).collect::<Vec<_>>();
        let first = first.unwrap_or(end);
        let rate = (got.len() as f64 - 1.0) / (end - first).as_secs_f64();
        println!(
            "round {round}: {} hits, in order: {in_order}, {rate:.0} hits/s (first to last), {:.0} ms continue to last",
            got.len(),
            (end - start).as_secs_f64() * 1000.0
        );
        assert!(in_order, "hits out of order or missing");
        rates.push(rate);
        whole.push(HITS as f64 / (end - start).as_secs_f64());
        mcp.close().await;
    }
    println!(
        "median: {:.0} hits/s reach the client in order (first hit to last); {:.0} hits/s counting from the continue (goal ≥ 1000/s)",
        median(rates),
        median(whole)
    );
}
