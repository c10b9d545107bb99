//! Nothing outlives pairdbg, however it ends: a program that double-forks a
//! detached grandchild (a session of its own, re-parented away from the
//! debuggee) leaves no process behind when pairdbg is SIGKILLed, SIGTERMed
//! or ends the session, on the MCP server and in the TUI. Also the keeper's
//! own contract: the lifeline, and the adapter's exit status passed on.

mod common;

use std::os::fd::AsRawFd;
use std::process::Command;
use std::time::Duration;

use common::tmux::{Tmux, current_line};
use common::*;
use serde_json::json;

/// Stops at line 13, after the fork: the grandchild, a daemon in a session
/// of its own with its stdio on /dev/null and no other file open (else the
/// debugger would wait for it), sleeps on; the debuggee's own child is gone.
const DETACHER: &str = "\
import os, sys, time
pid = os.fork()
if pid == 0:
    os.setsid()
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, 1024)
        time.sleep(600)
    os._exit(0)
os.waitpid(pid, 0)
code = int(sys.argv[1]) if len(sys.argv) > 1 else 0
if code:
    os._exit(code)
time.sleep(600)
";
const DETACHER_STOP: u64 = 13;

/// The same in C: stops at line 16 with the detached grandchild asleep.
const C_DETACHER: &str = r#"#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        if (fork() == 0) {
            sleep(600);
            return 0;
        }
        _exit(0);
    }
    waitpid(pid, 0, 0);
    int code = argc > 1 ? atoi(argv[1]) : 0;
    if (code)
        return code;
    sleep(600);
    return 0;
}
"#;
const C_DETACHER_STOP: u64 = 16;

/// Every process running the program at `path` (the debuggee and its
/// grandchild), killed when the test ends so that a failure leaks nothing.
struct Program(String);

impl Program {
    fn at(path: &std::path::Path) -> Program {
        Program(path.display().to_string())
    }

    fn running(&self) -> Vec<u32> {
        pids_matching(&self.0)
    }

    /// The debuggee and its grandchild are both up, in two sessions.
    fn assert_detached(&self) {
        let pids = self.running();
        assert!(
            pids.len() >= 2,
            "the debuggee and its detached grandchild: {pids:?}"
        );
        let sessions: std::collections::HashSet<_> = pids
            .iter()
            .map(|p| unsafe { libc::getsid(*p as i32) })
            .collect();
        assert!(
            sessions.len() >= 2,
            "the grandchild left the debuggee's session"
        );
    }

    async fn assert_gone_within(&self, within: Duration, after: &str) {
        let left = wait_gone(&self.0, within).await;
        assert!(left.is_empty(), "left running {after}: {left:?}");
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        for pid in self.running() {
            // SAFETY: ending a process this test started, by pid.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
        }
    }
}

fn sigkill(pid: u32) {
    // SAFETY: signalling a process this test started.
    unsafe { libc::kill(pid as i32, libc::SIGKILL) };
}

/// `pairdbg mcp` stopped in DETACHER after its fork.
async fn python_stopped(ws: &std::path::Path, args: &[&str]) -> (Mcp, Program) {
    let mcp = mcp_in(ws).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "detacher.py", "args": args,
                   "breakpoints": [{"file": "detacher.py", "line": DETACHER_STOP}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(DETACHER_STOP), "{v}");
    let program = Program::at(&ws.join("detacher.py"));
    program.assert_detached();
    (mcp, program)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_of_the_mcp_server_leaves_no_python_process() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("detacher.py", DETACHER)]);
    let (mcp, program) = python_stopped(ws.path(), &[]).await;
    sigkill(mcp.pid);
    program
        .assert_gone_within(Duration::from_secs(5), "after SIGKILL")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_of_the_mcp_server_leaves_no_python_process() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("detacher.py", DETACHER)]);
    let (mcp, program) = python_stopped(ws.path(), &[]).await;
    // SAFETY: signalling the server this test started.
    unsafe { libc::kill(mcp.pid as i32, libc::SIGTERM) };
    program
        .assert_gone_within(Duration::from_secs(5), "after SIGTERM")
        .await;
    assert!(
        wait_dead(&[mcp.pid], Duration::from_secs(10))
            .await
            .is_empty(),
        "pairdbg itself should exit"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminate_leaves_no_python_process_and_exit_codes_still_arrive() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("detacher.py", DETACHER)]);
    let (mcp, program) = python_stopped(ws.path(), &[]).await;
    let r = mcp.ok("debug_terminate", json!({})).await;
    assert!(r.contains("Session s1 ended"), "{r}");
    program
        .assert_gone_within(Duration::from_secs(5), "after debug_terminate")
        .await;

    // The program's own exit still reports its code, and the grandchild
    // it left behind ends with the session.
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "detacher.py", "args": ["3"],
                   "breakpoints": [{"file": "detacher.py", "line": DETACHER_STOP}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(DETACHER_STOP), "{v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED with code 3"), "{v}");
    mcp.close().await;
    program
        .assert_gone_within(Duration::from_secs(5), "after the client left")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_of_the_mcp_server_leaves_no_native_process() {
    if !common::native::lldb_available() {
        return;
    }
    let ws = workspace(&[("detacher.c", C_DETACHER)]);
    let bin = ws.path().join("detacher");
    common::native::build_c(&ws.path().join("detacher.c"), &bin);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "detacher",
                   "breakpoints": [{"file": "detacher.c", "line": C_DETACHER_STOP}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(C_DETACHER_STOP), "{v}");
    let program = Program::at(&bin);
    program.assert_detached();
    sigkill(mcp.pid);
    program
        .assert_gone_within(Duration::from_secs(5), "after SIGKILL")
        .await;
}

