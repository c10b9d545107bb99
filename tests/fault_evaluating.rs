//! Faults while an evaluation runs in the program: the adapter killed, or
//! the program killed, while a call the agent asked for is under way. The
//! evaluation answers within a bound and says the session or its adapter
//! ended (never that the session is stopped), the next call answers, and
//! nothing of the session is left running. Real adapters through the real
//! binary. delve is not here: its calls need the program stopped in Go
//! code at a safe point, and its call blocks the adapter as a whole.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::faults::*;
use common::*;
use serde_json::{Value, json};

/// How long a call in a fault case may take to answer.
const ANSWER: Duration = Duration::from_secs(30);
/// How long the call under way may take to show it started, and a fault
/// session's processes to end.
const WITHIN: Duration = Duration::from_secs(20);
/// What the slow function writes as it starts: the call is under way.
const MARK: &str = "evaluating";

struct Lang {
    /// In the adapter's command line (not the keeper's, which is pairdbg).
    adapter: &'static str,
    /// In the debuggee's command line.
    debuggee: String,
    /// `debug_launch`'s arguments, with a breakpoint before the loop.
    launch: Value,
    /// The call that writes `MARK` and then sleeps a minute.
    call: &'static str,
}

#[derive(Clone, Copy, Debug)]
enum Victim {
    Adapter,
    Program,
}

/// Stops at the breakpoint, starts the slow call, kills `victim` once the
/// call is under way, and checks what the agent reads.
async fn killed_while_evaluating(ws: &Path, mcp: &Mcp, lang: &Lang, victim: Victim) {
    let known = descendants(mcp.pid);
    let mark = ws.join(MARK);
    let _ = std::fs::remove_file(&mark);
    let v = mcp.ok("debug_launch", lang.launch.clone()).await;
    assert!(stopped_line(&v).is_some(), "{v}");
    let id = session_of(&v).unwrap_or_else(|| panic!("no session named: {v}"));
    let tree = new_descendants(mcp.pid, &known);
    let target = match victim {
        Victim::Adapter => adapter_among(&tree, lang.adapter),
        Victim::Program => debuggee_among(&tree, &lang.debuggee, lang.adapter),
    }
    .unwrap_or_else(|| {
        panic!(
            "no {victim:?} among {:?}",
            tree.iter().map(|p| cmdline(*p)).collect::<Vec<_>>()
        )
    });
    let started = Instant::now();
    let evaluate = mcp.call(
        "debug_evaluate",
        json!({"expression": lang.call, "allow_side_effects": true, "session_id": id}),
    );
    let kill = async {
        let under_way = poll(|| mark.exists(), |m| *m, WITHIN).await;
        if under_way {
            signal(target, libc::SIGKILL);
        }
        under_way
    };
    let ((v, is_error), under_way) = tokio::join!(evaluate, kill);
    assert!(under_way, "the call never started ({victim:?}): {v}");
    assert!(
        started.elapsed() < ANSWER,
        "the evaluation took {:?} ({victim:?}): {v}",
        started.elapsed()
    );
    assert!(is_error, "the call cannot have a value ({victim:?}): {v}");
    assert!(
        says_ended(&v) && !v.contains("is stopped"),
        "the evaluation should say the session ended ({victim:?}): {v}"
    );
    let (s, _) = mcp.call("debug_status", json!({"session_id": id})).await;
    assert!(
        says_ended(&s),
        "the status should say it ended ({victim:?}): {s}"
    );
    let left = wait_dead(&tree, WITHIN).await;
    let named: Vec<String> = left.iter().map(|p| cmdline(*p)).collect();
    assert!(left.is_empty(), "left running ({victim:?}): {named:?}");
    let _ = mcp.call("debug_terminate", json!({"session_id": id})).await;
}

async fn both(ws: &Path, mcp: &Mcp, lang: &Lang) {
    killed_while_evaluating(ws, mcp, lang, Victim::Adapter).await;
    killed_while_evaluating(ws, mcp, lang, Victim::Program).await;
}

const PY: &str = "\
import time


def slow():
    open('evaluating', 'w').close()
    time.sleep(60)
    return 1


count = 0
while True:
    count += 1
    time.sleep(0.005)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_while_evaluating_on_debugpy() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("slow.py", PY)]);
    let mcp = mcp_in(ws.path()).await;
    let lang = Lang {
        adapter: "adapter_boot.py",
        debuggee: "debuggee_boot.py".into(),
        launch: json!({"program": "slow.py", "breakpoints": [{"file": "slow.py", "line": 12}]}),
        call: "slow()",
    };
    both(ws.path(), &mcp, &lang).await;
    mcp.close().await;
}

const C: &str = "\
#include <stdio.h>
#include <unistd.h>

int slow(void) {
    fclose(fopen(\"evaluating\", \"w\"));
    sleep(60);
    return 1;
}

int main(void) {
    int count = 0;
    for (;;) {
        count += 1;
        usleep(5000);
    }
}
";

async fn c_on(adapter: &'static str, command_line: &'static str) {
    let ws = workspace(&[("slow.c", C)]);
    let bin = ws.path().join("slow");
    native::build_c(&ws.path().join("slow.c"), &bin);
    let mcp = mcp_in(ws.path()).await;
    let lang = Lang {
        adapter: command_line,
        debuggee: bin.display().to_string(),
        launch: json!({"program": "slow", "adapter": adapter,
                       "breakpoints": [{"file": "slow.c", "line": 13}]}),
        call: "slow()",
    };
    both(ws.path(), &mcp, &lang).await;
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_while_evaluating_on_lldb_dap() {
    if !native::lldb_available() {
        return;
    }
    c_on("lldb-dap", "lldb-dap").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_while_evaluating_on_gdb() {
    if !native::gdb_available() {
        return;
    }
    c_on("gdb", "-i dap").await;
}

const JS: &str = "\
const fs = require('fs');
const cell = new Int32Array(new SharedArrayBuffer(4));
function slow() {
  fs.writeFileSync('evaluating', '');
  Atomics.wait(cell, 0, 0, 60000);
  return 1;
}
globalThis.slow = slow;
let count = 0;
for (;;) {
  count += 1;
  Atomics.wait(cell, 0, 0, 5);
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_while_evaluating_on_js_debug() {
    let Some((ws, mcp)) = js_mcp(&[("slow.js", JS)]).await else {
        return;
    };
    let lang = Lang {
        adapter: "DebugServer.js",
        debuggee: "slow.js".into(),
        launch: json!({"program": "slow.js", "breakpoints": [{"file": "slow.js", "line": 11}]}),
        call: "slow()",
    };
    both(ws.path(), &mcp, &lang).await;
    mcp.close().await;
}

const JAVA: &str = "\
import java.nio.file.Files;
import java.nio.file.Path;

public class Slow {
    static int slow() throws Exception {
        Files.writeString(Path.of(\"evaluating\"), \"\");
        Thread.sleep(60_000);
        return 1;
    }

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
async fn faults_while_evaluating_on_java() {
    if !java_available() {
        return;
    }
    let ws = workspace(&[("Slow.java", JAVA)]);
    let mcp = mcp_in(ws.path()).await;
    let lang = Lang {
        adapter: "DapServer",
        debuggee: "Slow".into(),
        launch: json!({"program": "Slow.java", "timeout_ms": 60000,
                       "breakpoints": [{"file": "Slow.java", "line": 14}]}),
        call: "slow()",
    };
    both(ws.path(), &mcp, &lang).await;
    mcp.close().await;
}
