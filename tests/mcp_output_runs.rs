//! `debug_output` after a restart reads the current run; the earlier runs
//! stay reachable and are headed as earlier when shown.

mod common;

use common::*;
use serde_json::json;

/// Each run says which it is, counting its runs in a file beside it.
const PROG: &str = "\
import pathlib
p = pathlib.Path('runs.txt')
n = int(p.read_text()) + 1 if p.exists() else 1
p.write_text(str(n))
print(f'run {n} says hi')
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn output_after_a_restart_is_the_new_runs_and_the_old_one_is_kept() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok("debug_launch", json!({"program": "prog.py"})).await;
    let first = mcp.output_containing("run 1 says hi").await;
    assert!(first.contains("run 1 says hi"), "{first}");
    assert!(
        !first.contains("── run"),
        "one run needs no heading: {first}"
    );

    mcp.ok("debug_restart", json!({})).await;
    let out = mcp.output_containing("run 2 says hi").await;
    assert!(out.contains("run 2 says hi"), "{out}");
    assert!(!out.contains("run 1 says hi"), "{out}");
    assert!(
        out.contains("earlier runs: run 1 to 1 or all: true"),
        "{out}"
    );

    let old = mcp.ok("debug_output", json!({"run": 1})).await;
    assert!(
        old.contains("── run 1 of 2 (an earlier run) ──\nrun 1 says hi"),
        "{old}"
    );
    assert!(!old.contains("run 2 says hi"), "{old}");

    let all = mcp.ok("debug_output", json!({"all": true})).await;
    let one = all.find("run 1 says hi");
    let head = all.find("── run 2 of 2 (this run) ──");
    let two = all.find("run 2 says hi");
    assert!(one < head && head < two && one.is_some(), "{all}");

    let bad = mcp.fails("debug_output", json!({"run": 3})).await;
    assert!(bad.contains("run") && bad.contains("use 1 to 2"), "{bad}");
    mcp.close().await;
}