/// A Go program that starts a detached `sleep` (a session of its own,
/// released), then stops at line 16.
const GO_DETACHER: &str = "package main

import (
\t\"os\"
\t\"os/exec\"
\t\"syscall\"
\t\"time\"
)

func main() {
\tcmd := exec.Command(\"sleep\", os.Args[1])
\tcmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
\t_ = cmd.Start()
\tstarted := cmd.Process.Release() == nil
\t_ = started
\ttime.Sleep(600 * time.Second)
}
";
const GO_DETACHER_STOP: u64 = 16;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_of_the_mcp_server_leaves_no_go_process() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/detacher\n\ngo 1.19\n"),
        ("main.go", GO_DETACHER),
    ]);
    // The detached sleep is told apart by its odd duration.
    let seconds = format!("600.{}", std::process::id());
    let sleeper = Program(format!("sleep {seconds}"));
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "args": [seconds],
                   "breakpoints": [{"file": "main.go", "line": GO_DETACHER_STOP}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(GO_DETACHER_STOP), "{v}");
    let up = sleeper.running();
    assert_eq!(up.len(), 1, "the detached sleep: {up:?}");
    // SAFETY: a plain query about a live pid.
    let sid = unsafe { libc::getsid(up[0] as i32) };
    assert_eq!(sid, up[0] as i32, "the sleep leads a session of its own");
    let tree = descendants(mcp.pid);
    sigkill(mcp.pid);
    sleeper
        .assert_gone_within(Duration::from_secs(5), "after SIGKILL")
        .await;
    let left = wait_dead(&tree, Duration::from_secs(5)).await;
    assert!(
        left.is_empty(),
        "delve or the program left running: {left:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_native_exit_code_still_arrives_and_nothing_is_left() {
    if !common::native::lldb_available() {
        return;
    }
    let ws = workspace(&[("detacher.c", C_DETACHER)]);
    let bin = ws.path().join("detacher");
    common::native::build_c(&ws.path().join("detacher.c"), &bin);
    let program = Program::at(&bin);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "detacher", "args": ["4"]}),
        )
        .await;
    assert!(v.contains("EXITED with code 4"), "{v}");
    mcp.close().await;
    program
        .assert_gone_within(Duration::from_secs(5), "after the client left")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_of_the_tui_leaves_no_python_process() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("detacher.py", DETACHER)]);
    let stop = format!("detacher.py:{DETACHER_STOP}");
    let t = Tmux::start(
        "keeper-kill",
        ws.path(),
        &["--break", &stop, "--", "detacher.py"],
    );
    t.wait_for("the stop after the fork", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(DETACHER_STOP as u32)
    })
    .await;
    let program = Program::at(&ws.path().join("detacher.py"));
    program.assert_detached();
    let pane = t.pane_pid().expect("the pane's process");
    let pairdbg = std::iter::once(pane)
        .chain(descendants(pane))
        .find(|p| comm(*p).as_deref() == Some("pairdbg"))
        .expect("pairdbg in the pane");
    sigkill(pairdbg);
    program
        .assert_gone_within(Duration::from_secs(5), "after SIGKILL of the TUI")
        .await;
}

