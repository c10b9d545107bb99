//! `pairdbg mcp` joins only a server that the user's own private discovery
//! file names. A file another user could have planted (readable or writable
//! by others, in a shared directory, or naming a host beyond loopback) is
//! ignored, and the planted server never hears from us: it would otherwise
//! receive every launch, environment and secret included.

mod common;

use std::net::TcpListener;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::Path;
use std::time::Duration;

use common::*;
use rmcp::ServiceExt;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::json;
use tokio::io::AsyncReadExt;

/// A discovery file for `ws` in `dir` naming `url`, with `mode`, published
/// as if by this (live) test process.
fn plant(dir: &Path, ws: &Path, url: &str, mode: u32) {
    let d = pairdbg::agent::discovery::Discovery {
        url: url.into(),
        token: "planted".into(),
        pid: std::process::id(),
        workspace: ws.to_path_buf(),
        publisher: Default::default(),
    };
    let path = dir.join(pairdbg::agent::discovery::file_name(ws, d.pid));
    std::fs::write(&path, serde_json::to_string(&d).unwrap()).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A loopback server that would take the agent's connection; it must stay
/// untouched.
fn planted_server() -> (TcpListener, String) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    l.set_nonblocking(true).unwrap();
    let url = format!("http://{}/mcp", l.local_addr().unwrap());
    (l, url)
}

fn never_contacted(l: &TcpListener) {
    match l.accept() {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
        other => panic!("pairdbg mcp reached the planted server: {other:?}"),
    }
}

/// `pairdbg mcp` in `ws` with `env`, XDG_RUNTIME_DIR removed unless given;
/// returns the client and what it wrote on stderr at start-up.
async fn mcp_env(ws: &Path, env: &[(&str, &Path)]) -> (Mcp, tokio::process::ChildStderr) {
    let ws = ws.to_path_buf();
    let cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg")).configure(|cmd| {
        cmd.arg("mcp")
            .current_dir(&ws)
            .env_remove("XDG_RUNTIME_DIR");
        for (k, v) in env {
            cmd.env(k, v);
        }
    });
    let (transport, stderr) = TokioChildProcess::builder(cmd)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn pairdbg mcp");
    let pid = transport.id().expect("pid");
    let client = tokio::time::timeout(Duration::from_secs(20), ().serve(transport))
        .await
        .expect("MCP initialize answered (a planted server would not)")
        .expect("MCP initialize");
    (Mcp { client, pid }, stderr.expect("stderr"))
}

/// It serves sessions of its own: a launch works on this machine's Python
/// when debugpy is there, and the server's name is pairdbg's.
async fn runs_headless(mcp: &Mcp) {
    let info = mcp.client.peer_info().expect("server info");
    assert!(
        info.instructions
            .as_deref()
            .unwrap_or("")
            .contains("debug_launch"),
        "{:?}",
        info.instructions
    );
    let (text, _) = mcp.call("debug_status", json!({})).await;
    assert!(!text.contains("planted"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_discovery_file_others_could_have_written_is_not_joined() {
    let ws = workspace(&[("a.py", "x = 1\n")]);
    let runtime = tempfile::tempdir().unwrap();
    let dir = runtime.path().join("pairdbg");
    std::fs::DirBuilder::new().mode(0o700).create(&dir).unwrap();
    let (server, url) = planted_server();
    // Readable by others: its token could have been read, or it rewritten.
    plant(&dir, ws.path(), &url, 0o644);
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("readable.log");
    let env = [
        ("XDG_RUNTIME_DIR", runtime.path()),
        ("PAIRDBG_LOG", log.as_path()),
    ];
    let (mcp, _) = mcp_env(ws.path(), &env).await;
    runs_headless(&mcp).await;
    never_contacted(&server);
    mcp.close().await;
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        said.contains("ignoring discovery file") && said.contains("mode 644, not 600"),
        "{said}"
    );

    // Private, but naming a host beyond loopback.
    let ws = workspace(&[("a.py", "x = 1\n")]);
    plant(&dir, ws.path(), "http://192.0.2.7:4000/mcp", 0o600);
    let log = logs.path().join("remote.log");
    let env = [
        ("XDG_RUNTIME_DIR", runtime.path()),
        ("PAIRDBG_LOG", log.as_path()),
    ];
    let (mcp, _) = mcp_env(ws.path(), &env).await;
    runs_headless(&mcp).await;
    mcp.close().await;
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        said.contains("ignoring discovery file")
            && said.contains("its URL http://192.0.2.7:4000/mcp is not on loopback"),
        "{said}"
    );
}

/// What the server wrote on stderr, to its end (it has exited).
async fn all_of(mut stderr: tokio::process::ChildStderr) -> String {
    let mut said = String::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stderr.read_to_string(&mut said)).await;
    said
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_private_runtime_directory_discovery_is_off_and_says_why() {
    let ws = workspace(&[("a.py", "x = 1\n")]);
    let tmp = tempfile::tempdir().unwrap();
    // Another user got to the per-user directory first: here it is one that
    // others may enter, which pairdbg must not use either.
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    let taken = tmp.path().join(format!("pairdbg-{uid}"));
    std::fs::DirBuilder::new()
        .mode(0o755)
        .create(&taken)
        .unwrap();
    std::fs::set_permissions(&taken, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (server, url) = planted_server();
    // Where the shared fallback used to look, and inside the taken directory.
    plant(tmp.path(), ws.path(), &url, 0o600);
    plant(&taken, ws.path(), &url, 0o600);
    let (mcp, stderr) = mcp_env(ws.path(), &[("TMPDIR", tmp.path())]).await;
    runs_headless(&mcp).await;
    never_contacted(&server);
    let pid = mcp.pid;
    mcp.close().await;
    let said = all_of(stderr).await;
    assert!(
        said.contains("discovery is off") && said.contains("mode 0700"),
        "pid {pid} said: {said}"
    );
}

/// At trace level the log holds every DAP message, secrets included: it is
/// the user's alone, even when an older pairdbg left it readable.
#[test]
fn the_log_is_private() {
    let state = tempfile::tempdir().unwrap();
    let dir = state.path().join("pairdbg");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("pairdbg.log");
    std::fs::write(&log, "").unwrap();
    std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o644)).unwrap();
    let fresh = tempfile::tempdir().unwrap();
    for home in [state.path(), fresh.path()] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
            .arg("adapters")
            .env("XDG_STATE_HOME", home)
            .env("PAIRDBG_LOG_LEVEL", "debug")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let log = home.join("pairdbg/pairdbg.log");
        let mode = std::fs::metadata(&log).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", log.display());
    }
    let made = std::fs::metadata(fresh.path().join("pairdbg")).unwrap();
    assert_eq!(made.permissions().mode() & 0o777, 0o700);
}
