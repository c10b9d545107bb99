//! `pairdbg --attach 127.0.0.1:PORT --map .=REMOTE` in a real terminal
//! (tmux): the TUI attaches to a Python program waiting under debugpy's
//! server, and to a Node program under `--inspect`, each in another
//! directory; it stops at a breakpoint set on the workspace file, shows
//! that file, and on quit detaches, leaving the program running.

mod common;

use std::time::Duration;

use common::remote::*;
use common::tmux::{Tmux, current_line};
use common::*;

const PY: &str = "\
import time
count = 0
while True:
    count += 1
    time.sleep(0.01)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_attaches_to_a_debug_server_and_shows_the_local_file() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PY)]);
    let remote = remote_copy("prog.py", PY);
    let port = free_port();
    let (_server, pid) = debugpy_server(&remote, port).await;
    let address = format!("127.0.0.1:{port}");
    let map = format!(".={}", app(&remote));

    let t = Tmux::start(
        "remote",
        ws.path(),
        &[
            "--attach",
            &address,
            "--language",
            "python",
            "--map",
            &map,
            "--break",
            "prog.py:4",
        ],
    );
    let s = t
        .wait_for("the breakpoint in the remote program", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(4)
        })
        .await;
    // The workspace's file, not the remote copy's path.
    assert!(s.contains("prog.py"), "{s}");
    assert!(!s.contains(&app(&remote)), "the remote path shows: {s}");
    assert!(
        s.contains("count += 1"),
        "the source pane shows the line: {s}"
    );

    t.keys(&["q"]);
    t.wait_for("the quit question", |s| {
        s.contains("detaches (the process keeps running)")
    })
    .await;
    t.keys(&["y"]);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while t.alive() && tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(20), std::future::pending::<()>()).await;
    }
    assert!(runs_freely(pid).await, "the program: {:?}", stat(pid));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_attaches_to_a_node_inspector_and_shows_the_local_file() {
    let Some(data) = js_debug_available() else {
        return;
    };
    if !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.js", TICKING_JS)]);
    let remote = remote_copy("prog.js", TICKING_JS);
    let port = free_port();
    let (_server, pid) = node_server(&remote, port, "--inspect").await;
    let command = format!(
        "XDG_DATA_HOME={} {} --attach 127.0.0.1:{port} --language node --map .={} --break prog.js:4",
        data.display(),
        env!("CARGO_BIN_EXE_pairdbg"),
        app(&remote)
    );
    let t = Tmux::run("remote-node", ws.path(), &command);
    let s = t
        .wait_for("the breakpoint in the remote program", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(4)
        })
        .await;
    assert!(!s.contains(&app(&remote)), "the remote path shows: {s}");
    assert!(s.contains("state.count = count;"), "{s}");
    t.keys(&["q"]);
    t.wait_for("the quit question", |s| {
        s.contains("detaches (the process keeps running)")
    })
    .await;
    t.keys(&["y"]);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while t.alive() && tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(20), std::future::pending::<()>()).await;
    }
    assert!(!t.alive(), "pairdbg is still running after the quit");
    assert!(runs_freely(pid).await, "the program: {:?}", stat(pid));
}
