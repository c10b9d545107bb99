//! A binary older than a source of its language: every stop says so, in
//! the agent's viewport (text and JSON) and the TUI's status bar, from the
//! first launch and again after a restart, until it is rebuilt. Real C++
//! on lldb-dap and Rust on gdb.

mod common;

use std::path::Path;
use std::time::{Duration, SystemTime};

use common::native::{build_cpp, build_rust_source, gdb_available, lldb_available};
use common::{mcp_in, stopped_line, workspace};
use serde_json::json;

const CPP: &str = "#include <cstdio>

int main() {
    int total = 0;
    for (int i = 0; i < 3; i++) {
        total += i;
    }
    std::printf(\"%d\\n\", total);
    return 0;
}
";

const RUST: &str = "fn main() {
    let mut total = 0;
    for i in 0..3 {
        total += i;
    }
    println!(\"{total}\");
}
";

const WARNING: &str = "Warning: the binary is older than";

/// Marks `file` as edited after its binary was built.
fn edit(file: &Path) {
    let later = SystemTime::now() + Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(file)
        .and_then(|f| f.set_modified(later))
        .expect("touch the source");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cpp_binary_older_than_its_source_is_told_at_every_stop_until_rebuilt() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[("loop.cpp", CPP)]);
    let (src, bin) = (ws.path().join("loop.cpp"), ws.path().join("loop"));
    build_cpp(&src, &bin);
    let mcp = mcp_in(ws.path()).await;
    let launch = json!({"program": "loop", "breakpoints": [{"file": "loop.cpp", "line": 6}]});
    let v = mcp.ok("debug_launch", launch).await;
    assert_eq!(stopped_line(&v), Some(6), "{v}");
    assert!(!v.contains(WARNING), "built from this source: {v}");

    edit(&src);
    let v = mcp.ok("debug_restart", json!({})).await;
    assert_eq!(stopped_line(&v), Some(6), "{v}");
    assert!(
        v.contains(
            "Warning: the binary is older than loop.cpp: rebuild it, or a restart runs the old code."
        ),
        "{v}"
    );
    let step = mcp.ok("debug_step", json!({})).await;
    assert!(step.contains(WARNING), "every stop: {step}");
    let status = mcp.ok("debug_status", json!({"format": "json"})).await;
    assert!(status.contains("\"stale_source\":\"loop.cpp\""), "{status}");

    build_cpp(&src, &bin);
    std::fs::File::options()
        .write(true)
        .open(&bin)
        .and_then(|f| f.set_modified(SystemTime::now() + Duration::from_secs(120)))
        .expect("touch the binary");
    let v = mcp.ok("debug_restart", json!({})).await;
    assert!(!v.contains(WARNING), "rebuilt: {v}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rust_binary_older_than_its_source_is_told() {
    if !gdb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_rust_source(ws.path(), RUST);
    edit(&ws.path().join("src/main.rs"));
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "values", "breakpoints": [{"file": "src/main.rs", "line": 4}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(4), "{v}");
    assert!(
        v.contains(
            "Warning: the binary is older than src/main.rs: rebuild it, or a restart runs the old code."
        ),
        "{v}"
    );
    mcp.close().await;
}

/// The person sees it in the status bar, beside the stop, and `R` after a
/// rebuild clears it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_bar_says_the_binary_is_older_than_its_source() {
    if !lldb_available() || !common::tmux::Tmux::available() {
        return;
    }
    let ws = workspace(&[("loop.cpp", CPP)]);
    let (src, bin) = (ws.path().join("loop.cpp"), ws.path().join("loop"));
    build_cpp(&src, &bin);
    edit(&src);
    let t = common::tmux::Tmux::start("stale", ws.path(), &["--break", "loop.cpp:6", "--", "loop"]);
    t.wait_for("the stop, told the binary is old", |s| {
        s.contains("stopped: breakpoint")
            && s.contains("the binary is older than loop.cpp: rebuild, or R runs old code")
    })
    .await;
    build_cpp(&src, &bin);
    std::fs::File::options()
        .write(true)
        .open(&bin)
        .and_then(|f| f.set_modified(SystemTime::now() + Duration::from_secs(120)))
        .expect("touch the binary");
    t.keys(&["R"]);
    t.wait_for("the restarted stop, no longer told", |s| {
        s.contains("stopped: breakpoint") && !s.contains("the binary is older")
    })
    .await;
}
