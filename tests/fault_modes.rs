//! pairdbg itself faulted while its program runs, in each of its modes:
//! the MCP client gone while a continue waits, and pairdbg SIGTERMed or
//! SIGKILLed as an MCP server, as a headless host (`serve`) and as a TUI.
//! Nothing it started is left. (The same faults with the program stopped
//! are in process_lifecycle.rs, process_keeper.rs and tui_pty.rs.)

mod common;

use std::process::Stdio;
use std::time::Duration;

use common::faults::*;
use common::listener::listen_in;
use common::tmux::Tmux;
use common::*;
use rmcp::model::CallToolRequestParams;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};

const LOOP: &str = "\
import time
count = 0
while True:
    count += 1
    time.sleep(0.005)
";

/// How long what pairdbg started may take to end after it did.
const GONE: Duration = Duration::from_secs(15);

/// The program, under pairdbg's process `root`: debugpy runs it through a
/// script of pairdbg's own.
fn program_under(root: u32) -> Option<u32> {
    debuggee_among(&descendants(root), "debuggee_boot.py", "adapter_boot.py")
}

async fn all_gone(pids: &[u32], after: &str) {
    let left = wait_dead(pids, GONE).await;
    let named: Vec<String> = left.iter().map(|p| cmdline(*p)).collect();
    assert!(left.is_empty(), "left running {after}: {named:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_gone_while_a_continue_waits_leaves_nothing() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("loop.py", LOOP)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "loop.py", "stop_on_entry": true}),
        )
        .await;
    assert!(stopped_line(&v).is_some(), "{v}");
    let mut tree = descendants(mcp.pid);
    tree.push(mcp.pid);
    assert!(program_under(mcp.pid).is_some(), "the program: {tree:?}");

    // The continue waits for a stop that never comes; the client leaves under it.
    let peer = mcp.client.peer().clone();
    let args = json!({"timeout_ms": 120000});
    let waiting = tokio::spawn(async move {
        let call = CallToolRequestParams::new("debug_continue")
            .with_arguments(args.as_object().cloned().unwrap_or_default());
        peer.call_tool(call).await
    });
    let deadline = tokio::time::Instant::now() + GONE;
    loop {
        let s = mcp.ok("debug_status", json!({})).await;
        if s.contains("RUNNING") {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the program never ran: {s}"
        );
        tokio::task::yield_now().await;
    }
    assert!(!waiting.is_finished(), "the continue should still wait");
    mcp.close().await;
    all_gone(&tree, "after the client left mid-call").await;
    let answered = waiting.await.expect("the call's task");
    assert!(
        answered.is_err(),
        "the call cannot be answered to a client that left: {answered:?}"
    );
}

/// `pairdbg mcp` with its program running; signalled with `sig`.
async fn mcp_signalled(sig: i32) {
    let ws = workspace(&[("loop.py", LOOP)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "loop.py", "timeout_ms": 1500}),
        )
        .await;
    assert!(v.contains("running"), "{v}");
    assert!(program_under(mcp.pid).is_some(), "the program should run");
    let mut tree = descendants(mcp.pid);
    tree.push(mcp.pid);
    signal(mcp.pid, sig);
    all_gone(&tree, &format!("after signal {sig} to pairdbg mcp")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_of_the_mcp_server_while_its_program_runs_leaves_nothing() {
    if debugpy_available() {
        mcp_signalled(libc::SIGTERM).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_of_the_mcp_server_while_its_program_runs_leaves_nothing() {
    if debugpy_available() {
        mcp_signalled(libc::SIGKILL).await;
    }
}

/// `pairdbg serve` with a joined agent's program running; the host
/// signalled with `sig`.
async fn serve_signalled(sig: i32) {
    let ws = workspace(&[("loop.py", LOOP)]);
    let runtime = tempfile::tempdir().expect("runtime dir");
    let runtime_dir = runtime.path().to_str().expect("a UTF-8 path").to_string();
    let mut host = tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .arg("serve")
        .current_dir(ws.path())
        .env("XDG_RUNTIME_DIR", &runtime_dir)
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn pairdbg serve");
    let host_pid = host.id().expect("the host's pid");
    let mut lines = BufReader::new(host.stderr.take().expect("stderr")).lines();
    let first = lines.next_line().await.ok().flatten().unwrap_or_default();
    assert!(first.contains("serving"), "{first}");
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });

    let agent = listen_in(ws.path(), &[("XDG_RUNTIME_DIR", &runtime_dir)]).await;
    let v = agent
        .ok(
            "debug_launch",
            json!({"program": "loop.py", "timeout_ms": 1500}),
        )
        .await;
    assert!(v.contains("running"), "{v}");
    assert!(
        program_under(host_pid).is_some(),
        "the program should run under the host"
    );
    let mut tree = descendants(host_pid);
    tree.push(host_pid);
    signal(host_pid, sig);
    all_gone(&tree, &format!("after signal {sig} to pairdbg serve")).await;
    // The joined agent outlives its host: its next call says the host
    // ended, and the one after is answered by the agent alone.
    let said = agent.fails("debug_sessions", json!({})).await;
    assert!(
        said.contains("pairdbg serve") && said.contains("stopped answering"),
        "{said}"
    );
    let s = agent.ok("debug_sessions", json!({})).await;
    assert!(!s.contains("loop.py"), "{s}");
    agent.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_of_a_headless_host_while_its_program_runs_leaves_nothing() {
    if debugpy_available() {
        serve_signalled(libc::SIGTERM).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_of_a_headless_host_while_its_program_runs_leaves_nothing() {
    if debugpy_available() {
        serve_signalled(libc::SIGKILL).await;
    }
}

/// The TUI with its program running; signalled with `sig`.
async fn tui_signalled(name: &str, sig: i32) {
    let ws = workspace(&[("loop.py", LOOP)]);
    let t = Tmux::start(name, ws.path(), &["--", "loop.py"]);
    let pane = t.pane_pid().expect("the pane's process");
    let running = poll(
        || program_under(pane),
        |p| p.is_some(),
        Duration::from_secs(30),
    )
    .await;
    assert!(running.is_some(), "the program never ran: {}", t.screen());
    let pairdbg = std::iter::once(pane)
        .chain(descendants(pane))
        .find(|p| comm(*p).as_deref() == Some("pairdbg"))
        .expect("pairdbg in the pane");
    let mut tree = descendants(pairdbg);
    tree.push(pairdbg);
    signal(pairdbg, sig);
    all_gone(&tree, &format!("after signal {sig} to the TUI")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_of_the_tui_while_its_program_runs_leaves_nothing() {
    if debugpy_available() && Tmux::available() {
        tui_signalled("fault-term", libc::SIGTERM).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_of_the_tui_while_its_program_runs_leaves_nothing() {
    if debugpy_available() && Tmux::available() {
        tui_signalled("fault-kill", libc::SIGKILL).await;
    }
}
