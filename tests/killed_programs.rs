//! A program killed by a signal reads as such on every adapter (`killed by
//! SIGKILL` in the viewport, the JSON status and the state sentence), not
//! as the exit code each adapter makes of it; where an adapter's number
//! could be either, the code is given with that said.

mod common;

use common::*;
use serde_json::json;

const PY_KILLS_ITSELF: &str = "import os\nprint('up', flush=True)\nos.kill(os.getpid(), 9)\n";

const GO_KILLS_ITSELF: &str = "package main

import \"syscall\"

func main() {
\t_ = syscall.Kill(syscall.Getpid(), syscall.SIGKILL)
}
";

const C_KILLS_ITSELF: &str = "#include <signal.h>

int main(void) {
    raise(SIGKILL);
    return 0;
}
";

/// Launches to the program's end; asserts the viewport, the JSON status
/// and the text status all read `killed by SIGKILL`.
async fn reads_killed(mcp: &Mcp, args: serde_json::Value) {
    let v = mcp.ok("debug_launch", args).await;
    assert!(v.contains("── EXITED, killed by SIGKILL ──"), "{v}");
    let j = mcp.ok("debug_status", json!({"format": "json"})).await;
    assert!(j.contains(r#""killed_by":"SIGKILL""#), "{j}");
    assert!(j.contains(r#""exit_code":null"#), "{j}");
    let sessions = mcp.ok("debug_sessions", json!({})).await;
    assert!(
        !sessions.contains("code 247") && !sessions.contains("code -9"),
        "{sessions}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_python_program_killed_by_sigkill_reads_so() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("k.py", PY_KILLS_ITSELF)]);
    let mcp = mcp_in(ws.path()).await;
    reads_killed(&mcp, json!({"program": "k.py"})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_program_killed_by_sigkill_reads_so() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/k\n\ngo 1.19\n"),
        ("main.go", GO_KILLS_ITSELF),
    ]);
    let mcp = mcp_in(ws.path()).await;
    reads_killed(&mcp, json!({"program": "."})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_c_program_killed_by_sigkill_reads_so_on_gdb() {
    if !common::native::gdb_available() {
        return;
    }
    let ws = workspace(&[("k.c", C_KILLS_ITSELF)]);
    common::native::build_c(&ws.path().join("k.c"), &ws.path().join("k"));
    let mcp = mcp_in(ws.path()).await;
    reads_killed(&mcp, json!({"program": "k", "adapter": "gdb"})).await;
}

/// lldb-dap gives 9 for SIGKILL as for exit(9): the code, and that it may
/// be a signal's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_c_program_killed_on_lldb_says_the_adapter_does_not_tell() {
    if !common::native::lldb_available() {
        return;
    }
    let ws = workspace(&[("k.c", C_KILLS_ITSELF)]);
    common::native::build_c(&ws.path().join("k.c"), &ws.path().join("k"));
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "k", "adapter": "lldb-dap"}),
        )
        .await;
    assert!(
        v.contains("── EXITED with code 9 (the adapter does not say whether a signal ended it) ──"),
        "{v}"
    );
    let j = mcp.ok("debug_status", json!({"format": "json"})).await;
    assert!(j.contains(r#""exit_code":9"#), "{j}");
    assert!(
        j.contains(r#""exit_note":"the adapter does not say whether a signal ended it""#),
        "{j}"
    );
}

/// The TUI's status line says so too; its program runs on the session's
/// terminal, so debugpy's launcher is started by pairdbg (`runInTerminal`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_status_line_says_killed_by_sigkill() {
    if !debugpy_available() || !common::tmux::Tmux::available() {
        return;
    }
    let ws = workspace(&[("k.py", PY_KILLS_ITSELF)]);
    let t = common::tmux::Tmux::start("killed-status", ws.path(), &["--", "k.py"]);
    t.wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    t.keys(&["c"]);
    let s = t
        .wait_for("the end", |s| {
            s.contains("The program was killed by SIGKILL")
        })
        .await;
    assert!(!s.contains("code 247"), "{s}");
}

const GO_WAITS: &str = "package main

import \"fmt\"

func main() {
\tn := 1
\tfmt.Println(n)
}
";

/// A Go program stopped under delve and SIGKILLed from outside reads as
/// ended on the next call, not as the stop it left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_program_killed_from_outside_while_stopped_reads_as_ended() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/k\n\ngo 1.19\n"),
        ("main.go", GO_WAITS),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "breakpoints": [{"file": "main.go", "line": 7}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(7), "{v}");
    // The program delve built and started: the one below dlv that is not dlv.
    let program: Vec<u32> = descendants(mcp.pid)
        .into_iter()
        .filter(|p| comm(*p).is_some_and(|c| c.starts_with("go-debug-bin")))
        .collect();
    assert_eq!(program.len(), 1, "the program: {program:?}");
    // SAFETY: signalling the program this test started.
    unsafe { libc::kill(program[0] as i32, libc::SIGKILL) };
    let left = wait_dead(&program, std::time::Duration::from_secs(5)).await;
    assert!(left.is_empty(), "the program outlived SIGKILL");
    // The program's end is looked for at an interval: a few calls at most.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    let s = loop {
        let s = mcp.ok("debug_status", json!({})).await;
        if !s.contains("STOPPED") || std::time::Instant::now() > deadline {
            break s;
        }
    };
    assert!(s.contains("── EXITED, killed by SIGKILL ──"), "{s}");
}

const JAVA_KILLS_ITSELF: &str = "public class K {
    public static void main(String[] args) throws Exception {
        String me = Long.toString(ProcessHandle.current().pid());
        new ProcessBuilder(\"kill\", \"-9\", me).inheritIO().start().waitFor();
        Thread.sleep(60_000);
    }
}
";

const JAVA_EXITS_137: &str = "public class E {
    public static void main(String[] args) {
        System.exit(137);
    }
}
";

/// Java gives a signal's death as 128 plus the signal; only an exit sends
/// the VM's death event first, which tells the two apart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_java_program_killed_by_sigkill_reads_so_and_an_exit_137_as_its_code() {
    if !java_available() {
        return;
    }
    let ws = workspace(&[("K.java", JAVA_KILLS_ITSELF), ("E.java", JAVA_EXITS_137)]);
    let mcp = mcp_in(ws.path()).await;
    reads_killed(&mcp, json!({"program": "K.java"})).await;
    let v = mcp.ok("debug_launch", json!({"program": "E.java"})).await;
    assert!(v.contains("── EXITED with code 137 ──"), "{v}");
    mcp.close().await;
}

const RUBY_KILLS_ITSELF: &str = "puts 'up'\nProcess.kill(:KILL, Process.pid)\nsleep 60\n";
const RUBY_LEAVES_AT_ONCE: &str = "puts 'up'\nexit!(3)\n";

/// rdbg runs in the program's process: its end is read from that process
/// when no exit hook could write it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ruby_program_killed_by_sigkill_reads_so_and_exit_bang_as_its_code() {
    if !ruby_available() {
        return;
    }
    let ws = workspace(&[("k.rb", RUBY_KILLS_ITSELF), ("e.rb", RUBY_LEAVES_AT_ONCE)]);
    let mcp = mcp_in(ws.path()).await;
    reads_killed(&mcp, json!({"program": "k.rb"})).await;
    let v = mcp.ok("debug_launch", json!({"program": "e.rb"})).await;
    assert!(v.contains("── EXITED with code 3 ──"), "{v}");
    mcp.close().await;
}
