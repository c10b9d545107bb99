//! The "remote machine" of the remote attach tests: a copy of the program
//! in a directory outside the workspace, under its debug server on a
//! loopback port, and how to tell that the program runs freely.

use std::process::{Command, Stdio};
use std::time::Duration;

use super::{Running, comm, descendants, stat};

/// A loopback port nothing listens on now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// The "remote machine": a directory outside the workspace holding its
/// own copy of the program.
pub fn remote_copy(name: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("remote dir");
    std::fs::create_dir_all(dir.path().join("app")).expect("mkdir app");
    std::fs::write(dir.path().join("app").join(name), text).expect("write the remote copy");
    dir
}

pub fn app(remote: &tempfile::TempDir) -> String {
    remote.path().join("app").display().to_string()
}

/// Whether a socket listens on the loopback port, read from /proc: a
/// connection to find out would count as the debug server's one client.
pub fn listening(port: u16) -> bool {
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
pub async fn wait_listening(port: u16, server: &mut Running) {
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
pub fn program_pid(server: u32, comm_name: &str) -> u32 {
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
pub fn switches(pid: u32) -> u64 {
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
pub async fn runs_freely(pid: u32) -> bool {
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

/// `python -m debugpy --listen 127.0.0.1:PORT --wait-for-client prog.py`
/// in the remote copy's directory, once it listens; with the program's pid.
pub async fn debugpy_server(remote: &tempfile::TempDir, port: u16) -> (Running, u32) {
    let mut server = Running(
        Command::new("python3")
            .args(["-X", "frozen_modules=off", "-m", "debugpy", "--listen"])
            .arg(format!("127.0.0.1:{port}"))
            .args(["--wait-for-client", "prog.py"])
            .current_dir(remote.path().join("app"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start debugpy"),
    );
    wait_listening(port, &mut server).await;
    let pid = program_pid(server.0.id(), "python3");
    (server, pid)
}

/// `node INSPECT=127.0.0.1:PORT prog.js` (`--inspect` or `--inspect-brk`)
/// in the remote copy's directory, once it listens; with the program's pid.
pub async fn node_server(remote: &tempfile::TempDir, port: u16, inspect: &str) -> (Running, u32) {
    let mut server = Running(
        Command::new("node")
            .arg(format!("{inspect}=127.0.0.1:{port}"))
            .arg("prog.js")
            .current_dir(remote.path().join("app"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start node"),
    );
    wait_listening(port, &mut server).await;
    let pid = server.0.id();
    (server, pid)
}

/// A Node program that ticks for ever; `tick`'s body is lines 3 and 4.
pub const TICKING_JS: &str = "\
const state = { count: 0 };
function tick() {
  let count = state.count + 1;
  state.count = count;
}
setInterval(tick, 10);
";
