//! `pairdbg adapters install go` in a clean home, as a Go developer new to
//! pairdbg runs it: `go install` builds delve into GOBIN, `pairdbg
//! adapters` lists that delve with its version, and a Go launch runs on it.
//! The module and build caches stay the machine's, so nothing is fetched or
//! built again that the machine already has.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use serde_json::json;

const PROG: &str = "package main

import \"fmt\"

func main() {
\ttotal := 40
\ttotal += 2
\tfmt.Println(\"total\", total)
}
";

fn go_env(key: &str) -> String {
    let out = Command::new("go")
        .args(["env", key])
        .output()
        .expect("go env");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// PATH without any directory that holds a `dlv`: only the one the install
/// builds may be found.
fn path_without_dlv() -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|d| !d.join("dlv").exists())
        .collect();
    std::env::join_paths(kept)
        .expect("PATH")
        .to_string_lossy()
        .to_string()
}

struct CleanHome {
    _dir: tempfile::TempDir,
    env: Vec<(&'static str, PathBuf)>,
    gobin: PathBuf,
}

fn clean_home() -> CleanHome {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    let gobin = dir.path().join("gobin");
    for d in [&home, &gobin] {
        std::fs::create_dir_all(d).expect("mkdir");
    }
    let env = vec![
        ("HOME", home.clone()),
        ("GOPATH", dir.path().join("gopath")),
        ("GOBIN", gobin.clone()),
        ("XDG_DATA_HOME", dir.path().join("data")),
        ("XDG_CONFIG_HOME", home.join(".config")),
        // The machine's caches: the modules delve needs and their builds.
        ("GOMODCACHE", PathBuf::from(go_env("GOMODCACHE"))),
        ("GOCACHE", PathBuf::from(go_env("GOCACHE"))),
        ("GOFLAGS", PathBuf::from("-mod=mod")),
        ("PATH", PathBuf::from(path_without_dlv())),
    ];
    CleanHome {
        _dir: dir,
        env,
        gobin,
    }
}

fn pairdbg(home: &CleanHome, args: &[&str]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pairdbg"));
    cmd.args(args).current_dir(repo_root());
    for (k, v) in &home.env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run pairdbg");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "pairdbg {args:?} failed: {said}");
    said
}

fn exe(pid: u32) -> Option<PathBuf> {
    std::fs::read_link(format!("/proc/{pid}/exe")).ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_install_builds_delve_in_a_clean_home_and_a_launch_runs_on_it() {
    if !adapter_available("Go", &[("go", &["version"])], "install Go from go.dev") {
        return;
    }
    let home = clean_home();
    let said = pairdbg(&home, &["adapters", "install", "go"]);
    let dlv = home.gobin.join("dlv");
    assert!(dlv.is_file(), "go install put no dlv in GOBIN: {said}");

    let listing = pairdbg(&home, &["adapters"]);
    let line = listing
        .lines()
        .find(|l| l.starts_with("delve"))
        .unwrap_or_else(|| panic!("{listing}"));
    let go = go_env("GOVERSION");
    assert!(
        line.contains("delve 1.")
            && line.contains(&format!(", {go} ("))
            && line.contains(&dlv.display().to_string()),
        "the delve just built, with its version: {line}"
    );
    assert!(!listing.contains("warning: delve"), "{listing}");

    let ws = workspace(&[
        ("go.mod", "module example.com/clean\n\ngo 1.22\n"),
        ("main.go", PROG),
    ]);
    let env: Vec<(&str, &Path)> = home.env.iter().map(|(k, v)| (*k, v.as_path())).collect();
    let mcp = mcp_with_env(ws.path(), &[], &env).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "timeout_ms": 120000,
                   "breakpoints": [{"file": "main.go", "line": 7}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(7), "{v}");
    assert_eq!(local(&v, "total").as_deref(), Some("40"), "{v}");
    let ran: Vec<PathBuf> = descendants(mcp.pid)
        .into_iter()
        .filter(|p| comm(*p).as_deref() == Some("dlv"))
        .filter_map(exe)
        .collect();
    assert!(
        !ran.is_empty() && ran.iter().all(|p| *p == dlv),
        "the launch runs the dlv just built: {ran:?}"
    );
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 0 ──"), "{v}");
    mcp.close().await;
}
