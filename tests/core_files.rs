//! Post-mortem debugging: a core file a crashed program left opens at the
//! crashing frame of the program's own code, with its locals, on lldb-dap,
//! gdb and delve; any move that would run code is refused at once.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::cores::crash_with_core;
use common::native::{build_c, gdb_available, lldb_available};
use common::*;
use serde_json::json;

const CRASH_C: &str = "\
#include <stdio.h>
struct point { int x; int y; };
static int read_x(struct point *p) {
    int depth = 7;
    return p->x + depth;
}
int main(void) {
    int count = 3;
    struct point *nowhere = NULL;
    printf(\"about to crash %d\\n\", count);
    return read_x(nowhere) + count;
}
";

const CRASH_GO: &str = "\
package main

import \"fmt\"

type point struct{ x, y int }

func readX(p *point) int {
	depth := 7
	return p.x + depth
}

func main() {
	count := 3
	var nowhere *point
	fmt.Println(\"about to crash\", count)
	fmt.Println(readX(nowhere) + count)
}
";

const PANIC_RS: &str = "\
struct Order {
    id: u32,
    qty: i64,
}

fn check(o: &Order) -> i64 {
    let limit = 10;
    if o.qty > limit {
        panic!(\"order {} has {} items\", o.id, o.qty);
    }
    o.qty
}

fn main() {
    let orders = vec![Order { id: 1, qty: 3 }, Order { id: 2, qty: 42 }];
    let mut total = 0;
    for o in &orders {
        total += check(o);
    }
    println!(\"{total}\");
}
";

const REFUSED: &str = "this is a core file: nothing runs";

/// The C program built and crashed in a fresh workspace: (workspace, core).
fn c_core() -> (tempfile::TempDir, std::path::PathBuf) {
    let ws = workspace(&[("crash.c", CRASH_C)]);
    let bin = ws.path().join("crash");
    build_c(&ws.path().join("crash.c"), &bin);
    let core = crash_with_core(ws.path(), &bin, &[]);
    (ws, core)
}

fn relative(ws: &Path, p: &Path) -> String {
    p.strip_prefix(ws).unwrap_or(p).display().to_string()
}

/// Opens the C core on `adapter` and checks the crash, the reads that
/// work, and the moves refused before the adapter hears of them.
async fn c_core_opens_at_the_crash(adapter: &str) {
    let (ws, core) = c_core();
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "crash", "core": relative(ws.path(), &core),
                   "adapter": adapter, "timeout_ms": 60000}),
        )
        .await;
    assert_eq!(stopped_function(&v).as_deref(), Some("read_x"), "{v}");
    assert_eq!(stopped_line(&v), Some(5), "{v}");
    assert!(v.contains("Reason: crashed"), "{v}");
    assert!(v.contains("Exception: SIGSEGV"), "{v}");
    assert_eq!(local(&v, "depth").as_deref(), Some("7"), "{v}");
    let p = local(&v, "p").unwrap_or_default();
    assert!(p == "NULL" || p == "0x0", "p reads as a null pointer: {v}");
    assert!(v.contains("main()"), "the caller is listed: {v}");

    let e = mcp
        .ok("debug_evaluate", json!({"expression": "depth * 2"}))
        .await;
    assert!(e.starts_with("depth * 2 = 14"), "{e}");

    for (tool, args) in [
        ("debug_step", json!({"kind": "over", "timeout_ms": 60000})),
        ("debug_continue", json!({"timeout_ms": 60000})),
        ("debug_restart", json!({"timeout_ms": 60000})),
        ("debug_set_variable", json!({"name": "depth", "value": "8"})),
    ] {
        let asked = Instant::now();
        let e = mcp.fails(tool, args).await;
        assert!(e.contains(REFUSED), "{tool}: {e}");
        // Refused by pairdbg itself: no adapter's answer was waited for.
        assert!(
            asked.elapsed() < Duration::from_secs(10),
            "{tool} took {:?}",
            asked.elapsed()
        );
    }
    // Still at the crash, still readable.
    let v = mcp.ok("debug_status", json!({})).await;
    assert_eq!(stopped_line(&v), Some(5), "{v}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_c_core_opens_at_the_crash_on_lldb_dap() {
    if !lldb_available() {
        return;
    }
    c_core_opens_at_the_crash("lldb-dap").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_c_core_opens_at_the_crash_on_gdb() {
    if !gdb_available() {
        return;
    }
    c_core_opens_at_the_crash("gdb").await;
}

/// A Rust program built to abort on a panic, crashed into a core file, opens
/// at the panicking line of the user's function, not in the panic runtime
/// or libc's `abort`.
async fn rust_core_opens_at_the_panic(adapter: &str) {
    let ws = workspace(&[]);
    std::fs::create_dir_all(ws.path().join("src")).expect("mkdir src");
    std::fs::write(ws.path().join("src/main.rs"), PANIC_RS).expect("write main.rs");
    let built = std::process::Command::new("rustc")
        .args([
            "-g",
            "--edition",
            "2021",
            "-C",
            "panic=abort",
            "-o",
            "crash",
        ])
        .arg("src/main.rs")
        .current_dir(ws.path())
        .status()
        .expect("run rustc");
    assert!(built.success(), "rustc failed");
    let core = crash_with_core(ws.path(), &ws.path().join("crash"), &[]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "crash", "core": relative(ws.path(), &core),
                   "adapter": adapter, "timeout_ms": 60000}),
        )
        .await;
    let function = stopped_function(&v).unwrap_or_default();
    assert!(function.ends_with("check"), "{v}");
    assert_eq!(stopped_line(&v), Some(9), "{v}");
    assert!(v.contains("Reason: crashed"), "{v}");
    assert!(v.contains("Exception: SIGABRT"), "{v}");
    assert_eq!(local(&v, "limit").as_deref(), Some("10"), "{v}");
    let o = local(&v, "o").unwrap_or_default();
    assert!(o.contains("42"), "o is the order that panicked: {v}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "o.qty"}))
        .await;
    assert!(e.starts_with("o.qty = 42"), "{e}");
    let e = mcp
        .fails("debug_step", json!({"kind": "over", "timeout_ms": 60000}))
        .await;
    assert!(e.contains(REFUSED), "{e}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rust_core_opens_at_the_panic_on_gdb() {
    if !gdb_available() {
        return;
    }
    rust_core_opens_at_the_panic("gdb").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rust_core_opens_at_the_panic_on_lldb_dap() {
    if !lldb_available() {
        return;
    }
    rust_core_opens_at_the_panic("lldb-dap").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_core_opens_at_the_users_frame_under_the_runtime() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("main.go", CRASH_GO),
        ("go.mod", "module crash\n\ngo 1.21\n"),
    ]);
    let built = std::process::Command::new("go")
        .args(["build", "-gcflags=all=-N -l", "-o", "crash", "."])
        .current_dir(ws.path())
        .status()
        .expect("run go build");
    assert!(built.success(), "go build failed");
    // The runtime dumps core on a crash only when told to.
    let core = crash_with_core(
        ws.path(),
        &ws.path().join("crash"),
        &[("GOTRACEBACK", "crash")],
    );
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "crash", "core": relative(ws.path(), &core), "timeout_ms": 60000}),
        )
        .await;
    assert_eq!(stopped_function(&v).as_deref(), Some("main.readX"), "{v}");
    assert_eq!(stopped_line(&v), Some(9), "{v}");
    assert!(v.contains("Reason: crashed"), "{v}");
    assert_eq!(local(&v, "depth").as_deref(), Some("7"), "{v}");
    assert_eq!(local(&v, "p").as_deref(), Some("nil"), "{v}");
    let e = mcp
        .fails("debug_step", json!({"kind": "into", "timeout_ms": 60000}))
        .await;
    assert!(e.contains(REFUSED), "{e}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_core_needs_its_program_and_an_adapter_that_reads_cores() {
    let ws = workspace(&[("app.py", "print(1)\n"), ("core", "not a core\n")]);
    let mcp = mcp_in(ws.path()).await;
    let e = mcp.fails("debug_launch", json!({"core": "core"})).await;
    assert!(
        e.contains("program") && e.contains("the program that wrote it"),
        "{e}"
    );
    let e = mcp
        .fails(
            "debug_launch",
            json!({"core": "core.404", "program": "app.py"}),
        )
        .await;
    assert!(e.contains("core") && e.contains("core.404"), "{e}");
    let e = mcp
        .fails("debug_launch", json!({"core": "core", "program": "app.py"}))
        .await;
    assert!(
        e.contains("core") && e.contains("opens no core files"),
        "{e}"
    );
    mcp.close().await;
}

