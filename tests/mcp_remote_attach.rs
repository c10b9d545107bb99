//! Attaching over the network to a program already running under its debug
//! server (debugpy, delve, lldb-server), on loopback ports. The program
//! runs from a copy in another directory (the "remote" layout) and
//! path_mappings tie it to the workspace: a breakpoint set on the workspace
//! file binds there, and the stop names the workspace file and its line.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::native::lldb_available;
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

/// A loopback port nothing listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// The "remote machine": a directory outside the workspace holding its
/// own copy of the program.
fn remote_copy(name: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("remote dir");
    std::fs::create_dir_all(dir.path().join("app")).expect("mkdir app");
    std::fs::write(dir.path().join("app").join(name), text).expect("write the remote copy");
    dir
}

fn app(remote: &tempfile::TempDir) -> String {
    remote.path().join("app").display().to_string()
}

/// Whether a socket listens on the loopback port, read from /proc: a
/// connection to find out would count as the debug server's one client.
fn listening(port: u16) -> bool {
    let want = format!("0100007F:{port:04X}");
    std::fs::read_to_string("/proc/net/tcp")
        .unwrap_or_default()
        .lines()
        .skip(1)
        .any(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f.len() > 3 && f[1] == want && f[3] == "0A"
        })
}

/// Waits until the debug server listens on the port.
async fn wait_listening(port: u16, server: &mut Running) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while !listening(port) {
        if let Some(st) = server.0.try_wait().expect("wait") {
            panic!("the debug server exited: {st}");
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "nothing listened on {port}"
        );
        let _ = tokio::time::timeout(Duration::from_millis(20), std::future::pending::<()>()).await;
    }
}

/// The program's process: the server itself, or the one it started.
fn program_pid(server: u32, comm_name: &str) -> u32 {
    if comm(server).as_deref() == Some(comm_name) {
        return server;
    }
    descendants(server)
        .into_iter()
        .find(|p| comm(*p).as_deref() == Some(comm_name))
        .unwrap_or_else(|| panic!("no {comm_name} under the debug server {server}"))
}

/// Context switches of all the process's threads: a looping program that
/// sleeps adds to them, a stopped one does not.
fn switches(pid: u32) -> u64 {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("status")).ok())
        .flat_map(|s| {
            s.lines()
                .filter_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
                .filter_map(|n| n.trim().parse::<u64>().ok())
                .collect::<Vec<_>>()
        })
        .sum()
}

/// Not held by a debugger: it goes on looping (a breakpoint left behind
/// would stop it again at once).
async fn runs_freely(pid: u32) -> bool {
    let start = switches(pid);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let stopped = stat(pid).is_none_or(|(_, s)| matches!(s, 't' | 'T' | 'Z'));
        if switches(pid) >= start + 20 && !stopped {
            return true;
        }
        if tokio::time::Instant::now() > deadline {
            return false;
        }
        let _ = tokio::time::timeout(Duration::from_millis(20), std::future::pending::<()>()).await;
    }
}

/// Attaches with the mapping, checks the stop on the workspace file, reads
/// `count`, then ends the session as asked and says what the program did.
async fn attach_stop_and_end(
    ws: &Path,
    attach: Value,
    file: &str,
    line: u64,
    source: &str,
) -> String {
    let mcp = mcp_in(ws).await;
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
        let mut server = Running(
            Command::new("python3")
                .args(["-X", "frozen_modules=off", "-m", "debugpy", "--listen"])
                .arg(format!("127.0.0.1:{port}"))
                .args(["--wait-for-client", "prog.py"])
                .current_dir(remote.path().join("app"))
                .stdout(Stdio::null())
                .spawn()
                .expect("start debugpy"),
        );
        wait_listening(port, &mut server).await;
        let pid = program_pid(server.0.id(), "python3");
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
            Command::new("dlv")
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
