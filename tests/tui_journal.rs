//! The session's past in the real binary in tmux: going back through the
//! stops read-only, and the journal the person's session leaves, exported
//! as a hand-off card by `pairdbg journal export`.

mod common;

use common::tmux::{Tmux, current_line};
use common::*;

const PROG: &str = "\
def add(a, b):
    total = a + b
    return total


def main():
    x = add(1, 2)
    y = add(x, 10)
    print('result', y)


main()
";

/// The variables pane's row for `name`, not the source's inline values.
fn var_row(screen: &str, name: &str) -> Option<String> {
    screen.lines().find_map(|l| {
        let at = l.find(&format!("│  {name} "))?;
        Some(l[at..].to_string())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_person_goes_back_to_an_earlier_stop_and_sees_its_locals() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let state = tempfile::tempdir().expect("state dir");
    let t = Tmux::start_with_state(
        "history",
        ws.path(),
        state.path(),
        &["--break", "prog.py:3", "--", "prog.py"],
    );
    t.wait_for("the first stop", |s| {
        current_line(s) == Some(3) && var_row(s, "total").is_some_and(|r| r.contains("= 3"))
    })
    .await;
    t.keys(&["c"]);
    t.wait_for("the second stop", |s| {
        var_row(s, "total").is_some_and(|r| r.contains("= 13"))
    })
    .await;
    t.keys(&["H"]);
    let s = t
        .wait_for("stop 1 shown", |s| s.contains("stop 1 of 2 (read-only)"))
        .await;
    let row = var_row(&s, "total").unwrap_or_default();
    assert!(row.contains("= 3") && !row.contains("13"), "{s}");
    assert!(var_row(&s, "a").is_some_and(|r| r.contains("= 1")), "{s}");
    assert_eq!(current_line(&s), Some(3), "{s}");
    // The stack is stop 1's: add called from main's line 7.
    assert!(s.contains("prog.py:7"), "{s}");
    // Forward to stop 2, and back.
    t.keys(&["Right"]);
    let s = t
        .wait_for("stop 2 shown", |s| s.contains("stop 2 of 2 (read-only)"))
        .await;
    assert!(
        var_row(&s, "total").is_some_and(|r| r.contains("= 13")),
        "{s}"
    );
    t.keys(&["Left"]);
    t.wait_for("stop 1 again", |s| {
        s.contains("stop 1 of 2 (read-only)")
            && var_row(s, "total").is_some_and(|r| r.contains("= 3"))
    })
    .await;
    // Read-only: a step key moves nothing.
    t.keys(&["n"]);
    let s = t
        .wait_for("the refusal", |s| s.contains("read-only: Esc goes back"))
        .await;
    assert!(s.contains("stop 1 of 2"), "{s}");
    t.keys(&["Escape"]);
    let s = t
        .wait_for("the live stop", |s| {
            !s.contains("read-only") && var_row(s, "total").is_some_and(|r| r.contains("= 13"))
        })
        .await;
    assert!(s.contains("stopped: breakpoint"), "{s}");
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_persons_session_is_journaled_and_exported_as_a_hand_off_card() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let state = tempfile::tempdir().expect("state dir");
    let t = Tmux::start_with_state(
        "journal",
        ws.path(),
        state.path(),
        &["--break", "prog.py:3", "--", "prog.py"],
    );
    t.wait_for("the first stop", |s| current_line(s) == Some(3))
        .await;
    t.keys(&["a"]);
    t.keys(&["-l", "total looks right here"]);
    t.keys(&["Enter"]);
    t.keys(&["c"]);
    t.wait_for("the second stop", |s| {
        var_row(s, "total").is_some_and(|r| r.contains("= 13"))
    })
    .await;
    t.keys(&["q", "y"]);
    let dir = state.path().join("pairdbg/journals");
    let journal = wait_for_file(&dir, |text| text.contains("\"kind\":\"exit\"")).await;
    assert!(
        journal.contains(r#""kind":"command","#) && journal.contains(r#""origin":"human""#),
        "the person's commands are recorded with their origin:\n{journal}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(["journal", "export"])
        .current_dir(ws.path())
        .env("XDG_STATE_HOME", state.path())
        .output()
        .expect("pairdbg journal export");
    let card = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{card}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(card.contains("# Debugging hand-off: prog.py"), "{card}");
    let first = card
        .find("1. `prog.py:3` in `add`: breakpoint")
        .expect(&card);
    let second = card
        .find("2. `prog.py:3` in `add`: breakpoint, after the person continued")
        .expect(&card);
    assert!(first < second, "{card}");
    assert!(card[first..second].contains("- `total = 3`"), "{card}");
    assert!(card[second..].contains("- `total = 13`"), "{card}");
    assert!(card.contains("- person: total looks right here"), "{card}");
    assert!(
        card.contains("## Breakpoints\n\n- `prog.py:3` (person)"),
        "{card}"
    );
    // --out writes the same card to a file.
    let file = ws.path().join("handoff.md");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(["journal", "export", "--out", "handoff.md"])
        .current_dir(ws.path())
        .env("XDG_STATE_HOME", state.path())
        .status()
        .expect("export --out");
    assert!(status.success());
    assert_eq!(std::fs::read_to_string(file).expect("handoff.md"), card);
}

const GIVEN: &str = "\
import sys
flag_value = sys.argv[2]
label = 'plain-' + 'visible-value'
print(len(flag_value))
";

/// A secret given on the command line: the person's TUI shows it, live;
/// the journal on disk and its card hold it masked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_person_sees_a_secret_the_journal_keeps_masked() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("given.py", GIVEN)]);
    let state = tempfile::tempdir().expect("state dir");
    let t = Tmux::start_with_state(
        "given",
        ws.path(),
        state.path(),
        &[
            "--break",
            "given.py:4",
            "--",
            "given.py",
            "--token",
            "tk-99887766",
        ],
    );
    t.wait_for("the real value", |s| {
        var_row(s, "flag_value").is_some_and(|r| r.contains("tk-99887766"))
    })
    .await;
    t.keys(&["q", "y"]);
    let dir = state.path().join("pairdbg/journals");
    let journal = wait_for_file(&dir, |text| text.contains("\"kind\":\"exit\"")).await;
    assert!(!journal.contains("tk-99887766"), "{journal}");
    assert!(journal.contains("plain-visible-value"), "{journal}");
    assert!(journal.contains("<redacted: 11 chars>"), "{journal}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(["journal", "export"])
        .current_dir(ws.path())
        .env("XDG_STATE_HOME", state.path())
        .output()
        .expect("pairdbg journal export");
    let card = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && !card.contains("tk-99887766"),
        "{card}"
    );
}

/// The one journal in `dir`, once its text satisfies `done` (15 s at most).
async fn wait_for_file(dir: &std::path::Path, done: impl Fn(&str) -> bool) -> String {
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(15);
    let mut last = String::new();
    while tokio::time::Instant::now() < deadline {
        let files: Vec<_> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        if let [one] = files.as_slice() {
            last = std::fs::read_to_string(one).unwrap_or_default();
            if done(&last) {
                return last;
            }
        }
        let _ = tokio::time::timeout(
            std::time::Duration::from_millis(50),
            std::future::pending::<()>(),
        )
        .await;
    }
    panic!("no finished journal in {}:\n{last}", dir.display());
}
