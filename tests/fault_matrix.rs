//! The fault matrix, per adapter: the adapter SIGKILLed while stopped,
//! while the program runs and while it launches; the adapter frozen
//! (SIGSTOP) while stopped; the debuggee SIGKILLed while stopped. In every
//! case the next call answers, says the session or its adapter ended where
//! it did, leaves no process of that session behind, and a session beside
//! it in the same server still steps. Real adapters through the real binary.
//! Ruby is not here: rdbg runs the program in its own process, so killing
//! the adapter and killing the program are one case, which the matrix's
//! separate cases do not fit.

mod common;

use std::time::{Duration, Instant};

use common::faults::*;
use common::*;
use serde_json::{Value, json};

/// One adapter's run of the matrix: a program that loops for ever with a
/// breakpoint inside its loop.
struct Lang {
    /// In the adapter's command line (not the keeper's, which is pairdbg).
    adapter: &'static str,
    /// In the debuggee's command line.
    debuggee: String,
    /// `debug_launch`'s arguments, breakpoints aside.
    launch: Value,
    /// The loop's line a breakpoint stops on.
    file: &'static str,
    line: u64,
}

impl Lang {
    fn stopped(&self) -> Value {
        let mut a = self.launch.clone();
        a["breakpoints"] = json!([{"file": self.file, "line": self.line}]);
        a["timeout_ms"] = json!(60000);
        a
    }

    /// Returns while the program still runs, no breakpoint in its way.
    fn running(&self) -> Value {
        let mut a = self.launch.clone();
        a["timeout_ms"] = json!(1500);
        a
    }
}

/// How long a call in a fault case may take to answer.
const ANSWER: Duration = Duration::from_secs(30);
/// How long a fault session's processes may take to end.
const GONE: Duration = Duration::from_secs(15);

/// A session stopped at the loop's breakpoint: its id and its processes.
async fn stopped_session(mcp: &Mcp, lang: &Lang, known: &[u32]) -> (String, Vec<u32>) {
    let v = mcp.ok("debug_launch", lang.stopped()).await;
    assert_eq!(stopped_line(&v), Some(lang.line), "{v}");
    let id = session_of(&v).unwrap_or_else(|| panic!("no session named: {v}"));
    (id, new_descendants(mcp.pid, known))
}

/// Calls a tool and returns (text, is_error), failing past `ANSWER`.
async fn answers(mcp: &Mcp, tool: &str, args: Value) -> (String, bool) {
    let started = Instant::now();
    let got = mcp.call(tool, args).await;
    assert!(
        started.elapsed() < ANSWER,
        "{tool} took {:?}: {}",
        started.elapsed(),
        got.0
    );
    got
}

async fn all_gone(tree: &[u32], after: &str) {
    let left = wait_dead(tree, GONE).await;
    let named: Vec<String> = left.iter().map(|p| cmdline(*p)).collect();
    assert!(left.is_empty(), "left running {after}: {named:?}");
}

/// The session beside the faults still steps and reads its loop.
async fn bystander_steps(mcp: &Mcp, id: &str, after: &str) {
    let (v, is_error) = answers(mcp, "debug_step", json!({"session_id": id})).await;
    assert!(!is_error, "the other session failed to step {after}: {v}");
    assert!(
        v.contains(&format!("[session {id} ")) && stopped_line(&v).is_some(),
        "the other session should step {after}: {v}"
    );
}

/// Ends a fault session; the call answers whatever state it is in.
async fn end(mcp: &Mcp, id: &str) {
    answers(mcp, "debug_terminate", json!({"session_id": id})).await;
}

async fn adapter_killed_while_stopped(mcp: &Mcp, lang: &Lang, known: &[u32]) {
    let (id, tree) = stopped_session(mcp, lang, known).await;
    let adapter = adapter_among(&tree, lang.adapter).expect("the adapter among the descendants");
    signal(adapter, libc::SIGKILL);
    let (v, is_error) = answers(mcp, "debug_step", json!({"session_id": id})).await;
    assert!(is_error, "the step cannot be made: {v}");
    // Never that the program runs: js-debug's program connection may be
    // read closed before the adapter's own.
    assert!(
        says_ended(&v) && !v.contains("is running"),
        "the step should say the adapter ended: {v}"
    );
    all_gone(&tree, "after the adapter was killed while stopped").await;
    end(mcp, &id).await;
}

