//! Agent call to repaint: the TUI runs in tmux, an agent joins through
//! `pairdbg mcp` and steps; the TUI logs each frame it draws with the epoch it
//! shows. Run with `cargo bench --bench pair` (needs tmux and debugpy).

mod common;
// The key benchmark reads keys from the same log; this one only frames.
#[allow(dead_code)]
#[path = "common/frames.rs"]
mod frames;

use std::process::Command;
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::json;

use common::median;
use frames::{parse_drawn, seconds_of_day_now};

const ROUNDS: usize = 6;
const STEPS: usize = 8;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let root = common::root();
    let bin = env!("CARGO_BIN_EXE_pairdbg");
    let mut repaint = vec![];
    let mut result = vec![];
    for round in 0..ROUNDS {
        let log = std::env::temp_dir().join(format!(
            "pairdbg-pair-bench-{}-{round}.log",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&log);
        let socket = format!("pairdbg-bench-{}-{round}", std::process::id());
        let cmd = format!(
            "PAIRDBG_LOG={} PAIRDBG_LOG_LEVEL=pairdbg::tui=debug {bin} --break assets/demo/order.py:41 -- assets/demo/order.py",
            log.display()
        );
        let ok = Command::new("tmux")
            .args([
                "-L",
                &socket,
                "new-session",
                "-d",
                "-x",
                "120",
                "-y",
                "36",
                "-c",
            ])
            .arg(&root)
            .args(["--", &cmd])
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(ok, "tmux is needed for this benchmark");
        // Wait for the TUI's discovery file: its first stop is drawn by then.
        let deadline = Instant::now() + Duration::from_secs(30);
        while pairdbg::agent::discovery::find(&root.canonicalize().unwrap()).is_none() {
            assert!(Instant::now() < deadline, "the TUI did not start");
            tokio::task::yield_now().await;
        }
        let transport = TokioChildProcess::new(tokio::process::Command::new(bin).configure(|c| {
            c.arg("mcp").current_dir(&root);
        }))
        .expect("spawn");
        let agent = ().serve(transport).await.expect("join");
        // The first stop must be there before stepping.
        loop {
            let r = agent
                .call_tool(CallToolRequestParams::new("debug_status"))
                .await
                .expect("status");
            let t = r
                .content
                .iter()
                .filter_map(|c| c.as_text().map(|t| t.text.clone()))
                .collect::<String>();
            if t.contains("STOPPED") {
                break;
            }
            assert!(Instant::now() < deadline, "no first stop");
        }
        for _ in 0..STEPS {
            let sent = seconds_of_day_now();
            let t0 = Instant::now();
            let r = agent
                .call_tool(
                    CallToolRequestParams::new("debug_step")
                        .with_arguments(json!({}).as_object().cloned().unwrap()),
                )
                .await
                .expect("step");
            result.push(t0.elapsed().as_secs_f64() * 1000.0);
            let text = r
                .content
                .iter()
                .filter_map(|c| c.as_text().map(|t| t.text.clone()))
                .collect::<String>();
            let epoch: u64 = text
                .rsplit("epoch ")
                .next()
                .and_then(|e| e.trim_end_matches(']').trim().parse().ok())
                .expect("epoch");
            let deadline = Instant::now() + Duration::from_secs(5);
            let drawn = loop {
                let found = std::fs::read_to_string(&log)
                    .unwrap_or_default()
                    .lines()
                    .filter_map(parse_drawn)
                    .find(|d| d.epoch >= epoch);
                if let Some(d) = found {
                    break d.at;
                }
                assert!(Instant::now() < deadline, "epoch {epoch} was never drawn");
                tokio::task::yield_now().await;
            };
            repaint.push((drawn - sent) * 1000.0);
        }
        let _ = agent.cancel().await;
        let _ = Command::new("tmux")
            .args(["-L", &socket, "send-keys", "q"])
            .status();
        let deadline = Instant::now() + Duration::from_secs(10);
        while pairdbg::agent::discovery::find(&root.canonicalize().unwrap()).is_some()
            && Instant::now() < deadline
        {
            tokio::task::yield_now().await;
        }
        let _ = Command::new("tmux")
            .args(["-L", &socket, "kill-server"])
            .status();
        let _ = std::fs::remove_file(&log);
    }
    let r = median(result.clone());
    let p = median(repaint.clone());
    println!("| figure | median | samples |");
    println!("|---|---|---|");
    println!(
        "| agent debug_step → its result (through `pairdbg mcp` and the TUI's HTTP endpoint) | {r:.2} ms | {} |",
        result.len()
    );
    println!(
        "| agent debug_step sent → the TUI's frame with the new epoch drawn | {p:.2} ms | {} |",
        repaint.len()
    );
    println!(
        "| repaint beyond the agent's own result | {:.2} ms | — |",
        p - r
    );
}
