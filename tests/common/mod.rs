//! Shared helpers for the end-to-end tests: the real binary, a real MCP
//! client over stdio, and a real debugpy.
#![allow(dead_code)]

pub mod cores;
pub mod faults;
pub mod fixtures;
pub mod java;
pub mod listener;
pub mod native;
pub mod profile;
pub mod pty;
pub mod remote;
pub mod rest;
pub mod scripted;
pub mod sdk;
pub mod tmux;
pub mod typescript;
pub mod workers;

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// True when debugpy is importable. Without it a test fails under CI and
/// skips loudly elsewhere.
pub fn debugpy_available() -> bool {
    python_package_available("debugpy")
}

/// True when python3 imports `package`. Without it a test fails under CI
/// and skips loudly elsewhere.
pub fn python_package_available(package: &str) -> bool {
    let ok = StdCommand::new("python3")
        .args(["-c", &format!("import {package}")])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !ok {
        if std::env::var_os("CI").is_some() {
            panic!(
                "{package} is required in CI: install it with `python3 -m pip install {package}` (scripts/test does)"
            );
        }
        eprintln!(
            "\n!!!!! SKIPPED: {package} is not installed (python3 -m pip install {package}) !!!!!\n"
        );
    }
    ok
}

/// True when `program` is on PATH. Without it a test fails under CI and
/// skips loudly elsewhere.
pub fn tool_available(program: &str) -> bool {
    let ok = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
        .unwrap_or(false);
    if !ok {
        if std::env::var_os("CI").is_some() {
            panic!("{program} is required in CI (scripts/test installs it)");
        }
        eprintln!("\n!!!!! SKIPPED: {program} is not installed !!!!!\n");
    }
    ok
}

/// True when the programs an adapter needs all run (`prog --version`-like
/// checks). Without them a test fails under CI and skips loudly elsewhere.
pub fn adapter_available(what: &str, checks: &[(&str, &[&str])], fix: &str) -> bool {
    let ok = checks.iter().all(|(prog, args)| {
        StdCommand::new(prog)
            .args(*args)
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    });
    if !ok {
        if std::env::var_os("CI").is_some() {
            panic!("{what} is required in CI: install it with `{fix}` (scripts/test does)");
        }
        eprintln!("\n!!!!! SKIPPED: {what} is not installed ({fix}) !!!!!\n");
    }
    ok
}

/// Go and its debugger, where pairdbg looks for it (PATH, then where
/// `go install` puts it).
pub fn go_available() -> bool {
    let dlv = pairdbg::adapters::delve::find_dlv()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "dlv".into());
    adapter_available(
        "Go and delve (dlv)",
        &[("go", &["version"]), (&dlv, &["version"])],
        "pairdbg adapters install go",
    )
}

/// Ruby with its debug gem's rdbg (Debian's `ruby` package bundles both).
pub fn ruby_available() -> bool {
    adapter_available(
        "Ruby and rdbg (the debug gem)",
        &[("ruby", &["-rdebug/version", "-e", ""])],
        "pairdbg adapters install ruby",
    )
}

/// A JDK and Maven, and pairdbg's Java debug server compiled for that JDK
/// (`pairdbg adapters install java`, run once per test process; it compiles
/// only what is missing).
pub fn java_available() -> bool {
    if !adapter_available(
        "a JDK 17 or newer and Maven",
        &[
            ("javac", &["-version"]),
            ("java", &["-version"]),
            ("mvn", &["-v"]),
        ],
        "apt-get install -y openjdk-17-jdk-headless maven",
    ) {
        return false;
    }
    static INSTALLED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    let got = INSTALLED.get_or_init(|| {
        let out = StdCommand::new(env!("CARGO_BIN_EXE_pairdbg"))
            .args(["adapters", "install", "java"])
            .output()
            .map_err(|e| e.to_string())?;
        match out.status.success() {
            true => Ok(()),
            false => Err(format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )),
        }
    });
    // The JDK is here: a server that does not compile with it is a failure.
    if let Err(e) = got {
        panic!("pairdbg adapters install java failed: {e}");
    }
    true
}

