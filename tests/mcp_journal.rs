//! `debug_journal` over a real MCP client on debugpy: the agent's session
//! as a hand-off card (stops in order with key values, its notes, the
//! breakpoints, secrets masked), and the journal on disk with the agent's
//! commands.

mod common;

use common::*;
use serde_json::json;

const PROG: &str = "\
def check(n, password):
    doubled = n * 2; tags = ['x'] * n
    return doubled


for n in [4, 5]:
    check(n, 'hunter2-secret')
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debug_journal_gives_the_agent_its_hand_off_card() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let state = tempfile::tempdir().expect("state dir");
    let mcp = mcp_with_env(ws.path(), &[], &[("XDG_STATE_HOME", state.path())]).await;
    mcp.ok(
        "debug_launch",
        json!({"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": 3, "condition": "n > 3"}]}),
    )
    .await;
    mcp.ok("debug_continue", json!({})).await;
    mcp.ok(
        "debug_note",
        json!({"text": "hypothesis: doubled is right for both calls"}),
    )
    .await;
    let card = mcp.ok("debug_journal", json!({})).await;
    let first = card
        .find("1. `prog.py:3` in `check`: breakpoint")
        .expect(&card);
    let second = card
        .find("2. `prog.py:3` in `check`: breakpoint, after the agent continued")
        .expect(&card);
    assert!(first < second, "{card}");
    assert!(card[first..second].contains("- `doubled = 8`"), "{card}");
    assert!(card[second..].contains("- `doubled = 10`"), "{card}");
    // Values as the person and the agent saw them, not the adapter's text.
    assert!(
        card[first..second].contains("- `tags = [\"x\", \"x\", \"x\", \"x\"]`"),
        "{card}"
    );
    assert!(
        card.contains("- agent: hypothesis: doubled is right for both calls"),
        "{card}"
    );
    assert!(
        card.contains("- `prog.py:3` (agent), condition `n > 3`"),
        "{card}"
    );
    assert!(
        card.contains("- Of them moving the program or changing breakpoints: 1 (agent 1)"),
        "the continue; reads are counted apart: {card}"
    );
    // The agent reads secrets masked, as in every other result.
    assert!(!card.contains("hunter2"), "{card}");
    assert!(card.contains("`password = <redacted"), "{card}");
    // On disk: the agent's commands with their origin.
    let dir = state.path().join("pairdbg/journals");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .expect("journals")
        .flatten()
        .collect();
    assert_eq!(files.len(), 1, "one journal per session");
    let text = std::fs::read_to_string(files[0].path()).expect("journal");
    assert!(
        text.lines().any(|l| l.contains(r#""kind":"command""#)
            && l.contains(r#""origin":"agent""#)
            && l.contains("Continue")),
        "{text}"
    );
    mcp.close().await;
}
