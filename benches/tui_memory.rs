//! The TUI's memory while an agent steps flat out: the TUI runs in tmux on
//! a program that loops for ever, an agent joins through `pairdbg mcp` and
//! steps as fast as answers come, and the TUI's resident memory is sampled
//! as it goes. Run with `cargo bench --bench tui_memory` (needs tmux and
//! debugpy); `PAIRDBG_BENCH_SECONDS` sets how long (default 300).

// Only the median of what is shared.
#[allow(dead_code)]
mod common;

use common::median;
use std::process::Command;
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::json;

const PROGRAM: &str = "\
import random


def work(i):
    text = str(i) * (i % 7)
    parts = [random.random() for _ in range(i % 5)]
    return len(text) + len(parts)


total = 0
i = 0
while True:
    i += 1
    total += work(i)
";

/// The pairdbg process the tmux pane runs (the pane's shell, or its child).
fn tui_pid(socket: &str) -> Option<u32> {
    let out = Command::new("tmux")
        .args(["-L", socket, "list-panes", "-F", "#{pane_pid}"])
        .output()
        .ok()?;
    let pane: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().ok()?;
    let comm = std::fs::read_to_string(format!("/proc/{pane}/comm")).unwrap_or_default();
    if comm.trim() == "pairdbg" {
        return Some(pane);
    }
    let kids = std::fs::read_to_string(format!("/proc/{pane}/task/{pane}/children")).ok()?;
    kids.split_whitespace().find_map(|k| {
        let pid: u32 = k.parse().ok()?;
        let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
        (comm.trim() == "pairdbg").then_some(pid)
    })
}

/// Resident memory in MiB, from /proc.
fn rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: f64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let seconds: u64 = std::env::var("PAIRDBG_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let bin = env!("CARGO_BIN_EXE_pairdbg");
    let ws = tempfile::tempdir().expect("workspace");
    std::fs::write(ws.path().join("loop.py"), PROGRAM).expect("program");
    let socket = format!("pairdbg-memory-{}", std::process::id());
    // A profiler to run the TUI under (`heaptrack -o FILE`), to see what
    // grows; its RSS is then the profiled process's.
    let wrap = std::env::var("PAIRDBG_BENCH_WRAP").unwrap_or_default();
    let cmd = format!("{wrap} {bin} --break loop.py:14 -- loop.py");
    let ok = Command::new("tmux")
        .args([
            "-L",
            &socket,
            "new-session",
            "-d",
            "-x",
            "160",
            "-y",
            "45",
            "-c",
        ])
        .arg(ws.path())
        .args(["--", &cmd])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(ok, "tmux is needed for this benchmark");
    let root = ws.path().canonicalize().expect("root");
    let deadline = Instant::now() + Duration::from_secs(30);
    while pairdbg::agent::discovery::find(&root).is_none() {
        assert!(Instant::now() < deadline, "the TUI did not start");
        tokio::task::yield_now().await;
    }
    let pid = tui_pid(&socket).expect("the TUI's process");
    let transport = TokioChildProcess::new(tokio::process::Command::new(bin).configure(|c| {
        c.arg("mcp").current_dir(&root);
    }))
    .expect("spawn");
    let agent = ().serve(transport).await.expect("join");
    loop {
        let r = agent
            .call_tool(CallToolRequestParams::new("debug_status"))
            .await
            .expect("status");
        let t: String = r
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect();
        if t.contains("STOPPED") {
            break;
        }
        assert!(Instant::now() < deadline, "no first stop");
    }
    let start = Instant::now();
    let mut next_sample = Duration::ZERO;
    let mut samples: Vec<(u64, u64, f64)> = vec![];
    let mut steps = 0u64;
    let mut step_ms: Vec<f64> = vec![];
    // Into `work` and out again, so frames and values change as they would.
    let kinds = ["into", "over", "over", "over", "out", "over"];
    while start.elapsed() < Duration::from_secs(seconds) {
        if start.elapsed() >= next_sample {
            let mib = rss_mib(pid).expect("the TUI ended");
            samples.push((start.elapsed().as_secs(), steps, mib));
            next_sample += Duration::from_secs((seconds / 10).max(1));
        }
        let kind = kinds[steps as usize % kinds.len()];
        let t0 = Instant::now();
        agent
            .call_tool(
                CallToolRequestParams::new("debug_step").with_arguments(
                    json!({"kind": kind})
                        .as_object()
                        .cloned()
                        .unwrap_or_default(),
                ),
            )
            .await
            .expect("step");
        step_ms.push(t0.elapsed().as_secs_f64() * 1000.0);
        steps += 1;
    }
    samples.push((
        start.elapsed().as_secs(),
        steps,
        rss_mib(pid).expect("the TUI ended"),
    ));
    let _ = agent.cancel().await;
    let _ = Command::new("tmux")
        .args(["-L", &socket, "send-keys", "q", "y"])
        .status();
    let deadline = Instant::now() + Duration::from_secs(10);
    while pairdbg::agent::discovery::find(&root).is_some() && Instant::now() < deadline {
        tokio::task::yield_now().await;
    }
    let _ = Command::new("tmux")
        .args(["-L", &socket, "kill-server"])
        .status();
    step_ms.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let p = |q: f64| step_ms[((step_ms.len() as f64 * q) as usize).min(step_ms.len() - 1)];
    println!("| seconds | steps | TUI resident memory |");
    println!("|---|---|---|");
    for (s, n, mib) in &samples {
        println!("| {s} | {n} | {mib:.1} MiB |");
    }
    println!(
        "\n{steps} steps in {seconds} s ({:.0}/s); step median {:.1} ms, p99 {:.1} ms",
        steps as f64 / seconds as f64,
        median(step_ms.clone()),
        p(0.99)
    );
}