pub struct Mcp {
    pub client: RunningService<RoleClient, ()>,
    pub pid: u32,
}

pub async fn mcp_in(workspace: &Path) -> Mcp {
    mcp_with(workspace, &[]).await
}

pub async fn mcp_with(workspace: &Path, extra_args: &[&str]) -> Mcp {
    mcp_with_env(workspace, extra_args, &[]).await
}

/// `pairdbg mcp` with `env` set (XDG_STATE_HOME, to keep its journals apart).
pub async fn mcp_with_env(workspace: &Path, extra_args: &[&str], env: &[(&str, &Path)]) -> Mcp {
    mcp_of(
        Path::new(env!("CARGO_BIN_EXE_pairdbg")),
        workspace,
        extra_args,
        env,
    )
    .await
}

/// `mcp_with_env` of another pairdbg binary (an older build, to compare).
pub async fn mcp_of(
    binary: &Path,
    workspace: &Path,
    extra_args: &[&str],
    env: &[(&str, &Path)],
) -> Mcp {
    let ws = workspace.to_path_buf();
    let extra: Vec<String> = extra_args.iter().map(|s| s.to_string()).collect();
    let transport = TokioChildProcess::new(tokio::process::Command::new(binary).configure(|cmd| {
        cmd.arg("mcp").args(&extra).current_dir(&ws);
        for (k, v) in env {
            cmd.env(k, v);
        }
    }))
    .expect("spawn pairdbg mcp");
    let pid = transport.id().expect("pid");
    let client = ().serve(transport).await.expect("MCP initialize");
    Mcp { client, pid }
}

impl Mcp {
    pub async fn call_raw(&self, tool: &str, args: Value) -> CallToolResult {
        let args = match args {
            Value::Object(m) => m,
            Value::Null => Default::default(),
            other => panic!("arguments must be an object: {other}"),
        };
        tokio::time::timeout(
            Duration::from_secs(60),
            self.client
                .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args)),
        )
        .await
        .unwrap_or_else(|_| panic!("{tool} did not answer within 60 s"))
        .unwrap_or_else(|e| panic!("{tool} failed at the protocol level: {e}"))
    }

    /// Calls a tool and returns (text, is_error).
    pub async fn call(&self, tool: &str, args: Value) -> (String, bool) {
        let r = self.call_raw(tool, args).await;
        let text = r
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            .collect::<Vec<_>>()
            .join("\n");
        (text, r.is_error.unwrap_or(false))
    }

    /// Calls a tool that must succeed.
    pub async fn ok(&self, tool: &str, args: Value) -> String {
        let (text, is_error) = self.call(tool, args).await;
        assert!(!is_error, "{tool} failed: {text}");
        text
    }

    /// A resource's text.
    pub async fn resource(&self, uri: &str) -> String {
        let r = self
            .client
            .read_resource(rmcp::model::ReadResourceRequestParams::new(uri))
            .await
            .unwrap_or_else(|e| panic!("read {uri}: {e}"));
        match &r.contents[0] {
            rmcp::model::ResourceContents::TextResourceContents { text, .. } => text.clone(),
            other => panic!("{uri}: {other:?}"),
        }
    }

    /// Calls a tool that must fail, returning its message.
    pub async fn fails(&self, tool: &str, args: Value) -> String {
        let (text, is_error) = self.call(tool, args).await;
        assert!(is_error, "{tool} should have failed but returned: {text}");
        text
    }

    /// Reads all output until it contains `needle` (10 s at most).
    pub async fn output_containing(&self, needle: &str) -> String {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            let out = self.ok("debug_output", serde_json::json!({})).await;
            if out.contains(needle) || tokio::time::Instant::now() > deadline {
                return out;
            }
            tokio::task::yield_now().await;
        }
    }

    pub async fn close(self) {
        let _ = self.client.cancel().await;
    }
}

