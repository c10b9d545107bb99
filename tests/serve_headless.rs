//! `pairdbg serve`: a headless host that `pairdbg mcp` joins as it joins a
//! TUI, which stops by itself once idle and leaves no process behind.

mod common;

use std::process::Stdio;
use std::time::Duration;

use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};

use common::listener::listen_in;

#[tokio::test(flavor = "multi_thread")]
async fn an_agent_joins_a_headless_host_which_stops_once_idle() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("add.py", common::ADD_PROGRAM)]);
    let runtime = tempfile::tempdir().unwrap();
    let runtime_dir = runtime.path().to_str().unwrap().to_string();
    let (mut host, first) = idle_host(ws.path(), &runtime_dir).await;
    assert!(
        first.contains("serving") && first.contains("/mcp"),
        "{first}"
    );

    assert_eq!(
        discovery_files(runtime.path()).len(),
        1,
        "no discovery file"
    );
    let agent = listen_in(ws.path(), &[("XDG_RUNTIME_DIR", &runtime_dir)]).await;
    let viewport = agent
        .ok(
            "debug_launch",
            json!({"program": "add.py", "breakpoints": [{"file": "add.py", "line": 2}]}),
        )
        .await;
    assert_eq!(common::stopped_line(&viewport), Some(2), "{viewport}");
    let debuggee = common::pids_matching("add.py");
    assert!(!debuggee.is_empty(), "the program should be running");
    // The session lives in the host, not in the stdio process.
    let sessions = agent.ok("debug_sessions", json!({})).await;
    assert!(sessions.contains("add.py"), "{sessions}");
    let ended = agent.ok("debug_terminate", json!({})).await;
    assert!(ended.contains("ended"), "{ended}");
    agent.close().await;

    let status = tokio::time::timeout(Duration::from_secs(20), host.wait())
        .await
        .expect("pairdbg serve kept running with no session past its idle limit")
        .unwrap();
    assert!(status.success(), "{status}");
    let left = common::wait_dead(&debuggee, Duration::from_secs(5)).await;
    assert!(left.is_empty(), "processes outlived the host: {left:?}");
    let files = discovery_files(runtime.path());
    assert!(
        files.is_empty(),
        "the discovery file outlived the host: {files:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_host_whose_program_ended_stops_once_idle() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("add.py", common::ADD_PROGRAM)]);
    let runtime = tempfile::tempdir().unwrap();
    let runtime_dir = runtime.path().to_str().unwrap().to_string();
    let (mut host, first) = idle_host(ws.path(), &runtime_dir).await;
    assert!(first.contains("serving"), "{first}");
    let agent = listen_in(ws.path(), &[("XDG_RUNTIME_DIR", &runtime_dir)]).await;
    let ended = agent.ok("debug_launch", json!({"program": "add.py"})).await;
    let ended = if ended.contains("EXITED") {
        ended
    } else {
        agent.ok("debug_continue", json!({})).await
    };
    assert!(ended.contains("EXITED with code 0"), "{ended}");
    // The session stays, with its program gone: the host does not wait on it.
    let sessions = agent.ok("debug_sessions", json!({})).await;
    assert!(sessions.contains("add.py"), "{sessions}");
    agent.close().await;
    let status = tokio::time::timeout(Duration::from_secs(20), host.wait())
        .await
        .expect("pairdbg serve kept an ended program's session past its idle limit")
        .unwrap();
    assert!(status.success(), "{status}");
}

/// `pairdbg serve --idle-exit 2` in `ws`, and the first line it says.
async fn idle_host(ws: &std::path::Path, runtime_dir: &str) -> (tokio::process::Child, String) {
    let mut host = tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(["serve", "--idle-exit", "2"])
        .current_dir(ws)
        .env("XDG_RUNTIME_DIR", runtime_dir)
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
    // Its stderr stays read: a host that cannot write its last words fails.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (host, first)
}

fn discovery_files(runtime: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(runtime.join("pairdbg"))
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default()
}
