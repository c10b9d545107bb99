//! Post-mortem debugging of Python: a dump coredumpy wrote when a program
//! raised opens at the raising frame with its locals and the exception,
//! and a CPython interpreter's core (a segfault under Python) opens at the
//! program's frame through pystack; both read like a live stop and run
//! nothing.

mod common;

use common::cores::{CRASH_PY, SEGV_PY, python_core_of_segv, python_dump_of_crash};
use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_dump_opens_at_the_raise_with_its_locals_and_runs_nothing() {
    if !python_package_available("coredumpy") {
        return;
    }
    let ws = workspace(&[("crash.py", CRASH_PY)]);
    let dump = python_dump_of_crash(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok("debug_launch", json!({"core": dump, "timeout_ms": 60000}))
        .await;
    println!("{v}");
    assert_eq!(stopped_function(&v).as_deref(), Some("settle"), "{v}");
    assert_eq!(stopped_line(&v), Some(12), "{v}");
    assert!(v.contains("ZeroDivisionError"), "{v}");
    assert!(v.contains("float division by zero"), "{v}");
    assert_eq!(local(&v, "budget").as_deref(), Some("20"), "{v}");
    assert_eq!(local(&v, "spent").as_deref(), Some("20.0"), "{v}");
    assert_eq!(local(&v, "label").as_deref(), Some("\"week 48\""), "{v}");
    let orders = local(&v, "orders").unwrap_or_default();
    assert!(orders.contains("Order") && orders.contains("9.5"), "{v}");
    // coredumpy's own runner is not the program's code.
    assert!(v.contains("<module>"), "the caller is listed: {v}");
    assert!(!v.contains("runpy") && !v.contains("coredumpy.py"), "{v}");

    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "orders[1].total * 2"}),
        )
        .await;
    assert!(e.starts_with("orders[1].total * 2 = 21.0"), "{e}");
    // The dump's values only: nothing of the machine reading it.
    let e = mcp
        .fails(
            "debug_evaluate",
            json!({"expression": "__import__('os').getcwd()", "allow_side_effects": true}),
        )
        .await;
    assert!(e.contains("__import__"), "{e}");

    for (tool, args) in [
        ("debug_step", json!({"kind": "over"})),
        ("debug_continue", json!({})),
        ("debug_set_variable", json!({"name": "spent", "value": "1"})),
    ] {
        let e = mcp.fails(tool, args).await;
        assert!(
            e.contains("this is a core file: nothing runs"),
            "{tool}: {e}"
        );
    }
    let v = mcp.ok("debug_status", json!({})).await;
    assert_eq!(stopped_line(&v), Some(12), "{v}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_that_is_no_dump_still_needs_its_program() {
    let ws = workspace(&[("not-a-dump.json", "{\"other\": 1}\n")]);
    let mcp = mcp_in(ws.path()).await;
    let e = mcp
        .fails("debug_launch", json!({"core": "not-a-dump.json"}))
        .await;
    assert!(e.contains("the program that wrote it"), "{e}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cpython_core_opens_at_the_programs_frame_with_its_locals() {
    if !python_package_available("pystack") {
        return;
    }
    let ws = workspace(&[("segv.py", SEGV_PY)]);
    let core = python_core_of_segv(ws.path());
    let mcp = mcp_in(ws.path()).await;
    // The core names its interpreter: no program is needed.
    let v = mcp
        .ok("debug_launch", json!({"core": core, "timeout_ms": 60000}))
        .await;
    println!("{v}");
    // ctypes' own frame, where the signal came, is the standard library's.
    assert_eq!(stopped_function(&v).as_deref(), Some("read"), "{v}");
    assert_eq!(stopped_line(&v), Some(7), "{v}");
    assert!(v.contains("Reason: crashed"), "{v}");
    assert!(v.contains("SIGSEGV"), "{v}");
    assert_eq!(local(&v, "count").as_deref(), Some("2"), "{v}");
    assert_eq!(local(&v, "where").as_deref(), Some("0"), "{v}");
    assert_eq!(local(&v, "label").as_deref(), Some("\"week 48\""), "{v}");
    assert!(v.contains("<module>"), "the caller is listed: {v}");

    let e = mcp
        .ok("debug_evaluate", json!({"expression": "count"}))
        .await;
    assert!(e.starts_with("count = 2"), "{e}");
    let e = mcp
        .fails("debug_evaluate", json!({"expression": "count + 1"}))
        .await;
    assert!(e.contains("no interpreter to evaluate in"), "{e}");
    let e = mcp.fails("debug_step", json!({"kind": "over"})).await;
    assert!(e.contains("this is a core file: nothing runs"), "{e}");
    mcp.close().await;
}

#[test]
fn pairdbg_run_prints_a_python_dumps_stop_with_no_program() {
    if !python_package_available("coredumpy") {
        return;
    }
    let ws = workspace(&[("crash.py", CRASH_PY)]);
    let dump = python_dump_of_crash(ws.path());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(["run", "--core", &dump])
        .current_dir(ws.path())
        .output()
        .expect("run pairdbg");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("── STOPPED at crash.py:12 (settle)"),
        "{text}"
    );
    assert!(
        text.contains("ZeroDivisionError: float division by zero"),
        "{text}"
    );
}

/// `--keep-core` on a Python program: it runs under coredumpy, the end says
/// where the dump went, and the dump opens at the raise with the program's
/// own frames only (not the debugger's launcher that ran coredumpy).
#[test]
fn run_keep_core_on_python_leaves_a_dump_that_opens_at_the_raise() {
    if !python_package_available("coredumpy") || !debugpy_available() {
        return;
    }
    let ws = workspace(&[("crash.py", CRASH_PY)]);
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
            .args(args)
            .current_dir(ws.path())
            .output()
            .expect("run pairdbg");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{text}{err}");
        text
    };
    let text = run(&["run", "--keep-core", "--", "crash.py"]);
    assert!(
        text.contains("── STOPPED at crash.py:12 (settle)"),
        "{text}"
    );
    let dump = ws.path().join("crash.dump");
    let went = format!(
        "Its crash dump went to {}: open it with `pairdbg run --core {}`.",
        dump.display(),
        dump.display()
    );
    assert!(text.contains(&went), "{text}");
    assert!(dump.is_file(), "{text}");

    let text = run(&["run", "--core", "crash.dump"]);
    assert!(
        text.contains("── STOPPED at crash.py:12 (settle)"),
        "{text}"
    );
    assert!(text.contains("settle(orders="), "{text}");
    assert!(text.contains("crash.py:16  <module>"), "{text}");
    for launcher in ["debugpy", "pydevd", "coredumpy", "<string>"] {
        assert!(!text.contains(launcher), "{launcher} in:\n{text}");
    }
}