async fn adapter_killed_while_running(mcp: &Mcp, lang: &Lang, known: &[u32]) {
    let (v, is_error) = answers(mcp, "debug_launch", lang.running()).await;
    assert!(!is_error, "{v}");
    assert!(v.contains("running"), "the program should still run: {v}");
    let id = session_of(&v).unwrap_or_else(|| panic!("no session named: {v}"));
    // The launch may answer before the adapter has started the program.
    let tree = poll(
        || new_descendants(mcp.pid, known),
        |t| debuggee_among(t, &lang.debuggee, lang.adapter).is_some(),
        ANSWER,
    )
    .await;
    assert!(
        debuggee_among(&tree, &lang.debuggee, lang.adapter).is_some(),
        "the program should run: {:?}",
        tree.iter().map(|p| cmdline(*p)).collect::<Vec<_>>()
    );
    let adapter = adapter_among(&tree, lang.adapter).expect("the adapter among the descendants");
    signal(adapter, libc::SIGKILL);
    let (v, is_error) = answers(
        mcp,
        "debug_wait",
        json!({"session_id": id, "timeout_ms": 20000}),
    )
    .await;
    assert!(is_error, "the session failed: {v}");
    assert!(says_ended(&v), "the wait should say the session ended: {v}");
    let (s, _) = answers(mcp, "debug_status", json!({"session_id": id})).await;
    assert!(says_ended(&s), "the status should say it ended: {s}");
    all_gone(&tree, "after the adapter was killed while the program ran").await;
    end(mcp, &id).await;
}

async fn adapter_frozen_while_stopped(mcp: &Mcp, lang: &Lang, known: &[u32]) {
    let (id, tree) = stopped_session(mcp, lang, known).await;
    let adapter = adapter_among(&tree, lang.adapter).expect("the adapter among the descendants");
    signal(adapter, libc::SIGSTOP);
    let state = poll(|| stat(adapter), |s| matches!(s, Some((_, 'T'))), GONE).await;
    assert!(
        matches!(state, Some((_, 'T'))),
        "the adapter did not stop: {state:?}"
    );
    let (v, _) = answers(
        mcp,
        "debug_step",
        json!({"session_id": id, "timeout_ms": 2000}),
    )
    .await;
    assert!(
        v.contains("stopped answering"),
        "the step should say the adapter went quiet: {v}"
    );
    signal(adapter, libc::SIGKILL);
    end(mcp, &id).await;
    all_gone(&tree, "after the frozen adapter's session ended").await;
}

async fn debuggee_killed_while_stopped(mcp: &Mcp, lang: &Lang, known: &[u32], state_read: bool) {
    let (id, tree) = stopped_session(mcp, lang, known).await;
    let debuggee = debuggee_among(&tree, &lang.debuggee, lang.adapter).unwrap_or_else(|| {
        panic!(
            "the program among the descendants: {:?}",
            tree.iter().map(|p| cmdline(*p)).collect::<Vec<_>>()
        )
    });
    signal(debuggee, libc::SIGKILL);
    let (v, _) = answers(
        mcp,
        "debug_step",
        json!({"session_id": id, "timeout_ms": 10000}),
    )
    .await;
    if state_read {
        // The kill may land as the step starts: the exit is then read by the next wait.
        let v = if says_ended(&v) {
            v
        } else {
            answers(
                mcp,
                "debug_wait",
                json!({"session_id": id, "timeout_ms": 20000}),
            )
            .await
            .0
        };
        assert!(says_ended(&v), "the session should read as ended: {v}");
    }
    end(mcp, &id).await;
    all_gone(&tree, "after the program was killed while stopped").await;
}

async fn adapter_killed_while_launching(mcp: &Mcp, lang: &Lang, known: &[u32]) {
    let launch = answers(mcp, "debug_launch", lang.stopped());
    let kill = async {
        let adapter = adapter_appears(mcp.pid, known, lang.adapter)
            .await
            .expect("the adapter never started");
        signal(adapter, libc::SIGKILL);
        new_descendants(mcp.pid, known)
    };
    let ((v, is_error), tree) = tokio::join!(launch, kill);
    assert!(
        is_error,
        "the launch should fail once its adapter died: {v}"
    );
    all_gone(&tree, "after the adapter was killed while launching").await;
    let left = new_descendants(mcp.pid, known);
    all_gone(&left, "after the failed launch").await;
}