/// A Node program that would run for ten minutes.
const NODE_SLEEPER: &str = "setTimeout(() => {}, 600000);\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_while_a_child_connection_starts_leaves_no_node_process() {
    let Some(data) = js_debug_available() else {
        return;
    };
    let ws = workspace(&[("sleeper.js", NODE_SLEEPER)]);
    let state = tempfile::tempdir().expect("state dir");
    // The child connection is held back: the program waits for its
    // debugger when pairdbg dies.
    let delay = std::path::Path::new("60000");
    let mcp = mcp_with_env(
        ws.path(),
        &[],
        &[
            ("XDG_DATA_HOME", &data),
            ("XDG_STATE_HOME", state.path()),
            ("PAIRDBG_TEST_CHILD_DELAY_MS", delay),
        ],
    )
    .await;
    let running = || node_running(ws.path(), "sleeper.js");
    let launch = mcp.call(
        "debug_launch",
        json!({"program": "sleeper.js", "timeout_ms": 60000}),
    );
    let kill = async {
        // js-debug's watchdog for the program is what asks for the child.
        let watchdog = || {
            let tree = descendants(mcp.pid);
            pids_matching("watchdog.js")
                .into_iter()
                .filter(|p| tree.contains(p))
                .count()
        };
        let up = poll(running, |p| !p.is_empty(), Duration::from_secs(30)).await;
        assert!(!up.is_empty(), "node never ran the program");
        let asked = poll(watchdog, |n| *n > 0, Duration::from_secs(30)).await;
        assert!(asked > 0, "js-debug never took up the program");
        // The launch connection only: the child's is still held back.
        assert_eq!(tcp_connections(mcp.pid), 1, "pairdbg's connections");
        sigkill(mcp.pid);
    };
    tokio::select! {
        (text, _) = launch => panic!("the launch ended before pairdbg was killed: {text}"),
        () = kill => {}
    }
    let left = poll(running, |p| p.is_empty(), Duration::from_secs(10)).await;
    assert!(left.is_empty(), "node left running after SIGKILL: {left:?}");
}

/// Established TCP connections the process holds, from /proc.
fn tcp_connections(pid: u32) -> usize {
    let inodes: std::collections::HashSet<String> = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| std::fs::read_link(e.path()).ok())
        .filter_map(|l| {
            let l = l.to_string_lossy().to_string();
            Some(l.strip_prefix("socket:[")?.strip_suffix(']')?.to_string())
        })
        .collect();
    ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .filter_map(|t| std::fs::read_to_string(t).ok())
        .flat_map(|text| {
            text.lines()
                .skip(1)
                .map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        })
        .filter(|f| f.len() > 9 && f[3] == "01" && inodes.contains(&f[9]))
        .count()
}

// ---- the keeper alone -------------------------------------------------------

/// `pairdbg __keeper -- sh -c SCRIPT` with a lifeline; returns the keeper
/// and the lifeline's write end.
fn start_keeper(script: &str) -> (std::process::Child, std::os::fd::OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: a plain pipe; both ends are owned below.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    // SAFETY: fresh fds from pipe2, owned once each.
    let (read, write) = unsafe {
        use std::os::fd::FromRawFd;
        (
            std::os::fd::OwnedFd::from_raw_fd(fds[0]),
            std::os::fd::OwnedFd::from_raw_fd(fds[1]),
        )
    };
    let raw = read.as_raw_fd();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pairdbg"));
    cmd.args(["__keeper", "--", "sh", "-c", script])
        .env("PAIRDBG_LIFELINE_FD", raw.to_string());
    // SAFETY: fcntl is async-signal-safe.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(move || {
            libc::fcntl(raw, libc::F_SETFD, 0);
            Ok(())
        });
    }
    let child = cmd.spawn().expect("spawn the keeper");
    drop(read);
    (child, write)
}

