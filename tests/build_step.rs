//! The build step, end to end through a real MCP client: `debug_launch
//! {build}` builds before the launch and before every restart, so an edit
//! to the source is what the restarted program runs; a build that fails
//! starts nothing and names its first error's file and line.

mod common;

use common::native::*;
use common::*;
use serde_json::json;

const RUST: &str = "fn main() {\n    let value = 41;\n    println!(\"value={value}\");\n}\n";
const CPP: &str = "#include <cstdio>\nint main() {\n    int value = 41;\n    std::printf(\"value=%d\\n\", value);\n    return 0;\n}\n";

/// Launches with `build`, stops at `line`, edits 41 to 42, restarts: the
/// new code runs; then a syntax error refuses the restart.
async fn rebuilds_on_restart(language: &str, file: &str, source: &str, build: &str, line: u64) {
    let ws = workspace(&[]);
    std::fs::create_dir_all(ws.path().join("src")).unwrap();
    let src = ws.path().join(file);
    std::fs::write(&src, source).unwrap();
    let mcp = mcp_in(ws.path()).await;

    // The program is not there yet: the build makes it.
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog", "language": language, "build": build,
                   "breakpoints": [{"file": file, "line": line}], "timeout_ms": 120000}),
        )
        .await;
    eprintln!("{v}");
    assert_eq!(stopped_line(&v), Some(line), "{v}");
    assert_eq!(local(&v, "value").as_deref(), Some("41"), "{v}");
    let built = mcp.ok("debug_output", json!({"stream": "build"})).await;
    assert!(built.contains(&format!("▶ building: {build}")), "{built}");
    assert!(built.contains("✓ built in"), "{built}");
    // The program's own output holds none of the build's lines.
    let own = mcp.ok("debug_output", json!({})).await;
    assert!(!own.contains("building"), "{own}");

    std::fs::write(&src, source.replace("41", "42")).unwrap();
    let v = mcp
        .ok("debug_restart", json!({"timeout_ms": 120000}))
        .await;
    eprintln!("{v}");
    assert_eq!(stopped_line(&v), Some(line), "{v}");
    assert_eq!(local(&v, "value").as_deref(), Some("42"), "{v}");
    mcp.ok("debug_continue", json!({})).await;
    let out = mcp.output_containing("value=42").await;
    assert!(out.contains("value=42"), "{out}");

    // A syntax error: the restart starts nothing and says where it broke.
    std::fs::write(&src, source.replace("41;", "41 +;")).unwrap();
    let (v, _) = mcp
        .call("debug_restart", json!({"timeout_ms": 120000}))
        .await;
    eprintln!("{v}");
    assert!(v.contains("the build failed"), "{v}");
    // The error is on the line before the breakpoint's.
    assert!(v.contains(&format!("{file}:{}", line - 1)), "{v}");
    assert_eq!(stopped_line(&v), None, "the old binary ran: {v}");
    let out = mcp.ok("debug_output", json!({})).await;
    assert!(!out.contains("value=42"), "the old binary ran: {out}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rust_program_is_rebuilt_before_each_restart() {
    if !gdb_available() {
        return;
    }
    rebuilds_on_restart(
        "rust",
        "src/main.rs",
        RUST,
        "rustc -g --edition 2021 -o prog src/main.rs",
        3,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cpp_program_is_rebuilt_before_each_restart() {
    if !lldb_available() {
        return;
    }
    rebuilds_on_restart("c++", "main.cpp", CPP, "c++ -g -O0 -o prog main.cpp", 4)
        .await;
}
