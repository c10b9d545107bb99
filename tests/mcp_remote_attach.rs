//! Attaching over the network to a program already running under its debug
//! server (debugpy, delve, lldb-server, Node's inspector), on loopback ports. The program
//! runs from a copy in another directory (the "remote" layout) and
//! path_mappings tie it to the workspace: a breakpoint set on the workspace
//! file binds there, and the stop names the workspace file and its line.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::native::lldb_available;
use common::remote::*;
use common::*;
use serde_json::{Value, json};

const PY: &str = "\
import time
count = 0
while True:
    count += 1
    time.sleep(0.01)
";

const GO: &str = "\
package main

import \"time\"

func main() {
	count := 0
	for {
		count += 1
		time.Sleep(10 * time.Millisecond)
	}
}
";

const C: &str = "\
#include <unistd.h>

int main(void) {
    int count = 0;
    for (;;) {
        count += 1;
        usleep(10000);
    }
    return count;
}
";

/// Attaches with the mapping, checks the stop on the workspace file, reads
/// `count`, then ends the session as asked and says what the program did.
async fn attach_stop_and_end(
    ws: &Path,
    attach: Value,
    file: &str,
    line: u64,
    source: &str,
) -> String {
    attach_stop_and_end_on(mcp_in(ws).await, attach, file, line, source).await
}

