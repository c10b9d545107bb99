//! Load: 50 sessions open at once, from five agents joined to one headless
//! host.
//! Every launch stops at its breakpoint, every continue lands on the next
//! pass through the loop (the counter proves no stop was lost or taken
//! twice), sessions stay apart, and no program outlives its session. The
//! per-call latencies and the host's memory per idle session are printed
//! (docs/benchmarks.md records a run).

mod common;

use std::process::Stdio;
use std::time::{Duration, Instant};

use common::*;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};

const AGENTS: usize = 5;
const SESSIONS_EACH: usize = 10;
const CONTINUES: u64 = 10;

const PROG: &str = "\
def main(tag):
    total = 0
    for i in range(1000):
        total += i
    return total


import sys
main(sys.argv[1])
";

/// Resident memory of `pid` in KiB.
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))?
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()
        })
        .unwrap_or(0)
}

fn session_id(viewport: &str) -> String {
    viewport
        .split("[session ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("no session id in: {viewport}"))
        .to_string()
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() as f64 * q) as usize).min(sorted.len() - 1)]
}

/// `pairdbg serve` in `ws` with room for every session, and the runtime and
/// config directories its agents must share with it.
async fn headless_host(
    ws: &std::path::Path,
) -> (tokio::process::Child, tempfile::TempDir, tempfile::TempDir) {
    let runtime = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(config.path().join("pairdbg")).unwrap();
    std::fs::write(
        config.path().join("pairdbg/config.toml"),
        "max_sessions = 64\n",
    )
    .unwrap();
    let mut host = tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .arg("serve")
        .current_dir(ws)
        .env("XDG_RUNTIME_DIR", runtime.path())
        .env("XDG_CONFIG_HOME", config.path())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn pairdbg serve");
    let mut lines = BufReader::new(host.stderr.take().unwrap()).lines();
    let first = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
        .await
        .expect("pairdbg serve said nothing within 20 s")
        .unwrap()
        .unwrap_or_default();
    assert!(first.contains("serving"), "{first}");
    // Its stderr stays read: a host that cannot write its last words fails.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (host, runtime, config)
}

