//! `pairdbg ctl`: the real binary from a shell, on a real debugpy. With no
//! pairdbg in the workspace a launch starts a headless host, and the next
//! commands act on its session; with a TUI running, the commands drive the
//! person's session and show in its activity pane.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::tmux::{Tmux, current_line};
use common::*;

/// What one `pairdbg ctl` printed, and its exit code.
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `pairdbg ctl ARGS` in `ws`, with discovery files under `runtime`
/// (the user's own when `None`).
async fn ctl(ws: &Path, runtime: Option<&Path>, args: &[&str]) -> Ran {
    ctl_with(ws, runtime, &[], args).await
}

/// `pairdbg ctl ARGS` with `env` set (a host it starts inherits it).
async fn ctl_with(ws: &Path, runtime: Option<&Path>, env: &[(&str, &str)], args: &[&str]) -> Ran {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"));
    cmd.arg("ctl")
        .args(args)
        .current_dir(ws)
        .envs(env.iter().copied());
    if let Some(r) = runtime {
        cmd.env("XDG_RUNTIME_DIR", r);
    }
    let out = tokio::time::timeout(Duration::from_secs(90), cmd.output())
        .await
        .unwrap_or_else(|_| panic!("pairdbg ctl {args:?} did not end within 90 s"))
        .expect("run pairdbg ctl");
    Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).to_string(),
        stderr: String::from_utf8_lossy(&out.stderr).to_string(),
    }
}

/// The hosts published under a runtime directory, by pid.
fn published(runtime: &Path) -> Vec<u32> {
    std::fs::read_dir(runtime.join("pairdbg"))
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .filter_map(|p| std::fs::read_to_string(p).ok())
                .filter_map(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .filter_map(|v| v["pid"].as_u64().map(|p| p as u32))
                .collect()
        })
        .unwrap_or_default()
}

/// Ends whatever host a test started, however the test ends.
struct Hosts(PathBuf);

impl Drop for Hosts {
    fn drop(&mut self) {
        for pid in published(&self.0) {
            // SAFETY: kill only sends a signal.
            unsafe { libc::kill(pid as i32, libc::SIGTERM) };
        }
    }
}

const LOOP: &str = "\
import time
n = 0
while True:
    n += 1
    time.sleep(0.05)
";