async fn attach_stop_and_end_on(
    mcp: Mcp,
    attach: Value,
    file: &str,
    line: u64,
    source: &str,
) -> String {
    let mut args = attach;
    args["breakpoints"] = json!([{"file": file, "line": line}]);
    args["timeout_ms"] = json!(60000);
    let v = mcp.ok("debug_attach", args.clone()).await;
    assert!(
        v.contains(&format!("── STOPPED at {file}:{line}")),
        "the stop names the workspace file: {v}"
    );
    assert!(v.contains(source), "the source line is shown: {v}");
    let count: u64 = local(&v, "count")
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("count is a number: {v}"));
    assert!(count < 1_000_000, "{v}");
    let t = mcp.ok("debug_terminate", json!({})).await;
    mcp.close().await;
    t
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_remote_attach_maps_paths_and_detach_leaves_it_running() {
    if !debugpy_available() {
        return;
    }
    for end_it in [false, true] {
        let ws = workspace(&[("prog.py", PY)]);
        let remote = remote_copy("prog.py", PY);
        let port = free_port();
        let (_server, pid) = debugpy_server(&remote, port).await;
        let t = attach_stop_and_end(
            ws.path(),
            json!({"host": "127.0.0.1", "port": port, "language": "python",
                   "terminate_debuggee": end_it,
                   "path_mappings": [{"local": ".", "remote": app(&remote)}]}),
            "prog.py",
            4,
            "count += 1",
        )
        .await;
        check_end(t, pid, end_it).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_remote_attach_maps_paths_and_detach_leaves_it_running() {
    if !go_available() {
        return;
    }
    for end_it in [false, true] {
        let ws = workspace(&[("main.go", GO)]);
        let remote = remote_copy("main.go", GO);
        let dir = remote.path().join("app");
        std::fs::write(dir.join("go.mod"), "module example.com/remote\n\ngo 1.19\n")
            .expect("go.mod");
        let built = Command::new("go")
            .args(["build", "-gcflags=all=-N -l", "-o", "prog", "."])
            .current_dir(&dir)
            .status()
            .expect("go build");
        assert!(built.success());
        let port = free_port();
        let mut server = Running(
            // The delve pairdbg runs: on a clean machine it is in pairdbg's
            // data directory, not on PATH.
            Command::new(pairdbg::adapters::delve::find_dlv().expect("dlv"))
                .args([
                    "exec",
                    "./prog",
                    "--headless",
                    "--accept-multiclient",
                    "--listen",
                ])
                .arg(format!("127.0.0.1:{port}"))
                .current_dir(&dir)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("start dlv"),
        );
        wait_listening(port, &mut server).await;
        let pid = program_pid(server.0.id(), "prog");
        let t = attach_stop_and_end(
            ws.path(),
            json!({"host": "127.0.0.1", "port": port, "language": "go",
                   "terminate_debuggee": end_it,
                   "path_mappings": [{"local": ".", "remote": app(&remote)}]}),
            "main.go",
            8,
            "count += 1",
        )
        .await;
        check_end(t, pid, end_it).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_remote_attach_maps_paths_and_detach_leaves_it_running() {
    if !lldb_available() || !tool_available("lldb-server-22") {
        return;
    }
    for end_it in [false, true] {
        let ws = workspace(&[("prog.c", C)]);
        let remote = remote_copy("prog.c", C);
        let dir = remote.path().join("app");
        // Built on the remote side; the workspace holds the same binary.
        let built = Command::new("cc")
            .args(["-g", "-O0", "-o", "prog", "prog.c"])
            .current_dir(&dir)
            .status()
            .expect("run cc");
        assert!(built.success());
        let _ = std::fs::remove_file(ws.path().join("prog"));
        std::fs::copy(dir.join("prog"), ws.path().join("prog")).expect("copy the binary");
        let port = free_port();
        let mut server = Running(
            Command::new("lldb-server-22")
                .arg("gdbserver")
                .arg(format!("127.0.0.1:{port}"))
                .args(["--", "./prog"])
                .current_dir(&dir)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("start lldb-server"),
        );
        wait_listening(port, &mut server).await;
        let pid = program_pid(server.0.id(), "prog");
        let t = attach_stop_and_end(
            ws.path(),
            json!({"host": "127.0.0.1", "port": port, "language": "c", "program": "prog",
                   "terminate_debuggee": end_it,
                   "path_mappings": [{"local": ".", "remote": app(&remote)}]}),
            "prog.c",
            6,
            "count += 1;",
        )
        .await;
        check_end(t, pid, end_it).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn node_remote_attach_maps_paths_and_detach_leaves_it_running() {
    let Some(data) = js_debug_available() else {
        return;
    };
    // `--inspect-brk` holds the program before its first line: the attach
    // lets it run on to the breakpoint.
    for (end_it, inspect) in [(false, "--inspect"), (true, "--inspect-brk")] {
        let ws = workspace(&[("prog.js", TICKING_JS)]);
        let remote = remote_copy("prog.js", TICKING_JS);
        let port = free_port();
        let (_server, pid) = node_server(&remote, port, inspect).await;
        let mcp = mcp_with_env(ws.path(), &[], &[("XDG_DATA_HOME", &data)]).await;
        let t = attach_stop_and_end_on(
            mcp,
            json!({"host": "127.0.0.1", "port": port, "language": "node",
                   "terminate_debuggee": end_it,
                   "path_mappings": [{"local": ".", "remote": app(&remote)}]}),
            "prog.js",
            4,
            "state.count = count;",
        )
        .await;
        check_end(t, pid, end_it).await;
    }
}

/// Detached, the program runs on (and the test ends it); terminated, it is
/// gone.
async fn check_end(reply: String, pid: u32, ended: bool) {
    if ended {
        let left = wait_dead(&[pid], Duration::from_secs(10)).await;
        assert!(
            left.is_empty(),
            "terminate_debuggee left it running: {reply}"
        );
    } else {
        assert!(
            reply.contains("detached and keeps running"),
            "terminate says it detached: {reply}"
        );
        assert!(runs_freely(pid).await, "the program: {:?}", stat(pid));
        unsafe { libc::kill(pid as i32, libc::SIGKILL) };
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remote_attach_errors_name_the_field_and_the_limit() {
    let ws = workspace(&[("prog.py", PY)]);
    let mcp = mcp_in(ws.path()).await;
    let remote = |extra: Value| {
        let mut a = json!({"host": "127.0.0.1", "port": 5678, "language": "python"});
        for (k, v) in extra.as_object().unwrap() {
            a[k] = v.clone();
        }
        a
    };
    for (args, field, says) in [
        (json!({}), "pid", "give pid, or host and port"),
        (
            remote(json!({"port": 0})),
            "port",
            "0 is out of range; use 1 to 65535",
        ),
        (remote(json!({"port": 70000})), "port", "use 1 to 65535"),
        (
            remote(json!({"host": "a b"})),
            "host",
            "is not a host name or IP address",
        ),
        (
            json!({"host": "127.0.0.1", "port": 5678}),
            "language",
            "a remote attach needs language",
        ),
        (
            remote(json!({"path_mappings": [{"local": "/etc", "remote": "/app"}]})),
            "path_mappings[0].local",
            "outside the workspace",
        ),
        (
            remote(json!({"path_mappings": [{"local": ".", "remote": ""}]})),
            "path_mappings[0].remote",
            "the path is empty",
        ),
        (remote(json!({"pid": 1})), "pid", "not both"),
    ] {
        let msg = mcp.fails("debug_attach", args.clone()).await;
        assert!(msg.contains(field) && msg.contains(says), "{args}: {msg}");
    }
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_on_a_remote_attach_detaches_and_attaches_again() {
    if !debugpy_available() {
        return;
    }
    // Even an attach that ends the program with the session lets it go on
    // a restart.
    for end_it in [false, true] {
        restart_reattaches(end_it).await;
    }
}

async fn restart_reattaches(end_it: bool) {
    let ws = workspace(&[("prog.py", PY)]);
    let remote = remote_copy("prog.py", PY);
    let port = free_port();
    let (_server, pid) = debugpy_server(&remote, port).await;
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_attach",
            json!({"host": "127.0.0.1", "port": port, "language": "python",
                   "terminate_debuggee": end_it,
                   "path_mappings": [{"local": ".", "remote": app(&remote)}],
                   "breakpoints": [{"file": "prog.py", "line": 4}], "timeout_ms": 60000}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(4), "{v}");
    let before: u64 = local(&v, "count").and_then(|c| c.parse().ok()).unwrap();
    let v = mcp.ok("debug_restart", json!({"timeout_ms": 60000})).await;
    assert_eq!(stopped_line(&v), Some(4), "attached again and stopped: {v}");
    assert!(alive(pid), "the restart ended the remote program: {v}");
    // The same process, counted on: a new program would stop at 0 again.
    let after: u64 = local(&v, "count").and_then(|c| c.parse().ok()).unwrap();
    assert!(after > before, "{before} then {after}: {v}");
    let t = mcp.ok("debug_terminate", json!({})).await;
    mcp.close().await;
    check_end(t, pid, end_it).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_debug_server_fails_fast_and_names_its_address() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PY)]);
    let mcp = mcp_in(ws.path()).await;
    let port = free_port();
    let started = std::time::Instant::now();
    let msg = mcp
        .fails(
            "debug_attach",
            json!({"host": "127.0.0.1", "port": port, "language": "python"}),
        )
        .await;
    let took = started.elapsed();
    assert!(
        msg.contains(&format!("127.0.0.1:{port}")),
        "the message names host:port: {msg}"
    );
    assert!(took < Duration::from_secs(5), "took {took:?}: {msg}");
    mcp.close().await;
}