/// Two agents joined to one host each see their own results: one agent's
/// last session is no baseline for the other's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agents_joined_to_one_host_each_keep_their_own_view() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("count.py", PROG)]);
    let (mut host, runtime, config) = headless_host(ws.path()).await;
    let env = [
        ("XDG_RUNTIME_DIR", runtime.path()),
        ("XDG_CONFIG_HOME", config.path()),
    ];
    let (a, b) = (
        mcp_with_env(ws.path(), &[], &env).await,
        mcp_with_env(ws.path(), &[], &env).await,
    );
    let launch = |tag: &str| json!({"program": "count.py", "args": [tag], "breakpoints": [{"file": "count.py", "line": 4}]});
    let va = a.ok("debug_launch", launch("first")).await;
    let vb = b.ok("debug_launch", launch("second")).await;
    assert_ne!(session_id(&va), session_id(&vb));
    let v = a
        .ok("debug_continue", json!({"session_id": session_id(&va)}))
        .await;
    assert_eq!(local(&v, "i").as_deref(), Some("1"), "{v}");
    assert!(
        !v.contains("your previous one was about"),
        "the other agent's launch is not this agent's previous result: {v}"
    );
    a.close().await;
    b.close().await;
    let _ = host.kill().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_sessions_from_five_agents_lose_no_stop() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("count.py", PROG)]);
    let (mut host, runtime, config) = headless_host(ws.path()).await;
    let host_pid = host.id().expect("host pid");
    let idle_kib = rss_kib(host_pid);

    let env = [
        ("XDG_RUNTIME_DIR", runtime.path()),
        ("XDG_CONFIG_HOME", config.path()),
    ];
    let mut agents = vec![];
    for _ in 0..AGENTS {
        agents.push(mcp_with_env(ws.path(), &[], &env).await);
    }

    // The agents launch at once, each its sessions one after another: 50
    // debugpy start-ups at once would take a 2-core machine past the test
    // client's own 60 s limit on a call.
    let launches = agents.iter().enumerate().map(|(a, agent)| async move {
        let mut done = vec![];
        for k in 0..SESSIONS_EACH {
            let tag = format!("a{a}s{k}");
            let t0 = Instant::now();
            let v = agent
                .ok(
                    "debug_launch",
                    json!({
                        "program": "count.py",
                        "args": [tag],
                        "breakpoints": [{"file": "count.py", "line": 4}],
                        "timeout_ms": 120000
                    }),
                )
                .await;
            done.push((a, tag, v, t0.elapsed().as_secs_f64() * 1000.0));
        }
        done
    });
    let launched = futures::future::join_all(launches).await.concat();
    let mut launch_ms = vec![];
    let mut sessions = vec![];
    for (a, tag, v, ms) in launched {
        assert_eq!(stopped_line(&v), Some(4), "{tag}: {v}");
        assert_eq!(local(&v, "i").as_deref(), Some("0"), "{tag}: {v}");
        assert!(
            v.contains(&format!("\"{tag}\"")),
            "{tag} shows another session: {v}"
        );
        launch_ms.push(ms);
        sessions.push((a, tag, session_id(&v)));
    }
    let ids: std::collections::HashSet<&String> = sessions.iter().map(|(_, _, s)| s).collect();
    assert_eq!(ids.len(), AGENTS * SESSIONS_EACH, "session ids repeat");
    let loaded_kib = rss_kib(host_pid);

    // Each session continues from its own agent, all sessions at once.
    let runs = sessions.iter().map(|(a, tag, id)| {
        let agent = &agents[*a];
        async move {
            let mut took = vec![];
            for n in 1..=CONTINUES {
                let t0 = Instant::now();
                let v = agent
                    .ok(
                        "debug_continue",
                        json!({"session_id": id, "timeout_ms": 60000}),
                    )
                    .await;
                took.push(t0.elapsed().as_secs_f64() * 1000.0);
                assert_eq!(stopped_line(&v), Some(4), "{tag}: {v}");
                assert_eq!(
                    local(&v, "i").as_deref(),
                    Some(n.to_string().as_str()),
                    "{tag} lost or repeated a stop: {v}"
                );
                assert!(v.contains(&format!("\"{tag}\"")), "{tag}: {v}");
            }
            took
        }
    });
    let mut step_ms: Vec<f64> = futures::future::join_all(runs).await.concat();

    for (a, _, id) in &sessions {
        agents[*a]
            .ok("debug_terminate", json!({"session_id": id}))
            .await;
    }
    for agent in agents {
        agent.close().await;
    }
    let program = ws.path().join("count.py").display().to_string();
    let left = wait_gone(&program, Duration::from_secs(30)).await;
    assert!(
        left.is_empty(),
        "programs outlived their sessions: {left:?}"
    );
    let _ = host.kill().await;

    step_ms.sort_by(|x, y| x.total_cmp(y));
    launch_ms.sort_by(|x, y| x.total_cmp(y));
    println!(
        "{} sessions from {AGENTS} agents: launch p50 {:.0} ms, p99 {:.0} ms; \
         {} continues p50 {:.1} ms, p99 {:.1} ms; host memory {:.1} MiB idle, \
         {:.1} MiB with every session stopped ({:.0} KiB per session)",
        sessions.len(),
        percentile(&launch_ms, 0.5),
        percentile(&launch_ms, 0.99),
        step_ms.len(),
        percentile(&step_ms, 0.5),
        percentile(&step_ms, 0.99),
        idle_kib as f64 / 1024.0,
        loaded_kib as f64 / 1024.0,
        loaded_kib.saturating_sub(idle_kib) as f64 / sessions.len() as f64
    );
}
