//! A joined `pairdbg mcp` outlives the host it joined: when that host ends,
//! the agent's next call says so in plain words, and pairdbg mcp joins the
//! next host of the workspace or, with none left, debugs on its own, all
//! without the agent restarting it.

mod common;

use std::process::Stdio;
use std::time::Duration;

use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};

use common::listener::listen_in;

/// `pairdbg serve` in `ws`, once it says it is serving.
async fn host(ws: &std::path::Path, runtime_dir: &str) -> tokio::process::Child {
    let mut host = tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .arg("serve")
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
    assert!(first.contains("serving"), "{first}");
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    host
}

/// Ends a host as a person would (SIGTERM) and waits for it.
async fn end(mut host: tokio::process::Child) -> u32 {
    let pid = host.id().unwrap();
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(pid as i32, libc::SIGTERM) };
    tokio::time::timeout(Duration::from_secs(20), host.wait())
        .await
        .expect("pairdbg serve did not end on SIGTERM")
        .unwrap();
    pid
}

#[tokio::test(flavor = "multi_thread")]
async fn a_joined_mcp_whose_host_ends_joins_the_next_then_runs_alone() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("add.py", common::ADD_PROGRAM)]);
    let runtime = tempfile::tempdir().unwrap();
    let runtime_dir = runtime.path().to_str().unwrap().to_string();
    let launch = json!({"program": "add.py", "breakpoints": [{"file": "add.py", "line": 2}]});

    let first = host(ws.path(), &runtime_dir).await;
    let agent = listen_in(ws.path(), &[("XDG_RUNTIME_DIR", &runtime_dir)]).await;
    let v = agent.ok("debug_launch", launch.clone()).await;
    assert_eq!(common::stopped_line(&v), Some(2), "{v}");
    let first_pid = end(first).await;

    // A second host in the same workspace: the agent is moved to it.
    let second = host(ws.path(), &runtime_dir).await;
    let second_pid = second.id().unwrap();
    let said = agent.fails("debug_step", json!({"kind": "over"})).await;
    assert!(
        said.contains(&format!(
            "pairdbg serve (pid {first_pid}) has ended, and its sessions with it"
        )) && said.contains(&format!("joined pairdbg serve (pid {second_pid})")),
        "{said}"
    );
    assert!(!said.contains("Transport"), "{said}");
    let v = agent.ok("debug_launch", launch.clone()).await;
    assert_eq!(common::stopped_line(&v), Some(2), "{v}");

    // No host left: pairdbg mcp debugs on its own.
    end(second).await;
    let said = agent.fails("debug_sessions", json!({})).await;
    assert!(said.contains("debugging on its own"), "{said}");
    let v = agent.ok("debug_launch", launch).await;
    assert_eq!(common::stopped_line(&v), Some(2), "{v}");
    let debuggee = common::pids_matching("add.py");
    assert!(!debuggee.is_empty(), "the program should be running");
    agent.close().await;
    let left = common::wait_dead(&debuggee, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "processes outlived pairdbg mcp: {left:?}");
}
