//! Going back on gdb: a recording started at a stop, then steps back over,
//! into and out of calls and a continue backwards, each read as a stop
//! like any other; a session that cannot record refuses with the reason,
//! and an instruction gdb cannot record stops the program with gdb's
//! words. Each drives real gdb through the real binary and an MCP client.

mod common;

use common::native::*;
use common::*;
use serde_json::json;

const C_PROGRAM: &str = r#"int total = 0;

int add(int a, int b) {
    int s = a + b;
    return s;
}

int main(int argc, char **argv) {
    int x = 1;
    x = 42;
    int y = add(x, 2);
    total = y;
    for (int i = 0; i < 3; i++) {
        total += i;
    }
    total = 7;
    /* A carry-less multiply: every x86-64 processor of the last 15 years
       runs it, and gdb 18 cannot record it. */
    __asm__ volatile("pclmulqdq $0, %%xmm0, %%xmm0" ::: "xmm0");
    return total == 0;
}
"#;

const RUST_PROGRAM: &str = r#"fn add(a: i64, b: i64) -> i64 {
    let s = a + b;
    s
}

fn main() {
    let mut x: i64 = 1;
    x = x * 42;
    let y = add(x, 2);
    std::process::exit(if y == 0 { 1 } else { 0 });
}
"#;

fn line_in(source: &str, needle: &str) -> u64 {
    source
        .lines()
        .position(|l| l.contains(needle))
        .map(|i| i as u64 + 1)
        .unwrap_or_else(|| panic!("no line holds {needle:?}"))
}

/// The C program built in a fresh workspace, and an MCP client there.
async fn c_session() -> (tempfile::TempDir, Mcp) {
    let ws = workspace(&[("rev.c", C_PROGRAM)]);
    build_c(&ws.path().join("rev.c"), &ws.path().join("rev"));
    let mcp = mcp_in(ws.path()).await;
    (ws, mcp)
}

