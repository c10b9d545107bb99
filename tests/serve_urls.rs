//! `pairdbg serve --http ADDR` publishes the address it listens on: bound
//! to 127.0.0.2 or to [::1], the URL it prints and the discovery file name
//! that address, and a request there is answered.

mod common;

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};

/// Starts `pairdbg serve --http bind` and returns the MCP URL it printed.
async fn served_url(bind: &str) -> (tokio::process::Child, String, tempfile::TempDir) {
    let ws = common::workspace(&[("a.py", "x = 1\n")]);
    let runtime = tempfile::tempdir().unwrap();
    let mut host = tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(["serve", "--http", bind])
        .current_dir(ws.path())
        .env("XDG_RUNTIME_DIR", runtime.path())
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
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in: {first}"))
        .trim_end_matches(')')
        .to_string();
    drop(ws);
    (host, url, runtime)
}

async fn answers(url: &str) -> bool {
    let client = reqwest::Client::new();
    // Without the token the server answers 401: it is reachable there.
    client
        .post(url)
        .timeout(Duration::from_secs(10))
        .send()
        .await
        .is_ok_and(|r| r.status().as_u16() == 401)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_published_url_is_the_address_bound() {
    let (_host, url, _rt) = served_url("127.0.0.2:0").await;
    assert!(url.starts_with("http://127.0.0.2:"), "{url}");
    assert!(answers(&url).await, "nothing answers at {url}");

    if std::net::TcpListener::bind("[::1]:0").is_err() {
        eprintln!("SKIPPED: this machine has no IPv6 loopback");
        return;
    }
    let (_host, url, _rt) = served_url("[::1]:0").await;
    assert!(url.starts_with("http://[::1]:"), "{url}");
    assert!(answers(&url).await, "nothing answers at {url}");
}
