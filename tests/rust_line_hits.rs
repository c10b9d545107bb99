//! A Rust line that compiles to several code locations (the `?` operator's
//! early return, a closure on the line) is one hit per execution on both
//! native adapters, and a step over it does not stop on it twice.

mod common;

use std::path::Path;

use common::native::*;
use common::*;
use serde_json::json;

const PARSE: &str = r#"fn parse(s: &str) -> Result<i32, std::num::ParseIntError> {
    s.trim().parse::<i32>()
}

fn run(inputs: &[&str]) -> Result<i32, std::num::ParseIntError> {
    let mut total = 0;
    for s in inputs {
        let x = parse(s)?;
        let y = parse(s).map(|v| v * 2)?;
        total += x + y;
    }
    Ok(total)
}

fn main() {
    println!("{:?}", run(&["1", "2", "3"]));
    println!("{:?}", run(&["4", "x"]));
}
"#;

fn build(ws: &Path) {
    std::fs::write(ws.join("main.rs"), PARSE).expect("write main.rs");
    let out = std::process::Command::new("rustc")
        .args(["-g", "--edition", "2021", "-o", "parse", "main.rs"])
        .current_dir(ws)
        .output()
        .expect("run rustc");
    assert!(
        out.status.success(),
        "rustc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn reason(v: &str) -> String {
    v.lines()
        .find_map(|l| l.strip_prefix("Reason: "))
        .unwrap_or_default()
        .to_string()
}

/// Every stop of a run with a breakpoint on `line`: function, line, reason.
async fn stops(adapter: &str, line: u64) -> Vec<String> {
    let ws = workspace(&[]);
    build(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let mut v = mcp
        .ok(
            "debug_launch",
            json!({"program": "parse", "adapter": adapter,
                   "breakpoints": [{"file": "main.rs", "line": line}]}),
        )
        .await;
    let mut seen = vec![];
    while v.contains("── STOPPED") {
        seen.push(format!(
            "{}:{} {}",
            stopped_function(&v).unwrap_or_default(),
            stopped_line(&v).unwrap_or_default(),
            reason(&v)
        ));
        v = mcp.ok("debug_continue", json!({})).await;
    }
    mcp.close().await;
    seen
}

/// Steps over line 8 on each of its executions: the line lands on where it
/// went next.
async fn steps(adapter: &str) -> Vec<String> {
    let ws = workspace(&[]);
    build(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let mut v = mcp
        .ok(
            "debug_launch",
            json!({"program": "parse", "adapter": adapter,
                   "breakpoints": [{"file": "main.rs", "line": 8}]}),
        )
        .await;
    let mut seen = vec![];
    while v.contains("── STOPPED") {
        seen.push(format!(
            "{} {}",
            stopped_line(&v).unwrap_or_default(),
            reason(&v)
        ));
        v = mcp.ok("debug_step", json!({"kind": "over"})).await;
        seen.push(format!(
            "{} {}",
            stopped_line(&v).unwrap_or_default(),
            reason(&v)
        ));
        v = mcp.ok("debug_continue", json!({})).await;
    }
    mcp.close().await;
    seen
}

/// `run(["1", "2", "3"])` then `run(["4", "x"])`: line 8 runs five times,
/// the last returning early through the `?`; line 9 four times, each
/// calling its closure once.
async fn one_hit_per_execution(adapter: &str) {
    let line_8: Vec<String> = (1..=5)
        .map(|n| format!("main::run:8 breakpoint #1, hit {n}"))
        .collect();
    // lldb-dap also stops at the early return's own location, further on
    // in the same frame: the same execution, so the same hit.
    let mut seen = stops(adapter, 8).await;
    let all = seen.clone();
    seen.dedup();
    assert_eq!(seen, line_8, "{adapter}: {all:#?}");
    assert!(all.len() <= 6, "{adapter}: {all:#?}");

    let line_9 = stops(adapter, 9).await;
    assert_eq!(line_9.len(), 8, "{adapter}: {line_9:#?}");
    for (i, pair) in line_9.chunks(2).enumerate() {
        let n = i + 1;
        assert_eq!(
            pair[0],
            format!("main::run:9 breakpoint #1, hit {n}"),
            "{adapter}"
        );
        // The closure's own frame, named as the adapter names it.
        assert!(
            pair[1].starts_with("main::run::")
                && pair[1].ends_with(&format!(":9 breakpoint #1, hit {n}")),
            "{adapter}: {line_9:#?}"
        );
    }

    // A step over the line goes past it, the early return too.
    let mut want = vec![];
    for n in 1..=4 {
        want.push(format!("8 breakpoint #1, hit {n}"));
        want.push("9 step".to_string());
    }
    want.push("8 breakpoint #1, hit 5".into());
    want.push("13 step".into());
    assert_eq!(steps(adapter).await, want, "{adapter}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_split_rust_line_is_one_hit_per_execution_on_gdb() {
    if !gdb_available() {
        return;
    }
    one_hit_per_execution("gdb").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_split_rust_line_is_one_hit_per_execution_on_lldb_dap() {
    if !lldb_available() {
        return;
    }
    one_hit_per_execution("lldb-dap").await;
}