/// Whether the viewport's locals show `name = value` (names are padded).
fn shows(v: &str, name_value: &str) -> bool {
    let (name, value) = name_value.split_once(" = ").expect("name = value");
    v.lines().any(|l| {
        l.split_once('=')
            .is_some_and(|(n, val)| n.trim() == name && val.trim() == value)
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_on_gdb_steps_back_over_a_write_and_reads_the_value_before_it() {
    if !gdb_available() {
        return;
    }
    let (_ws, mcp) = c_session().await;
    let write = line_in(C_PROGRAM, "x = 42;");
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "rev", "adapter": "gdb", "breakpoints": [{"file": "rev.c", "line": write}]}),
        )
        .await;
    assert!(v.contains(&format!("rev.c:{write}")), "{v}");

    // Before recording, a move back is refused with the way to allow it.
    let (refused, is_error) = mcp.call("debug_step", json!({"kind": "back"})).await;
    assert!(is_error, "{refused}");
    assert!(
        refused.contains("cannot step back: no: not recording"),
        "{refused}"
    );
    assert!(refused.contains("debug_record {on: true}"), "{refused}");

    let r = mcp.ok("debug_record", json!({"on": true})).await;
    eprintln!("{r}");
    assert!(
        r.contains("Can step back: yes (gdb record), from stop 1"),
        "{r}"
    );

    let v = mcp.ok("debug_step", json!({})).await;
    eprintln!("{v}");
    assert!(v.contains(&format!("rev.c:{}", write + 1)), "{v}");
    assert!(shows(&v, "x = 42"), "after the write: {v}");
    assert!(v.contains("REC"), "the viewport says it records: {v}");

    let v = mcp.ok("debug_step", json!({"kind": "back"})).await;
    eprintln!("{v}");
    assert!(v.contains(&format!("rev.c:{write}")), "{v}");
    assert!(shows(&v, "x = 1"), "back before the write: {v}");

    // Forward past the call (live again), back into it: at its last line;
    // then back out of it, to the call site.
    mcp.ok("debug_step", json!({})).await;
    let v = mcp.ok("debug_step", json!({})).await;
    assert!(
        v.contains(&format!("rev.c:{}", line_in(C_PROGRAM, "total = y;"))),
        "{v}"
    );
    assert!(shows(&v, "y = 44"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "back_into"})).await;
    eprintln!("{v}");
    assert!(v.contains("(add)"), "back into the call: {v}");
    // gdb stops on the function's closing line, its last one.
    assert!(
        v.contains(&format!("rev.c:{}", line_in(C_PROGRAM, "return s;") + 1)),
        "{v}"
    );
    let v = mcp.ok("debug_step", json!({"kind": "back_out"})).await;
    eprintln!("{v}");
    assert!(
        v.contains(&format!(
            "rev.c:{}",
            line_in(C_PROGRAM, "int y = add(x, 2);")
        )),
        "back out returns to the call: {v}"
    );
    assert!(v.contains("(main)"), "{v}");
    // Forward again, replaying what was recorded: over the call.
    let v = mcp.ok("debug_step", json!({})).await;
    assert!(
        v.contains(&format!("rev.c:{}", line_in(C_PROGRAM, "total = y;"))),
        "{v}"
    );

    // A count makes no sense backwards.
    let (e, is_error) = mcp
        .call("debug_step", json!({"kind": "back", "count": 3}))
        .await;
    assert!(is_error && e.contains("count: 3"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_on_gdb_continues_backwards_to_the_previous_breakpoint() {
    if !gdb_available() {
        return;
    }
    let (_ws, mcp) = c_session().await;
    let first = line_in(C_PROGRAM, "x = 42;");
    let second = line_in(C_PROGRAM, "total = y;");
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "rev", "adapter": "gdb", "breakpoints": [
                {"file": "rev.c", "line": first}, {"file": "rev.c", "line": second}]}),
        )
        .await;
    assert!(v.contains(&format!("rev.c:{first}")), "{v}");
    mcp.ok("debug_record", json!({"on": true})).await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains(&format!("rev.c:{second}")), "{v}");
    assert!(shows(&v, "y = 44"), "{v}");

    let v = mcp.ok("debug_continue", json!({"direction": "back"})).await;
    eprintln!("{v}");
    assert!(v.contains(&format!("rev.c:{first}")), "{v}");
    assert!(shows(&v, "x = 1"), "{v}");

    // Further back there is nothing recorded.
    let v = mcp.ok("debug_continue", json!({"direction": "back"})).await;
    eprintln!("{v}");
    assert!(v.contains("Reached the start of the recording"), "{v}");

    // Status tells what the recording holds, read at the continue's stop.
    let s = mcp.ok("debug_status", json!({})).await;
    eprintln!("{s}");
    assert!(s.contains("REC "), "{s}");
    assert!(s.contains("instructions"), "{s}");

    let j = mcp.ok("debug_status", json!({"format": "json"})).await;
    assert!(
        j.contains(r#""can_step_back":"yes (gdb record), from stop 1""#),
        "{j}"
    );
    // Stopping the recording ends going back.
    let r = mcp.ok("debug_record", json!({"on": false})).await;
    assert!(r.contains("Recording stopped"), "{r}");
    let (e, is_error) = mcp
        .call("debug_continue", json!({"direction": "back"}))
        .await;
    assert!(is_error && e.contains("not recording"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recording_past_its_limit_drops_its_oldest_and_says_so() {
    if !gdb_available() {
        return;
    }
    let (_ws, mcp) = c_session().await;
    let first = line_in(C_PROGRAM, "x = 42;");
    let after = line_in(C_PROGRAM, "total = 7;");
    mcp.ok(
        "debug_launch",
        json!({"program": "rev", "adapter": "gdb", "breakpoints": [
            {"file": "rev.c", "line": first}, {"file": "rev.c", "line": after}]}),
    )
    .await;
    let (e, is_error) = mcp
        .call("debug_record", json!({"on": true, "max_instructions": 0}))
        .await;
    assert!(
        is_error && e.contains("max_instructions: 0 is out of range"),
        "{e}"
    );
    mcp.ok("debug_record", json!({"on": true, "max_instructions": 20}))
        .await;
    let mut v = mcp.ok("debug_continue", json!({})).await;
    eprintln!("{v}");
    // The run stops as the recording fills, unless it reaches the
    // breakpoint first (a few instructions on); from there it goes on,
    // dropping the oldest.
    if v.contains(FULL) {
        v = mcp.ok("debug_continue", json!({})).await;
        eprintln!("{v}");
    }
    assert!(v.contains(&format!("rev.c:{after}")), "{v}");
    assert!(
        v.contains("The recording is full (its limit of 20 instructions): the oldest"),
        "{v}"
    );
    assert!(v.contains("instructions of 20, the oldest"), "{v}");
    // Back, it cannot reach the breakpoint where recording began.
    let v = mcp.ok("debug_continue", json!({"direction": "back"})).await;
    eprintln!("{v}");
    assert!(v.contains("Reached the start of the recording"), "{v}");
    assert!(!v.contains(&format!("rev.c:{first} ")), "{v}");
}

const FULL: &str =
    "The recording stopped the program: Process record: the recording is full at its limit of";

const ENDLESS: &str = r#"int main(void) {
    volatile long total = 0;
    for (long i = 0;; i++) {
        total += i;
    }
    return 0;
}
"#;

/// A program that never ends, recorded: it used to run on for ever at a
/// recording's pace, the oldest instructions dropped. It stops as the
/// recording fills, with that reason, and the recording still goes back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_that_fills_the_recording_stops_with_that_reason() {
    if !gdb_available() {
        return;
    }
    let ws = workspace(&[("endless.c", ENDLESS)]);
    build_c(&ws.path().join("endless.c"), &ws.path().join("endless"));
    let mcp = mcp_in(ws.path()).await;
    let line = line_in(ENDLESS, "total += i;");
    mcp.ok(
        "debug_launch",
        json!({"program": "endless", "adapter": "gdb", "breakpoints": [{"file": "endless.c", "line": line}]}),
    )
    .await;
    mcp.ok(
        "breakpoint_remove",
        json!({"file": "endless.c", "line": line}),
    )
    .await;
    mcp.ok(
        "debug_record",
        json!({"on": true, "max_instructions": 2000}),
    )
    .await;
    let v = mcp.ok("debug_continue", json!({"timeout_ms": 60000})).await;
    eprintln!("{v}");
    assert!(v.contains("── STOPPED at endless.c:"), "{v}");
    assert!(v.contains(&format!("{FULL} 2000 instructions")), "{v}");
    assert!(!v.contains("SIGINT"), "{v}");
    assert!(v.contains("Reason: recording full"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "back"})).await;
    assert!(v.contains("── STOPPED at endless.c:"), "{v}");
    assert!(!v.contains("Reached the start of the recording"), "{v}");
}