/// The line the viewport's header names, e.g. 44 for `── STOPPED at x.py:44 (f) ──`.
pub fn stopped_line(viewport: &str) -> Option<u64> {
    let header = viewport
        .lines()
        .find(|l| l.starts_with("── STOPPED at") || l.starts_with("── STEP at"))?;
    let at = header.split(" at ").nth(1)?;
    let loc = at.split(' ').next()?;
    loc.rsplit(':').next()?.parse().ok()
}

/// The function the viewport's header names.
pub fn stopped_function(viewport: &str) -> Option<String> {
    let header = viewport.lines().find(|l| l.starts_with("── STOPPED at"))?;
    let open = header.find('(')?;
    let close = header[open..].find(')')? + open;
    Some(header[open + 1..close].to_string())
}

/// The value a viewport shows for a local, e.g. `subtotal` → `119.94`.
pub fn local(viewport: &str, name: &str) -> Option<String> {
    let mut in_locals = false;
    for l in viewport.lines() {
        if l == "Locals:" || l == "Changed:" {
            in_locals = true;
            continue;
        }
        if in_locals {
            if !l.starts_with("  ") {
                in_locals = false;
                continue;
            }
            let t = l.trim_start();
            if let Some(rest) = t.strip_prefix(name)
                && rest.starts_with(' ')
                && let Some((_, v)) = rest.split_once("= ")
            {
                return Some(v.to_string());
            }
        }
    }
    None
}

/// Pids of live processes whose command line contains `needle`.
pub fn pids_matching(needle: &str) -> Vec<u32> {
    let mut out = vec![];
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in dir.flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmd) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        // Zombies have an empty cmdline and are already dead.
        if cmd.contains(needle) {
            out.push(pid);
        }
    }
    out
}

/// Waits, polling /proc, until no process matches; returns the survivors.
pub async fn wait_gone(needle: &str, within: Duration) -> Vec<u32> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let left = pids_matching(needle);
        if left.is_empty() || tokio::time::Instant::now() > deadline {
            return left;
        }
        tokio::task::yield_now().await;
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
}

/// A scratch workspace holding the given files.
pub fn workspace(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("pairdbg-test-")
        .tempdir()
        .expect("tempdir");
    for (name, text) in files {
        let p = dir.path().join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(p, text).expect("write");
    }
    dir
}

/// Every live descendant of `root` (not counting zombies).
pub fn descendants(root: u32) -> Vec<u32> {
    let mut parent = std::collections::HashMap::new();
    if let Ok(dir) = std::fs::read_dir("/proc") {
        for e in dir.flatten() {
            let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            if let Some((ppid, state)) = stat(pid)
                && state != 'Z'
            {
                parent.insert(pid, ppid);
            }
        }
    }
    let mut out = vec![];
    let mut frontier = vec![root];
    while let Some(p) = frontier.pop() {
        for (&c, &pp) in &parent {
            if pp == p && !out.contains(&c) {
                out.push(c);
                frontier.push(c);
            }
        }
    }
    out
}

/// (ppid, state) from /proc/PID/stat.
pub fn stat(pid: u32) -> Option<(u32, char)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &s[s.rfind(')')? + 2..];
    let mut it = after.split(' ');
    let state = it.next()?.chars().next()?;
    let ppid = it.next()?.parse().ok()?;
    Some((ppid, state))
}

pub fn alive(pid: u32) -> bool {
    matches!(stat(pid), Some((_, s)) if s != 'Z')
}

/// Waits until none of `pids` is alive; returns the survivors.
pub async fn wait_dead(pids: &[u32], within: Duration) -> Vec<u32> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let left: Vec<u32> = pids.iter().copied().filter(|p| alive(*p)).collect();
        if left.is_empty() || tokio::time::Instant::now() > deadline {
            return left;
        }
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
}

/// The process's command name, from /proc.
pub fn comm(pid: u32) -> Option<String> {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .ok()
        .map(|c| c.trim().to_string())
}

