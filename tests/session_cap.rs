//! The cap on open sessions holds when launches come all at once: a launch
//! takes its place under the cap when it starts, not when it ends. The cap
//! is the `max_sessions` setting.

mod common;

use std::path::Path;

use common::*;
use serde_json::json;

fn config_home(max_sessions: &str) -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join("pairdbg")).unwrap();
    std::fs::write(
        home.path().join("pairdbg/config.toml"),
        format!("max_sessions = {max_sessions}\n"),
    )
    .unwrap();
    home
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn launches_made_at_once_cannot_pass_the_cap() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("add.py", ADD_PROGRAM)]);
    let home = config_home("2");
    let mcp = mcp_with_env(ws.path(), &[], &[("XDG_CONFIG_HOME", home.path())]).await;
    let launch = json!({"program": "add.py", "breakpoints": [{"file": "add.py", "line": 2}]});
    let calls = (0..6).map(|_| mcp.call("debug_launch", launch.clone()));
    let results = futures::future::join_all(calls).await;
    let started = results.iter().filter(|(_, err)| !err).count();
    let refused: Vec<&String> = results
        .iter()
        .filter(|(_, err)| *err)
        .map(|(t, _)| t)
        .collect();
    assert_eq!(started, 2, "{results:?}");
    for t in &refused {
        assert!(
            t.contains("2 sessions are open or starting") && t.contains("max_sessions"),
            "{t}"
        );
    }
    mcp.close().await;
}

#[test]
fn a_cap_out_of_range_is_refused_at_start() {
    let home = config_home("0");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(["adapters"])
        .env("XDG_CONFIG_HOME", home.path())
        .current_dir(Path::new("/"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("max_sessions") && said.contains("use 1 to 256"),
        "{said}"
    );
}