#[cfg(target_arch = "x86_64")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instruction_gdb_cannot_record_stops_the_program_with_its_reason() {
    if !gdb_available() {
        return;
    }
    let (_ws, mcp) = c_session().await;
    let line = line_in(C_PROGRAM, "total = 7;");
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "rev", "adapter": "gdb", "breakpoints": [{"file": "rev.c", "line": line}]}),
        )
        .await;
    assert!(v.contains(&format!("rev.c:{line}")), "{v}");
    mcp.ok("debug_record", json!({"on": true})).await;
    let v = mcp.ok("debug_continue", json!({"timeout_ms": 30000})).await;
    eprintln!("{v}");
    assert!(
        v.contains(
            "The recording stopped the program: Process record does not support instruction"
        ),
        "{v}"
    );
    assert!(
        v.contains(&format!(
            "STOPPED at rev.c:{}",
            line_in(C_PROGRAM, "pclmulqdq")
        )),
        "{v}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_on_gdb_steps_back_over_a_write() {
    if !gdb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_rust_source(ws.path(), RUST_PROGRAM);
    let mcp = mcp_in(ws.path()).await;
    let write = line_in(RUST_PROGRAM, "x = x * 42;");
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "values", "breakpoints": [{"file": "src/main.rs", "line": write}]}),
        )
        .await;
    assert!(v.contains(&format!("main.rs:{write}")), "{v}");
    mcp.ok("debug_record", json!({"on": true})).await;
    // In diff mode a stop in the same frame shows what changed.
    mcp.ok(
        "debug_status",
        json!({"viewport_config": {"diff_mode": true}}),
    )
    .await;
    let v = mcp.ok("debug_step", json!({})).await;
    eprintln!("{v}");
    assert!(v.contains("Changed:") && shows(&v, "x = 42"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "back"})).await;
    eprintln!("{v}");
    assert!(v.contains(&format!("main.rs:{write}")), "{v}");
    assert!(
        v.contains("Changed:") && shows(&v, "x = 1"),
        "the value goes back, as a change: {v}"
    );
    mcp.ok(
        "debug_status",
        json!({"viewport_config": {"diff_mode": false}}),
    )
    .await;
    // Into add, then back out to main's call.
    mcp.ok("debug_step", json!({})).await;
    let v = mcp.ok("debug_step", json!({"kind": "into"})).await;
    assert!(v.contains("add"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "back_out"})).await;
    eprintln!("{v}");
    assert!(
        v.contains(&format!(
            "main.rs:{}",
            line_in(RUST_PROGRAM, "let y = add(x, 2);")
        )),
        "{v}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_on_lldb_refuses_to_go_back_and_says_why() {
    if !lldb_available() {
        return;
    }
    let (_ws, mcp) = c_session().await;
    let line = line_in(C_PROGRAM, "x = 42;");
    mcp.ok(
        "debug_launch",
        json!({"program": "rev", "adapter": "lldb", "breakpoints": [{"file": "rev.c", "line": line}]}),
    )
    .await;
    let (e, is_error) = mcp.call("debug_step", json!({"kind": "back"})).await;
    assert!(is_error, "{e}");
    assert!(
        e.contains("cannot step back: no: lldb-dap cannot record"),
        "{e}"
    );
    let (e, is_error) = mcp.call("debug_record", json!({"on": true})).await;
    assert!(is_error && e.contains("lldb-dap cannot record"), "{e}");
    let j = mcp.ok("debug_status", json!({"format": "json"})).await;
    assert!(
        j.contains(r#""can_step_back":"no: lldb-dap cannot record""#),
        "{j}"
    );
}
