//! Sessions end promptly and wholly, and a program or adapter that dies
//! under a stopped session reads as what happened: a Node session ends
//! in well under js-debug's old 2 s; a Rust program killed while stopped
//! under gdb reads as killed; js-debug killed while stopped refuses the
//! next step with the adapter's end. Real adapters through the real binary.

mod common;

use std::time::{Duration, Instant};

use common::faults::*;
use common::native;
use common::*;
use serde_json::json;

const JS_LOOP: &str = "\
const cell = new Int32Array(new SharedArrayBuffer(4));
let count = 0;
for (;;) {
  count += 1;
  Atomics.wait(cell, 0, 0, 5);
}
";

/// `debug_terminate` of a Node session stopped at a breakpoint answers
/// well under a second, and neither the program nor js-debug is left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_session_ends_within_a_second() {
    let Some((ws, mcp)) = js_mcp(&[("loop.js", JS_LOOP)]).await else {
        return;
    };
    let mut took = vec![];
    for _ in 0..3 {
        let v = mcp
            .ok(
                "debug_launch",
                json!({"program": "loop.js", "breakpoints": [{"file": "loop.js", "line": 4}]}),
            )
            .await;
        assert_eq!(stopped_line(&v), Some(4), "{v}");
        let tree = descendants(mcp.pid);
        assert!(
            adapter_among(&tree, "DebugServer.js").is_some(),
            "js-debug runs"
        );
        assert!(
            !node_running(ws.path(), "loop.js").is_empty(),
            "the program runs"
        );
        let started = Instant::now();
        let end = mcp.ok("debug_terminate", json!({})).await;
        took.push(started.elapsed());
        assert!(says_ended(&end), "{end}");
        let left = wait_dead(&tree, Duration::from_secs(10)).await;
        let named: Vec<String> = left.iter().map(|p| cmdline(*p)).collect();
        assert!(left.is_empty(), "left running: {named:?}");
    }
    eprintln!("debug_terminate of a stopped Node session took {took:?}");
    for t in &took {
        assert!(*t < Duration::from_secs(1), "the end took {t:?}");
    }
    mcp.close().await;
}

/// The end of a stopped Node session, before and after: an older pairdbg
/// (`PAIRDBG_BEFORE`, with js-debug as its installer left it) and this one,
/// in turn. `PAIRDBG_BEFORE=<old pairdbg> cargo test --test session_ends --
/// --ignored --nocapture node_end_before_and_after`
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: needs PAIRDBG_BEFORE"]
async fn node_end_before_and_after() {
    let Some(before) = std::env::var_os("PAIRDBG_BEFORE").map(std::path::PathBuf::from) else {
        panic!("set PAIRDBG_BEFORE to an older pairdbg binary");
    };
    let Some(after_data) = js_debug_available() else {
        return;
    };
    // The older build's data: the same install without the script.
    let before_data = tempfile::tempdir().expect("tempdir");
    let copied = std::process::Command::new("cp")
        .arg("-r")
        .arg(after_data.join("pairdbg"))
        .arg(before_data.path())
        .status()
        .expect("cp");
    assert!(copied.success());
    for dir in std::fs::read_dir(before_data.path().join("pairdbg/adapters")).expect("adapters") {
        let _ = std::fs::remove_dir_all(dir.expect("entry").path().join("targets"));
    }
    let ws = workspace(&[("loop.js", JS_LOOP)]);
    let sides = [
        ("before", before.clone(), before_data.path().to_path_buf()),
        (
            "after",
            std::path::PathBuf::from(env!("CARGO_BIN_EXE_pairdbg")),
            after_data,
        ),
    ];
    let mut took: Vec<Vec<Duration>> = vec![vec![], vec![]];
    for _round in 0..5 {
        for (i, (_, bin, data)) in sides.iter().enumerate() {
            let mcp = mcp_of(bin, ws.path(), &[], &[("XDG_DATA_HOME", data)]).await;
            let v = mcp
                .ok(
                    "debug_launch",
                    json!({"program": "loop.js", "breakpoints": [{"file": "loop.js", "line": 4}]}),
                )
                .await;
            assert_eq!(stopped_line(&v), Some(4), "{v}");
            let tree = descendants(mcp.pid);
            let started = Instant::now();
            mcp.ok("debug_terminate", json!({})).await;
            took[i].push(started.elapsed());
            assert!(wait_dead(&tree, Duration::from_secs(10)).await.is_empty());
            mcp.close().await;
        }
    }
    for (i, (name, _, _)) in sides.iter().enumerate() {
        let mut t = took[i].clone();
        t.sort();
        eprintln!("{name}: median {:?}, all {:?}", t[t.len() / 2], took[i]);
    }
}

