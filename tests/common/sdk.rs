//! The official MCP client SDKs, as agents built on them use pairdbg:
//! scripts/test installs the Python SDK into a venv and the TypeScript SDK
//! into a folder of its own, both in the tests' cache.

use std::path::{Path, PathBuf};
use std::time::Duration;

fn cache() -> Option<PathBuf> {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .map(|c| c.join("pairdbg-tests"))
}

fn missing(what: &str, fix: &str) -> Option<PathBuf> {
    if std::env::var_os("CI").is_some() {
        panic!("{what} is required in CI: install it with `{fix}` (scripts/test does)");
    }
    eprintln!("\n!!!!! SKIPPED: {what} is not installed ({fix}) !!!!!\n");
    None
}

/// The Python of a venv holding the MCP Python SDK (1.x, which logs a
/// warning for every notification it does not know).
pub fn python_sdk() -> Option<PathBuf> {
    let python = cache()?.join("mcp-python-sdk/bin/python");
    if python.is_file() {
        return Some(python);
    }
    missing(
        "the MCP Python SDK",
        "python3 -m venv ~/.cache/pairdbg-tests/mcp-python-sdk && ~/.cache/pairdbg-tests/mcp-python-sdk/bin/pip install 'mcp<2'",
    )
}

/// The folder whose node_modules holds the MCP TypeScript SDK.
pub fn typescript_sdk() -> Option<PathBuf> {
    let dir = cache()?.join("mcp-typescript-sdk");
    if dir
        .join("node_modules/@modelcontextprotocol/sdk/package.json")
        .is_file()
    {
        return Some(dir);
    }
    missing(
        "the MCP TypeScript SDK",
        "npm install --prefix ~/.cache/pairdbg-tests/mcp-typescript-sdk @modelcontextprotocol/sdk",
    )
}

/// Runs a client script to its end (at most `within`) and reads the one
/// JSON object it prints.
pub async fn run_client(
    program: &Path,
    args: &[&std::ffi::OsStr],
    within: Duration,
) -> serde_json::Value {
    let child = tokio::process::Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    let out = tokio::time::timeout(within, child.wait_with_output())
        .await
        .unwrap_or_else(|_| panic!("the client did not finish within {within:?}"))
        .expect("the client ran");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}\n{stdout}\n{stderr}", out.status);
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"))
}