/// `pairdbg run` in `dir`: (stdout, stderr, success).
fn run_in(dir: &Path, args: &[&str]) -> (String, String, bool) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run pairdbg");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn run_keep_core_lets_the_crash_write_its_core_and_says_where() {
    if !gdb_available() {
        return;
    }
    let ws = workspace(&[("crash.c", CRASH_C)]);
    build_c(&ws.path().join("crash.c"), &ws.path().join("crash"));
    let (out, err, ok) = run_in(
        ws.path(),
        &["run", "--adapter", "gdb", "--keep-core", "--", "./crash"],
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("── STOPPED at crash.c:5 (read_x)"), "{out}");
    assert!(out.contains("The program was killed by SIGSEGV."), "{out}");
    let pattern = std::fs::read_to_string("/proc/sys/kernel/core_pattern").unwrap_or_default();
    if pattern.starts_with('|') {
        assert!(out.contains("Its core went to the program"), "{out}");
        return;
    }
    if pattern.trim() != "core" {
        assert!(out.contains("Its core file is"), "{out}");
        return;
    }
    let core = ws.path().join("core");
    assert!(
        out.contains(&format!("Its core file is {} ", core.display())),
        "{out}"
    );
    assert!(core.is_file(), "no core was written: {out}");
    // The core it left opens at the crash.
    let (out, err, ok) = run_in(
        ws.path(),
        &["run", "--adapter", "gdb", "--core", "core", "--", "./crash"],
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains("── STOPPED at crash.c:5 (read_x)"), "{out}");
    assert!(out.contains("Reason: crashed"), "{out}");
}