/// Waits for a line of `needle` processes to come up (the script's start).
async fn wait_up(needle: &str, count: usize) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while pids_matching(needle).len() < count {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{needle} never started"
        );
        let _ = tokio::time::timeout(Duration::from_millis(20), std::future::pending::<()>()).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_keeper_ends_the_whole_tree_when_its_lifeline_closes() {
    // A detached grandchild and a plain child, told apart by their odd
    // durations (spelled so that the shell's own command line does not match).
    let d = format!("600.{}", std::process::id());
    let tag = format!("sleep {d}");
    let script = format!("d={d}; (setsid sleep ${{d}}1 &); sleep ${{d}}2");
    let (mut keeper, lifeline) = start_keeper(&script);
    wait_up(&tag, 2).await;
    drop(lifeline);
    let left = wait_gone(&tag, Duration::from_secs(5)).await;
    assert!(left.is_empty(), "left after the lifeline closed: {left:?}");
    let status = keeper.wait().expect("the keeper's status");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGKILL), "{status:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_keeper_exits_as_the_adapter_did_and_ends_what_it_left() {
    let d = format!("700.{}", std::process::id());
    let tag = format!("sleep {d}");
    let flag = tempfile::NamedTempFile::new().expect("flag file");
    let flag = flag.path().to_path_buf();
    let _ = std::fs::remove_file(&flag);
    // Exits once the detached process has started.
    let script = format!(
        "d={d}; (setsid sh -c \"touch {f}; exec sleep ${{d}}1\" &); while [ ! -e {f} ]; do :; done; exit 3",
        f = flag.display()
    );
    let (mut keeper, _lifeline) = start_keeper(&script);
    let status = keeper.wait().expect("the keeper's status");
    assert_eq!(status.code(), Some(3), "{status:?}");
    let left = wait_gone(&tag, Duration::from_secs(5)).await;
    assert!(left.is_empty(), "left after the adapter exited: {left:?}");
    let _ = std::fs::remove_file(&flag);

    let (mut keeper, _lifeline) = start_keeper("kill -TERM $$");
    let status = keeper.wait().expect("the keeper's status");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");
}

// ---- the keeper killed --------------------------------------------------------

/// The keepers below `root`, each with the processes below it.
fn keepers_below(root: u32) -> Vec<(u32, Vec<u32>)> {
    descendants(root)
        .into_iter()
        .filter(|p| {
            std::fs::read(format!("/proc/{p}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains("__keeper"))
        })
        .map(|k| (k, descendants(k)))
        .collect()
}

/// SIGKILLs each keeper below pairdbg, one at a time, the adapter's first;
/// then everything that ran below them is gone, and pairdbg lives on.
async fn kill_keepers_and_wait(mcp: &Mcp, program: &Program) {
    let keepers = keepers_below(mcp.pid);
    assert!(!keepers.is_empty(), "the adapter runs through a keeper");
    let below: Vec<u32> = keepers.iter().flat_map(|(_, b)| b.clone()).collect();
    assert!(!below.is_empty(), "the adapter below its keeper");
    for (keeper, _) in keepers.iter().rev() {
        sigkill(*keeper);
    }
    program
        .assert_gone_within(Duration::from_secs(5), "after SIGKILL of the keeper")
        .await;
    let left = wait_dead(&below, Duration::from_secs(5)).await;
    assert!(left.is_empty(), "left running below the keeper: {left:?}");
    assert!(alive(mcp.pid), "pairdbg should outlive its keeper");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_of_the_keeper_leaves_no_python_process() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("detacher.py", DETACHER)]);
    let (mcp, program) = python_stopped(ws.path(), &[]).await;
    kill_keepers_and_wait(&mcp, &program).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_of_the_keeper_leaves_no_go_process() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/detacher\n\ngo 1.19\n"),
        ("main.go", GO_DETACHER),
    ]);
    let seconds = format!("601.{}", std::process::id());
    let sleeper = Program(format!("sleep {seconds}"));
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "args": [seconds],
                   "breakpoints": [{"file": "main.go", "line": GO_DETACHER_STOP}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(GO_DETACHER_STOP), "{v}");
    assert_eq!(sleeper.running().len(), 1, "the detached sleep");
    kill_keepers_and_wait(&mcp, &sleeper).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_of_the_keeper_leaves_no_native_process() {
    if !common::native::lldb_available() {
        return;
    }
    let ws = workspace(&[("detacher.c", C_DETACHER)]);
    let bin = ws.path().join("detacher");
    common::native::build_c(&ws.path().join("detacher.c"), &bin);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "detacher", "adapter": "lldb-dap",
                   "breakpoints": [{"file": "detacher.c", "line": C_DETACHER_STOP}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(C_DETACHER_STOP), "{v}");
    let program = Program::at(&bin);
    program.assert_detached();
    kill_keepers_and_wait(&mcp, &program).await;
}
