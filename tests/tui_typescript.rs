//! The TUI on the TypeScript demo in a real terminal (tmux): a breakpoint
//! in the `.ts` stops there, the source pane shows the TypeScript with the
//! stop marked, a step moves the mark, and the program runs to its exit.

mod common;

use std::time::Duration;

use common::tmux::{Tmux, current_line};
use common::typescript::compiled_demo;
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_debugs_the_typescript_demo_from_the_keyboard() {
    let (Some(data), Some(tsc)) = (js_debug_available(), tsc_available()) else {
        return;
    };
    if !Tmux::available() {
        return;
    }
    let ws = compiled_demo(&tsc);
    let command = format!(
        "XDG_DATA_HOME={} {} --break prog.ts:19 -- prog.ts",
        data.display(),
        env!("CARGO_BIN_EXE_pairdbg")
    );
    let t = Tmux::run("ts-keys", ws.path(), &command);
    let s = t
        .wait_for("the breakpoint in the .ts", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(19)
        })
        .await;
    // The TypeScript itself, with its types, and the stop's line marked.
    assert!(s.contains("╭ prog.ts ─"), "{s}");
    assert!(s.contains("●→19     info.n = x + items.length;"), "{s}");
    assert!(s.contains("const items: number[] = [1, 2, 3];"), "{s}");
    assert!(s.contains("▶ main  prog.ts:19"), "{s}");
    let s = t
        .wait_for("the locals", |s| {
            s.contains("info  = <Object: name=\"spike\", n=3>") && s.contains("items = [1, 2, 3]")
        })
        .await;
    assert!(s.contains("  x     = 0 "), "{s}");
    assert!(
        node_running(ws.path(), "prog.ts").is_empty(),
        "Node runs the compiled .js"
    );
    // F9 at the stop's line takes the breakpoint away; a step moves the
    // mark to the loop's head.
    t.keys(&["F9"]);
    t.wait_for("the breakpoint gone", |s| s.contains(" →19 "))
        .await;
    t.keys(&["n"]);
    t.wait_for("the step", |s| {
        s.contains("stopped: step") && current_line(s) == Some(16)
    })
    .await;
    t.keys(&["c"]);
    t.wait_for("the exit", |s| {
        s.contains("exited with code 0") && s.contains("total 499500")
    })
    .await;
    t.keys(&["q", "y"]);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while t.alive() && tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
    assert!(!t.alive(), "q should end pairdbg and so the tmux session");
    let left = poll(
        || node_running(ws.path(), "prog.js"),
        |p| p.is_empty(),
        Duration::from_secs(10),
    )
    .await;
    assert!(left.is_empty(), "still running: {left:?}");
}
