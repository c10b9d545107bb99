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
    let v = mcp.ok("debug_restart", json!({"timeout_ms": 120000})).await;
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
    rebuilds_on_restart("c++", "main.cpp", CPP, "c++ -g -O0 -o prog main.cpp", 4).await;
}

/// A launch whose build fails starts nothing, though an old binary is there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_build_refuses_the_launch_and_the_old_binary_stays_unrun() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[("main.cpp", CPP)]);
    build_cpp(&ws.path().join("main.cpp"), &ws.path().join("prog"));
    std::fs::write(ws.path().join("main.cpp"), CPP.replace("41;", "41 +;")).unwrap();
    let mcp = mcp_in(ws.path()).await;
    let (v, _) = mcp
        .call(
            "debug_launch",
            json!({"program": "prog", "build": "c++ -g -O0 -o prog main.cpp",
                   "breakpoints": [{"file": "main.cpp", "line": 4}], "timeout_ms": 120000}),
        )
        .await;
    eprintln!("{v}");
    assert!(v.contains("the build failed"), "{v}");
    assert!(v.contains("main.cpp:3: expected primary-expression"), "{v}");
    assert_eq!(stopped_line(&v), None, "the old binary ran: {v}");
    let built = mcp.ok("debug_output", json!({"stream": "build"})).await;
    assert!(built.contains("main.cpp:3:"), "{built}");
    assert!(built.contains("✗ build failed"), "{built}");
    mcp.close().await;
}

/// A build under way ends with its session, and at its deadline: nothing
/// it started lives on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_under_way_is_killed_with_its_session_and_at_its_deadline() {
    let ws = workspace(&[("main.py", "print(1)\n")]);
    let mcp = mcp_in(ws.path()).await;
    let launch = |secs: u64| {
        json!({"program": "main.py", "language": "python",
               "build": format!("sh -c 'sleep {secs}; echo done' & wait"),
               "timeout_ms": 60000})
    };
    let sleeping = |secs: u64| {
        let needle = format!("sleep {secs}");
        async move {
            poll(
                || pids_matching(&needle),
                |p| !p.is_empty(),
                std::time::Duration::from_secs(10),
            )
            .await
        }
    };
    // The launch waits for the build; the session's end comes meanwhile.
    let (_, running) = tokio::join!(mcp.call("debug_launch", launch(987)), async {
        let running = sleeping(987).await;
        // The session is listed once its start returns, a moment after
        // the build begins.
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let (said, failed) = mcp.call("debug_terminate", json!({})).await;
            if !failed || tokio::time::Instant::now() > deadline {
                assert!(!failed, "{said}");
                break;
            }
            tokio::task::yield_now().await;
        }
        running
    });
    assert!(!running.is_empty(), "the build ran");
    assert!(
        wait_dead(&running, std::time::Duration::from_secs(10))
            .await
            .is_empty(),
        "the build's processes outlived the session"
    );

    // The caller's timeout_ms is the build's deadline.
    let mut short = launch(986);
    short["timeout_ms"] = json!(1500);
    let (v, _) = mcp.call("debug_launch", short).await;
    let v = if v.contains("the build failed") {
        v
    } else {
        mcp.call("debug_wait", json!({"timeout_ms": 10000})).await.0
    };
    assert!(v.contains("deadline"), "{v}");
    let left = pids_matching("sleep 986");
    assert!(
        wait_dead(&left, std::time::Duration::from_secs(10))
            .await
            .is_empty(),
        "the build outlived its deadline"
    );
    mcp.close().await;
}

/// A build command past the limit is refused, naming the field and the limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_build_command_past_the_limit_is_refused() {
    let ws = workspace(&[("main.py", "print(1)\n")]);
    let mcp = mcp_in(ws.path()).await;
    let long = format!("echo {}", "x".repeat(5000));
    let e = mcp
        .fails("debug_launch", json!({"program": "main.py", "build": long}))
        .await;
    assert!(e.contains("build") && e.contains("4096"), "{e}");
    let e = mcp
        .fails("debug_launch", json!({"program": "main.py", "build": "  "}))
        .await;
    assert!(e.contains("build") && e.contains("empty"), "{e}");
    mcp.close().await;
}

/// `pairdbg run --build` builds first: here the build writes the program.
#[test]
fn pairdbg_run_builds_before_it_launches() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[]);
    let run = |build: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
            .args([
                "run",
                "--build",
                build,
                "--language",
                "python",
                "--stop-on-entry",
            ])
            .args(["--", "made.py"])
            .current_dir(ws.path())
            .output()
            .expect("pairdbg run")
    };
    let out = run(r#"printf 'x = 40 + 2\nprint(x)\n' > made.py"#);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("STOPPED at made.py:1"), "{text}");
    assert!(text.contains("x = 40 + 2"), "{text}");
    let out = run("exit 3");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("the build failed (exit 3 exited with status 3)"),
        "{text}"
    );
    assert!(!text.contains("STOPPED"), "{text}");
}