/// Every case in turn, on one server, beside a session that must keep
/// stepping. `state_read`: whether the debuggee's death is read as the
/// session's end (not yet on every adapter).
async fn matrix(mcp: &Mcp, lang: &Lang, state_read: bool) {
    let (bystander, _) = stopped_session(mcp, lang, &[]).await;
    let known = descendants(mcp.pid);

    adapter_killed_while_stopped(mcp, lang, &known).await;
    bystander_steps(mcp, &bystander, "after an adapter was killed while stopped").await;
    adapter_killed_while_running(mcp, lang, &known).await;
    bystander_steps(mcp, &bystander, "after an adapter was killed running").await;
    adapter_frozen_while_stopped(mcp, lang, &known).await;
    bystander_steps(mcp, &bystander, "after an adapter froze").await;
    debuggee_killed_while_stopped(mcp, lang, &known, state_read).await;
    bystander_steps(mcp, &bystander, "after a program was killed").await;
    adapter_killed_while_launching(mcp, lang, &known).await;
    bystander_steps(mcp, &bystander, "after a launch's adapter was killed").await;

    let list = mcp.ok("debug_sessions", json!({})).await;
    assert!(list.contains(&bystander), "{list}");
}

const PY_LOOP: &str = "\
import time
count = 0
while True:
    count += 1
    time.sleep(0.005)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_on_debugpy() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("loop.py", PY_LOOP)]);
    let mcp = mcp_in(ws.path()).await;
    let lang = Lang {
        // pairdbg starts debugpy's adapter and program through scripts of its own.
        adapter: "adapter_boot.py",
        debuggee: "debuggee_boot.py".into(),
        launch: json!({"program": "loop.py"}),
        file: "loop.py",
        line: 4,
    };
    matrix(&mcp, &lang, true).await;
    mcp.close().await;
}

const C_LOOP: &str = "\
#include <unistd.h>
int main(void) {
    int count = 0;
    for (;;) {
        count += 1;
        usleep(5000);
    }
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_on_lldb_dap() {
    if !native::lldb_available() {
        return;
    }
    let ws = workspace(&[("loop.c", C_LOOP)]);
    let bin = ws.path().join("loop");
    native::build_c(&ws.path().join("loop.c"), &bin);
    let mcp = mcp_in(ws.path()).await;
    let lang = Lang {
        adapter: "lldb-dap",
        debuggee: bin.display().to_string(),
        launch: json!({"program": "loop"}),
        file: "loop.c",
        line: 5,
    };
    matrix(&mcp, &lang, true).await;
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_on_gdb() {
    if !native::gdb_available() {
        return;
    }
    let ws = workspace(&[]);
    native::build_rust_source(ws.path(), native::RUST_LOOP);
    let mcp = mcp_in(ws.path()).await;
    let lang = Lang {
        adapter: "-i dap",
        debuggee: ws.path().join("values").display().to_string(),
        launch: json!({"program": "values", "adapter": "gdb"}),
        file: "src/main.rs",
        line: 4,
    };
    matrix(&mcp, &lang, true).await;
    mcp.close().await;
}

const GO_LOOP: &str = "\
package main

import \"time\"

func main() {
\tcount := 0
\tfor {
\t\tcount++
\t\t_ = count
\t\ttime.Sleep(5 * time.Millisecond)
\t}
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_on_delve() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/looper\n\ngo 1.19\n"),
        ("main.go", GO_LOOP),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let lang = Lang {
        adapter: "dlv dap",
        debuggee: "go-debug-bin".into(),
        launch: json!({"program": "."}),
        file: "main.go",
        line: 8,
    };
    // delve's state after its program is killed is not read yet: only
    // that the calls answer and nothing is left.
    matrix(&mcp, &lang, false).await;
    mcp.close().await;
}

const JS_LOOP: &str = "\
const cell = new Int32Array(new SharedArrayBuffer(4));
let count = 0;
for (;;) {
  count += 1;
  Atomics.wait(cell, 0, 0, 5);
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_on_js_debug() {
    let Some((ws, mcp)) = js_mcp(&[("loop.js", JS_LOOP)]).await else {
        return;
    };
    let lang = Lang {
        adapter: "DebugServer.js",
        debuggee: "loop.js".into(),
        launch: json!({"program": "loop.js"}),
        file: "loop.js",
        line: 4,
    };
    matrix(&mcp, &lang, true).await;
    mcp.close().await;
    drop(ws);
}

const JAVA_LOOP: &str = "\
public class Loop {
    public static void main(String[] args) throws Exception {
        long count = 0;
        while (true) {
            count += 1;
            Thread.sleep(5);
        }
    }
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_on_java() {
    if !java_available() {
        return;
    }
    let ws = workspace(&[("Loop.java", JAVA_LOOP)]);
    let mcp = mcp_in(ws.path()).await;
    let lang = Lang {
        adapter: "DapServer",
        debuggee: "Loop".into(),
        launch: json!({"program": "Loop.java", "timeout_ms": 60000}),
        file: "Loop.java",
        line: 5,
    };
    matrix(&mcp, &lang, true).await;
    mcp.close().await;
}