/// A Rust program stopped under gdb and SIGKILLed from outside: gdb answers
/// the next step and says nothing more, yet the step reads the program as
/// killed, not as running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rust_program_killed_while_stopped_under_gdb_reads_as_killed() {
    if !native::gdb_available() {
        return;
    }
    let ws = workspace(&[]);
    native::build_rust_source(ws.path(), native::RUST_LOOP);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "values", "adapter": "gdb",
                   "breakpoints": [{"file": "src/main.rs", "line": 4}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(4), "{v}");
    let tree = descendants(mcp.pid);
    let program = ws.path().join("values").display().to_string();
    let debuggee = debuggee_among(&tree, &program, "-i dap").unwrap_or_else(|| {
        panic!(
            "the program among {:?}",
            tree.iter().map(|p| cmdline(*p)).collect::<Vec<_>>()
        )
    });
    signal(debuggee, libc::SIGKILL);
    // The step goes at once: the kill may land as gdb takes it.
    let (v, _) = mcp.call("debug_step", json!({"timeout_ms": 10000})).await;
    assert!(
        v.contains("killed by SIGKILL"),
        "the step should read the kill: {v}"
    );
    let s = mcp.ok("debug_status", json!({"format": "json"})).await;
    assert!(s.contains(r#""killed_by":"SIGKILL""#), "{s}");
    mcp.ok("debug_terminate", json!({})).await;
    let left = wait_dead(&tree, Duration::from_secs(15)).await;
    assert!(
        left.is_empty(),
        "left running: {:?}",
        left.iter().map(|p| cmdline(*p)).collect::<Vec<_>>()
    );
    mcp.close().await;
}

/// js-debug killed (its whole process group) while the program is stopped:
/// once the program's connection is seen closed, the step answers with the
/// adapter's end, never that the program is running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_after_js_debug_was_killed_says_the_adapter_exited() {
    let Some((_ws, mcp)) = js_mcp(&[("loop.js", JS_LOOP)]).await else {
        return;
    };
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "loop.js", "breakpoints": [{"file": "loop.js", "line": 4}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(4), "{v}");
    let tree = descendants(mcp.pid);
    let adapter = adapter_among(&tree, "DebugServer.js").expect("js-debug among the descendants");
    // SAFETY: signalling the process group of the adapter this test's server started.
    let pgid = unsafe { libc::getpgid(adapter as i32) };
    assert!(pgid > 0, "the adapter's process group");
    signal_group(pgid as u32, libc::SIGKILL);
    let out = mcp.output_containing("closed its connection").await;
    assert!(
        out.contains("closed its connection"),
        "the child's end: {out}"
    );
    let (v, is_error) = mcp.call("debug_step", json!({})).await;
    assert!(is_error, "the step cannot be made: {v}");
    assert!(!v.contains("is running"), "{v}");
    assert!(v.contains("the debug adapter exited"), "{v}");
    let left = wait_dead(&tree, Duration::from_secs(15)).await;
    assert!(
        left.is_empty(),
        "left running: {:?}",
        left.iter().map(|p| cmdline(*p)).collect::<Vec<_>>()
    );
    mcp.close().await;
}
