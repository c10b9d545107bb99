//! The person approves or denies an agent's side effect: the TUI runs in a
//! terminal with approval on, an agent joins through `pairdbg mcp`, and its
//! call waits for the person's key. The TUI shows the real secret values
//! that the agent sees masked.

mod common;

use common::tmux::Tmux;
use common::*;
use serde_json::json;

const PROG: &str = "\
def work(items):
    password = 'hun' + 'ter2'
    total = sum(items)
    return total


work([1, 2, 3])
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_person_approves_and_denies() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("work.py", PROG)]);
    let t = Tmux::start(
        "approval",
        ws.path(),
        &[
            "--approve-side-effects",
            "--break",
            "work.py:4",
            "--",
            "work.py",
        ],
    );
    t.wait_for("the first stop with approval on", |s| {
        s.contains("stopped: breakpoint") && s.contains("approving agent side effects")
    })
    .await;
    // The person's screen shows the real value.
    t.wait_for("the password in the variables pane", |s| {
        s.contains("hunter2")
    })
    .await;
    let agent = mcp_in(ws.path()).await;
    let v = agent.ok("debug_status", json!({})).await;
    assert!(
        !v.contains("hunter2") && v.contains("<redacted: 7 chars>"),
        "{v}"
    );

    let pop = json!({"expression": "items.pop()", "allow_side_effects": true});
    let (approved, _) = tokio::join!(agent.call("debug_evaluate", pop.clone()), async {
        t.wait_for("the approval prompt", |s| {
            s.contains("the agent asks to run") && s.contains("items.pop()")
        })
        .await;
        t.keys(&["y"]);
    });
    assert!(!approved.1, "{}", approved.0);
    assert!(
        approved.0.contains("The person approved") && approved.0.contains('3'),
        "{}",
        approved.0
    );

    let (denied, _) = tokio::join!(agent.call("debug_evaluate", pop.clone()), async {
        t.wait_for("the second prompt", |s| s.contains("the agent asks to run"))
            .await;
        t.keys(&["n"]);
    });
    assert!(denied.1, "{}", denied.0);
    assert!(denied.0.contains("the person denied"), "{}", denied.0);
    let len = agent
        .ok("debug_evaluate", json!({"expression": "len(items)"}))
        .await;
    assert!(len.contains("len(items) = 2"), "{len}");

    // A turns approval off: the call runs without asking.
    t.keys(&["A"]);
    t.wait_for("approval off", |s| s.contains("run without asking"))
        .await;
    let ran = agent.ok("debug_evaluate", pop).await;
    assert!(!ran.contains("approved") && ran.contains('2'), "{ran}");

    agent.close().await;
    t.keys(&["q", "y"]);
}
