//! Rust on gdb beyond values: breakpoints by function and by hit count, a
//! data breakpoint (a gdb watchpoint) on a field, threads by name,
//! attaching by pid, and a signal stopped at the user's frame (in Rust and
//! in C), each driven by a real MCP client through the real binary.

mod common;

use common::native::*;
use common::*;
use serde_json::json;

const NATIVE: &str = r#"use std::sync::{Arc, Barrier};
use std::thread;

struct Counter {
    hits: u32,
    misses: u32,
}

fn bump(c: &mut Counter, n: u32) {
    for i in 0..n {
        if i % 2 == 1 {
            c.misses += 1;
        } else {
            c.hits += 1;
        }
    }
}

fn work(id: u32) -> u32 {
    let doubled = id * 2;
    doubled
}

fn tick(n: u64) -> u64 {
    let doubled = n * 2;
    doubled
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let mut c = Counter { hits: 0, misses: 0 };
    bump(&mut c, 3);
    println!("{} {}", c.hits, c.misses);
    if mode == "threads" {
        let gate = Arc::new(Barrier::new(2));
        let workers: Vec<_> = (1..=2)
            .map(|id| {
                let gate = Arc::clone(&gate);
                thread::Builder::new()
                    .name(format!("worker-{id}"))
                    .spawn(move || {
                        gate.wait();
                        work(id)
                    })
                    .expect("spawn")
            })
            .collect();
        for w in workers {
            println!("{}", w.join().expect("join"));
        }
    }
    if mode == "abort" {
        std::process::abort();
    }
    if mode == "loop" {
        let mut total = 0u64;
        for n in 0.. {
            total = total.wrapping_add(tick(n));
            thread::sleep(std::time::Duration::from_millis(2));
        }
        println!("{total}");
    }
}
"#;

/// The 1-based line of `NATIVE` that holds `needle`.
fn line_of(needle: &str) -> u64 {
    NATIVE
        .lines()
        .position(|l| l.contains(needle))
        .map(|i| i as u64 + 1)
        .unwrap_or_else(|| panic!("no line holds {needle:?}"))
}