#[tokio::test(flavor = "multi_thread")]
async fn the_first_command_starts_a_host_that_later_commands_share_until_stop() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("app.py", ADD_PROGRAM)]);
    let runtime = tempfile::tempdir().unwrap();
    let rt = Some(runtime.path());
    let _hosts = Hosts(runtime.path().to_path_buf());
    let here = ws.path();

    // A step with no session starts the host, and is refused there.
    let no_session = ctl(here, rt, &["step"]).await;
    assert_eq!(no_session.code, 1, "{}", no_session.stderr);
    assert!(
        no_session.stderr.contains("pairdbg ctl launch"),
        "{}",
        no_session.stderr
    );
    let first = published(runtime.path());
    assert_eq!(first.len(), 1, "the step started no host");

    let r = ctl(here, rt, &["launch", "app.py", "--break", "app.py:2"]).await;
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("── STOPPED at app.py:2 (add) ──"),
        "{}",
        r.stdout
    );
    let hosts = published(runtime.path());
    assert_eq!(hosts, first, "the launch went to the step's host");
    let tree = pids_matching(&here.to_string_lossy());
    assert!(tree.contains(&hosts[0]), "{tree:?} {hosts:?}");

    // Each command is a new process; the session is the host's.
    let r = ctl(here, rt, &["step"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(stopped_line(&r.stdout), Some(3), "{}", r.stdout);
    assert!(r.stdout.contains("\n[session s1 · epoch "), "{}", r.stdout);
    let r = ctl(here, rt, &["eval", "total", "*", "2"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("total * 2 = 6"), "{}", r.stdout);
    let r = ctl(here, rt, &["vars"]).await;
    assert!(
        squash(&r.stdout).contains("total = 3 (int)"),
        "{}",
        r.stdout
    );
    let r = ctl(here, rt, &["watch", "add", "total + 1"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("  total + 1\n"), "{}", r.stdout);
    let r = ctl(here, rt, &["status"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(squash(&r.stdout).contains("total + 1 = 4"), "{}", r.stdout);
    let r = ctl(here, rt, &["stack"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("app.py:3") && r.stdout.contains("app.py:6"),
        "{}",
        r.stdout
    );
    let r = ctl(here, rt, &["continue"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        common::local(&r.stdout, "a").as_deref(),
        Some("3"),
        "{}",
        r.stdout
    );
    let r = ctl(here, rt, &["continue"]).await;
    assert_eq!(r.code, 3, "exited is 3: {}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("── EXITED with code 0 ──"),
        "{}",
        r.stdout
    );
    assert_eq!(published(runtime.path()), hosts, "the host went away");
    let r = ctl(here, rt, &["output"]).await;
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stdout.contains("result 13"), "{}", r.stdout);

    let r = ctl(here, rt, &["stop"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    let left = wait_dead(&tree, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "processes outlived stop: {left:?}");
    assert!(published(runtime.path()).is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn exit_codes_and_json_tell_running_stopped_and_refused_apart() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("spin.py", LOOP)]);
    let runtime = tempfile::tempdir().unwrap();
    let rt = Some(runtime.path());
    let _hosts = Hosts(runtime.path().to_path_buf());
    let here = ws.path();

    // The host answers a request without progress within its cap (300 ms
    // here); ctl's client asks for progress, so it waits as long as told.
    let r = ctl_with(
        here,
        rt,
        &[("PAIRDBG_LONG_WAIT_MS", "300")],
        &["launch", "--timeout-ms", "1500", "spin.py"],
    )
    .await;
    assert_eq!(r.code, 4, "running is 4: {}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("No stop within 1500 ms"), "{}", r.stdout);
    let tree = pids_matching(&here.to_string_lossy());
    let r = ctl(here, rt, &["--json", "wait", "--timeout-ms", "300"]).await;
    assert_eq!(r.code, 4, "{}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("one JSON object");
    // Until the adapter confirms the start the state is `starting`: running too.
    assert!(v["state"] == "running" || v["state"] == "starting", "{v}");
    assert_eq!(v["exit_code"], 4, "{v}");

    // The adapter may take a while to confirm the start; pause needs it.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let r = ctl(here, rt, &["--json", "status"]).await;
        let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("one JSON object");
        if v["state"] == "running" {
            assert_eq!(r.code, 4, "{v}");
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "never running: {v}");
    }
    let r = ctl(here, rt, &["pause"]).await;
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let r = ctl(here, rt, &["status", "--json"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("one JSON object");
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["state"], "stopped", "{v}");
    assert_eq!(v["session_id"], "s1", "{v}");
    assert!(v["epoch"].as_u64().is_some_and(|e| e > 0), "{v}");
    assert_eq!(v["viewport"]["status"], "stopped", "{v}");
    assert_eq!(v["viewport"]["location"]["file"], "spin.py", "{v}");

    // A refusal is 1 and names the field; a command line that does not
    // parse is 2.
    let r = ctl(here, rt, &["break", "spin.py:99"]).await;
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .contains("line 99 is past the end of spin.py, which has 5 lines"),
        "{}",
        r.stderr
    );
    let r = ctl(here, rt, &["run-to", "spin.py:four"]).await;
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("\"four\" is not a line number"),
        "{}",
        r.stderr
    );
    let r = ctl(here, rt, &["--json", "note"]).await;
    assert_eq!(r.code, 2, "{}", r.stderr);

    let r = ctl(here, rt, &["terminate"]).await;
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    let left = wait_dead(
        &tree
            .iter()
            .copied()
            .filter(|p| !published(runtime.path()).contains(p))
            .collect::<Vec<_>>(),
        Duration::from_secs(10),
    )
    .await;
    assert!(left.is_empty(), "the program outlived terminate: {left:?}");
    let r = ctl(here, rt, &["stop"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    let left = wait_dead(&tree, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "processes outlived stop: {left:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shell_pairs_with_the_persons_tui() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("app.py", ADD_PROGRAM)]);
    let state = tempfile::tempdir().unwrap();
    let t = Tmux::start_with_state(
        "ctl",
        ws.path(),
        state.path(),
        &["--break", "app.py:2", "--", "app.py"],
    );
    t.wait_for("the first stop", |s| {
        s.contains("stopped: breakpoint") && s.contains("MCP 127.0.0.1:")
    })
    .await;
    let tree = descendants(t.pane_pid().expect("pane"));

    let r = ctl(ws.path(), None, &["step"]).await;
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(stopped_line(&r.stdout), Some(3), "{}", r.stdout);
    t.wait_for("the shell's step on screen", |s| current_line(s) == Some(3))
        .await;
    t.wait_for("the call in the activity pane, as the shell's", |s| {
        s.contains("ctl step  → STOPPED at app.py:3")
    })
    .await;

    let r = ctl(ws.path(), None, &["note", "total", "looks", "right"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    t.wait_for("the shell's note", |s| s.contains("✎ total looks right"))
        .await;

    // With the wheel taken, the shell may read, not move.
    t.keys(&["T"]);
    t.wait_for("person-only mode", |s| s.contains("drives: person only"))
        .await;
    let r = ctl(ws.path(), None, &["step"]).await;
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stderr.contains("the person has taken control"),
        "{}",
        r.stderr
    );
    t.keys(&["T"]);
    t.wait_for("shared mode again", |s| !s.contains("drives: person only"))
        .await;

    // Replies suggest the shell's commands, and the person's TUI is not
    // the shell's to stop.
    let r = ctl(ws.path(), None, &["breakpoints", "--session", "s9"]).await;
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stderr.contains("pairdbg ctl sessions"), "{}", r.stderr);
    let r = ctl(ws.path(), None, &["stop"]).await;
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stderr.contains("terminal UI"), "{}", r.stderr);
    assert!(t.alive());

    t.keys(&["q", "y"]);
    let left = wait_dead(&tree, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "survivors: {left:?}");

    // The session's journal says the shell did it.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(["journal", "export"])
        .current_dir(ws.path())
        .env("XDG_STATE_HOME", state.path())
        .output()
        .expect("pairdbg journal export");
    let card = String::from_utf8_lossy(&out.stdout);
    assert!(card.contains("- ctl: total looks right"), "{card}");
    assert!(card.contains("ctl "), "{card}");
}

const BACK_C: &str = "int main(void) {\n    int x = 1;\n    x = 42;\n    return x == 0;\n}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctl_records_and_steps_back_on_gdb() {
    if !common::native::gdb_available() {
        return;
    }
    let ws = workspace(&[("back.c", BACK_C)]);
    common::native::build_c(&ws.path().join("back.c"), &ws.path().join("back"));
    let runtime = tempfile::tempdir().unwrap();
    let rt = Some(runtime.path());
    let _hosts = Hosts(runtime.path().to_path_buf());
    let here = ws.path();
    let r = ctl(
        here,
        rt,
        &[
            "launch",
            "--adapter",
            "gdb",
            "--break",
            "back.c:3",
            "./back",
        ],
    )
    .await;
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let r = ctl(here, rt, &["step", "back"]).await;
    assert_eq!(
        r.code, 1,
        "refused before recording: {}{}",
        r.stdout, r.stderr
    );
    assert!(r.stderr.contains("pairdbg ctl record on"), "{}", r.stderr);
    let r = ctl(here, rt, &["record", "on"]).await;
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("yes (gdb record)"), "{}", r.stdout);
    let r = ctl(here, rt, &["step"]).await;
    assert!(r.stdout.contains("back.c:4"), "{}", r.stdout);
    let r = ctl(here, rt, &["step", "back"]).await;
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("back.c:3"), "{}", r.stdout);
    let r = ctl(here, rt, &["eval", "x"]).await;
    assert!(
        r.stdout.contains('1') && !r.stdout.contains("42"),
        "{}",
        r.stdout
    );
    let r = ctl(here, rt, &["stop"]).await;
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}

/// A stop with more locals than the viewport shows points a shell user to
/// the command that lists the rest, in ctl's spelling, and that command
/// pages from where the viewport stopped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_stop_leaves_out_is_named_as_a_ctl_command() {
    if !debugpy_available() {
        return;
    }
    let names: Vec<String> = (0..25).map(|i| format!("v{i:02} = {i}")).collect();
    let program = format!(
        "def main():\n    {}\n    print(v24)\n\n\nmain()\n",
        names.join("\n    ")
    );
    let ws = workspace(&[("many.py", &program)]);
    let runtime = tempfile::tempdir().unwrap();
    let rt = Some(runtime.path());
    let _hosts = Hosts(runtime.path().to_path_buf());
    let here = ws.path();
    let r = ctl(here, rt, &["launch", "many.py", "--break", "many.py:27"]).await;
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("  (5 more; use pairdbg ctl vars)\n") && !r.stdout.contains("debug_"),
        "{}",
        r.stdout
    );
    let r = ctl(here, rt, &["vars", "--start", "20"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    let listed = squash(&r.stdout);
    assert!(
        listed.contains("v20 = 20") && listed.contains("v24 = 24") && !listed.contains("v19 ="),
        "{}",
        r.stdout
    );
    let r = ctl(here, rt, &["stop"]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
}