/// Waits for `pids` to end, then returns those still alive, not counting
/// the shell a terminal test runs pairdbg from.
pub async fn survivors_besides_shell(pids: &[u32], within: Duration) -> Vec<u32> {
    wait_dead(pids, within)
        .await
        .into_iter()
        .filter(|p| comm(*p).is_some_and(|c| c != "sh"))
        .collect()
}

/// A program a test started, ended however the test ends.
pub struct Running(pub std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Text with its runs of spaces collapsed: panes and the viewport align
/// their `=` with padding, which a test's expectation should not spell out.
pub fn squash(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if !(c == ' ' && out.ends_with(' ')) {
            out.push(c);
        }
    }
    out
}

/// A small Python program the terminal tests step through: a call, its
/// return, a print.
pub const ADD_PROGRAM: &str = "\
def add(a, b):
    total = a + b
    return total


x = add(1, 2)
y = add(x, 10)
print('result', y)
";

/// A data directory (for `XDG_DATA_HOME`) holding js-debug, installed by
/// `pairdbg adapters install node` once per test binary. Without Node, npm
/// or the registry a test fails under CI and skips loudly elsewhere.
pub fn js_debug_available() -> Option<PathBuf> {
    static DIR: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    let got = DIR.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("pairdbg-js-debug-")
            .tempdir()
            .map_err(|e| e.to_string())?
            .keep();
        let out = StdCommand::new(env!("CARGO_BIN_EXE_pairdbg"))
            .args(["adapters", "install", "node"])
            .env("XDG_DATA_HOME", &dir)
            .output()
            .map_err(|e| e.to_string())?;
        let ok = out.status.success() && StdCommand::new("node").arg("--version").output().is_ok();
        match ok {
            true => Ok(dir),
            false => Err(format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )),
        }
    });
    match got {
        Ok(dir) => Some(dir.clone()),
        Err(why) => {
            let fix = "pairdbg adapters install node (needs node and npm)";
            if std::env::var_os("CI").is_some() {
                panic!(
                    "js-debug is required in CI: install it with `{fix}` (scripts/test does): {why}"
                );
            }
            eprintln!("\n!!!!! SKIPPED: js-debug could not be installed ({fix}): {why} !!!!!\n");
            None
        }
    }
}

/// A workspace holding `files` and an MCP server whose data directory
/// holds js-debug; None (skipped, see `js_debug_available`) without it.
pub async fn js_mcp(files: &[(&str, &str)]) -> Option<(tempfile::TempDir, Mcp)> {
    let data = js_debug_available()?;
    let ws = workspace(files);
    let mcp = mcp_with_env(ws.path(), &[], &[("XDG_DATA_HOME", &data)]).await;
    Some((ws, mcp))
}

/// TypeScript's compiler, from the cache scripts/test installs it into.
/// Without it a test fails under CI and skips loudly elsewhere.
pub fn tsc_available() -> Option<PathBuf> {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    let tsc = cache.join("pairdbg-tests/typescript/node_modules/.bin/tsc");
    if tsc.is_file() {
        return Some(tsc);
    }
    let fix = "npm install --prefix ~/.cache/pairdbg-tests/typescript typescript";
    if std::env::var_os("CI").is_some() {
        panic!("TypeScript is required in CI: install it with `{fix}` (scripts/test does)");
    }
    eprintln!("\n!!!!! SKIPPED: TypeScript is not installed ({fix}) !!!!!\n");
    None
}

/// Node processes running `script` with `dir` as their working directory.
pub fn node_running(dir: &Path, script: &str) -> Vec<u32> {
    pids_matching(script)
        .into_iter()
        .filter(|pid| {
            std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|c| c == dir)
                && comm(*pid).is_some_and(|c| c.starts_with("node"))
        })
        .collect()
}

/// Polls `read` until `done` holds or the time is up; the last reading.
pub async fn poll<T>(read: impl Fn() -> T, done: impl Fn(&T) -> bool, within: Duration) -> T {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let now = read();
        if done(&now) || tokio::time::Instant::now() > deadline {
            return now;
        }
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
}