/// `NATIVE` as `ws/src/main.rs` (so its crate is `main`), built into `ws/native`.
fn build(ws: &std::path::Path) {
    std::fs::create_dir_all(ws.join("src")).expect("mkdir src");
    std::fs::write(ws.join("src/main.rs"), NATIVE).expect("write main.rs");
    let out = std::process::Command::new("rustc")
        .args(["-g", "--edition", "2021", "-o", "native", "src/main.rs"])
        .current_dir(ws)
        .output()
        .expect("run rustc");
    assert!(
        out.status.success(),
        "rustc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A session on `NATIVE` launched with `args`.
async fn launched(args: serde_json::Value) -> (tempfile::TempDir, Mcp, String) {
    let ws = workspace(&[]);
    build(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let v = mcp.ok("debug_launch", args).await;
    eprintln!("{v}");
    (ws, mcp, v)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_function_breakpoint_and_a_hit_count_on_rust() {
    if !gdb_available() {
        return;
    }
    let (_ws, mcp, v) = launched(json!({
        "program": "native",
        "breakpoints": [{"function": "main::bump"}],
    }))
    .await;
    assert_eq!(stopped_function(&v).as_deref(), Some("main::bump"), "{v}");
    assert!(v.contains("main::bump(c="), "{v}");
    // gdb never finds a bare Rust name: refused when set, saying what to give.
    let e = mcp
        .fails("breakpoint_set", json!({"function": "work"}))
        .await;
    assert!(
        e.contains("gdb finds a Rust function by its path only") && e.contains("main::work"),
        "{e}"
    );
    // gdb counts hits to ignore: every Nth hit it cannot say.
    let e = mcp
        .fails(
            "breakpoint_set",
            json!({"file": "src/main.rs", "line": line_of("c.misses += 1"), "hit_count": "%2"}),
        )
        .await;
    assert!(e.contains("gdb cannot stop on every Nth hit"), "{e}");
    // The second pass through `c.hits += 1` is at i == 2.
    let b = mcp
        .ok(
            "breakpoint_set",
            json!({"file": "src/main.rs", "line": line_of("c.hits += 1"), "hit_count": 2}),
        )
        .await;
    assert!(b.contains("hit_count 2"), "{b}");
    let v = mcp.ok("debug_continue", json!({})).await;
    eprintln!("{v}");
    assert_eq!(stopped_line(&v), Some(line_of("c.hits += 1")), "{v}");
    assert_eq!(local(&v, "i").as_deref(), Some("2"), "{v}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "c.hits"}))
        .await;
    assert!(e.contains("= 1"), "{e}");
    // At main's closing brace no local is live: its locals are none, not
    // the registers. (gdb puts a breakpoint there on the unwinding path,
    // so the run steps to it.)
    let end = NATIVE.lines().count() as u64;
    let mut v = mcp.ok("debug_step", json!({"kind": "out"})).await;
    for _ in 0..10 {
        if stopped_line(&v) == Some(end) {
            break;
        }
        v = mcp.ok("debug_step", json!({"kind": "over"})).await;
    }
    eprintln!("{v}");
    assert_eq!(stopped_line(&v), Some(end), "{v}");
    assert!(
        local(&v, "rip").is_none() && local(&v, "rax").is_none(),
        "{v}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_field_change_stops_with_its_old_and_new_value() {
    if !gdb_available() {
        return;
    }
    let (_ws, mcp, v) = launched(json!({
        "program": "native",
        "breakpoints": [{"file": "src/main.rs", "line": line_of("bump(&mut c, 3)")}],
    }))
    .await;
    assert_eq!(
        local(&v, "c").as_deref(),
        Some("<Counter: hits=0, misses=0>"),
        "{v}"
    );
    let r = mcp
        .ok("debug_run_until", json!({"expression": "c.hits"}))
        .await;
    eprintln!("{r}");
    let first = r.lines().next().unwrap_or_default();
    assert_eq!(
        first, "c.hits: 0 → 1 after 1 write (data breakpoint).",
        "{r}"
    );
    assert_eq!(
        stopped_function(&r).as_deref(),
        Some("main::bump"),
        "at the write: {r}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_thread_list_names_each_spawned_thread() {
    if !gdb_available() {
        return;
    }
    let (_ws, mcp, v) = launched(json!({
        "program": "native",
        "args": ["threads"],
        "breakpoints": [{"file": "src/main.rs", "line": line_of("let doubled = id * 2")}],
    }))
    .await;
    assert_eq!(stopped_function(&v).as_deref(), Some("main::work"), "{v}");
    let id = local(&v, "id").expect("id");
    let t = mcp.ok("debug_threads", json!({})).await;
    eprintln!("{t}");
    // Both workers passed the barrier, so both are alive; the stop is in
    // the one whose id the frame holds.
    assert!(t.contains("worker-1") && t.contains("worker-2"), "{t}");
    assert!(
        t.lines()
            .any(|l| l.trim_start().starts_with('→') && l.ends_with(&format!("worker-{id}"))),
        "{t}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attach_by_pid_then_detach_leaves_the_program_running() {
    use std::time::Duration;

    if !gdb_available() {
        return;
    }
    let ws = workspace(&[]);
    build(ws.path());
    let looper = Running(
        std::process::Command::new(ws.path().join("native"))
            .arg("loop")
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("start the program"),
    );
    let pid = looper.0.id();
    let mcp = mcp_in(ws.path()).await;
    let line = line_of("let doubled = n * 2");
    // gdb stops the program where it was when it attaches, and says so.
    let v = mcp
        .ok(
            "debug_attach",
            json!({"pid": pid, "adapter": "gdb", "breakpoints": [{"file": "src/main.rs", "line": line}]}),
        )
        .await;
    eprintln!("{v}");
    assert!(v.contains("Reason: attach"), "{v}");
    assert!(
        v.contains("src/main.rs:") && v.contains("main::main"),
        "{v}"
    );
    let v = mcp.ok("debug_continue", json!({})).await;
    eprintln!("{v}");
    assert!(
        v.contains(&format!("── STOPPED at src/main.rs:{line} (main::tick) ──")),
        "{v}"
    );
    assert!(local(&v, "n").is_some(), "{v}");
    let adapters = descendants(mcp.pid);
    assert!(!adapters.is_empty(), "the adapter runs under pairdbg");
    let t = mcp.ok("debug_terminate", json!({"detach": true})).await;
    assert!(t.contains("detached and keeps running"), "{t}");
    let left = wait_dead(&adapters, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "adapter processes left: {left:?}");
    let running = |pid: u32| stat(pid).is_some_and(|(_, state)| matches!(state, 'R' | 'S' | 'D'));
    let still = poll(|| running(pid), |r| *r, Duration::from_secs(10)).await;
    assert!(
        still,
        "the attached program is gone or stopped: {:?}",
        stat(pid)
    );
    mcp.close().await;
    drop(looper);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abort_stops_at_the_users_frame_with_the_signal_named() {
    if !gdb_available() {
        return;
    }
    let (_ws, mcp, v) = launched(json!({"program": "native", "args": ["abort"]})).await;
    let line = line_of("std::process::abort()");
    assert!(
        v.contains(&format!("── STOPPED at src/main.rs:{line} (main::main) ──")),
        "{v}"
    );
    assert!(v.contains("Reason: exception"), "{v}");
    assert!(v.contains("Exception: SIGABRT: Aborted"), "{v}");
    assert_eq!(local(&v, "mode").as_deref(), Some("\"abort\""), "{v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    eprintln!("{v}");
    assert!(v.contains("EXITED"), "{v}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_null_write_in_c_stops_on_gdb_with_the_signal_named() {
    if !gdb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_c_demo(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "inventory", "adapter": "gdb", "args": ["crash"]}),
        )
        .await;
    eprintln!("{v}");
    assert!(v.contains("── STOPPED at inventory.c:51 (main) ──"), "{v}");
    assert!(v.contains("Reason: exception"), "{v}");
    assert!(v.contains("Exception: SIGSEGV: Segmentation fault"), "{v}");
    mcp.close().await;
}
