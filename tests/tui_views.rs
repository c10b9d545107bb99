//! The views over a stop, in the real binary in a real terminal (tmux):
//! inline values, the returned value, every scope, the traceback, one
//! rendering of a value in every frame, and views reset by a restart.

mod common;

use common::native::{build_c, lldb_available};
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


LIMIT = 99
main()
";

/// The variables pane's row for `name` (its fold marker then the name), so
/// that the source's inline values are not taken for it.
fn tree_row<'a>(screen: &'a str, name: &str) -> Option<&'a str> {
    let marker = |m: &str| format!("{m} {name} ");
    screen.lines().find_map(|l| {
        ["▸", "▾", " "].iter().find_map(|m| {
            l.find(&format!("│{}", marker(m)))
                .map(|at| &l[at..])
                .filter(|_| *m != " " || l.contains(&format!("│  {name} ")))
        })
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn values_show_at_the_end_of_the_lines_that_use_them() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start(
        "inline",
        ws.path(),
        &["--break", "prog.py:3", "--", "prog.py"],
    );
    let s = t
        .wait_for("values inline", |s| {
            current_line(s) == Some(3)
                && s.lines()
                    .any(|l| l.contains("total = a + b   total = 3, a = 1, b = 2"))
        })
        .await;
    // Lines outside the function get none.
    assert!(
        s.lines()
            .any(|l| l.contains("x = add(1, 2)") && !l.contains("x = 3")),
        "{s}"
    );
    // The next stop lights what changed.
    t.keys(&["c"]);
    let lit = t
        .wait_for_escapes("the second call's values", |s| s.contains("total = 13"))
        .await;
    // Lit as the variables pane lights a changed value, not dimmed.
    assert!(lit.contains("\x1b[1m\x1b[38;5;3mtotal = 13"), "{lit}");
    // `v` turns them off and on.
    t.keys(&["v"]);
    t.wait_for("values hidden", |s| {
        s.lines()
            .any(|l| l.contains("total = a + b") && !l.contains("total = 13"))
    })
    .await;
    t.keys(&["v"]);
    t.wait_for("values shown again", |s| {
        s.lines().any(|l| l.contains("total = a + b   total = 13"))
    })
    .await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn globals_are_in_the_variables_tree_folded_and_open() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start(
        "scopes",
        ws.path(),
        &["--break", "prog.py:3", "--", "prog.py"],
    );
    let s = t
        .wait_for("the globals folded", |s| {
            current_line(s) == Some(3) && tree_row(s, "Globals").is_some()
        })
        .await;
    assert!(tree_row(&s, "LIMIT").is_none(), "folded: {s}");
    // Focus the variables pane, go to Globals (the last row) and open it.
    t.keys(&["Tab", "Tab", "G", "Enter"]);
    t.wait_for("a global", |s| {
        s.contains("▾ Globals") && s.contains("LIMIT = 99")
    })
    .await;
    t.keys(&["q", "y"]);
}

const CHAINED: &str = "\
def parse(text):
    return int(text)


def load(text):
    try:
        return parse(text)
    except ValueError as e:
        raise RuntimeError('cannot load the record') from e


load('x1')
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e_shows_the_whole_traceback_with_its_cause() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("crash.py", CHAINED)]);
    let t = Tmux::start("traceback", ws.path(), &["--", "crash.py"]);
    t.wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    t.keys(&["c"]);
    t.wait_for("the exception stop", |s| {
        s.contains("stopped: RuntimeError") && current_line(s) == Some(9)
    })
    .await;
    t.keys(&["E"]);
    let s = t
        .wait_for("the traceback", |s| s.contains(" traceback "))
        .await;
    let all = squash(&s);
    assert!(
        all.contains("ValueError") && all.contains("RuntimeError: cannot load the record"),
        "both exceptions: {s}"
    );
    assert!(
        all.contains("direct cause"),
        "the chain says how they are linked: {s}"
    );
    for boot in ["runpy", "debugpy", "pydevd", "_boot"] {
        assert!(!s.contains(boot), "no {boot} frames: {s}");
    }
    // The wheel scrolls it (an SGR mouse report, as a terminal sends it).
    t.keys(&["-l", "\x1b[<65;40;10M"]);
    t.wait_for("the traceback scrolled", |s| s.contains(" traceback 4–"))
        .await;
    t.keys(&["k"]);
    t.wait_for("a line back", |s| s.contains(" traceback 3–"))
        .await;
    // Esc closes it; the screen is back.
    t.keys(&["Escape"]);
    t.wait_for("the traceback closed", |s| !s.contains(" traceback "))
        .await;
    // A click outside it closes it too.
    t.keys(&["E"]);
    t.wait_for("the traceback again", |s| s.contains(" traceback 1–"))
        .await;
    t.keys(&["-l", "\x1b[<0;1;36M"]);
    t.keys(&["-l", "\x1b[<0;1;36m"]);
    t.wait_for("the traceback closed by the click", |s| {
        !s.contains(" traceback ")
    })
    .await;
    t.keys(&["q", "y"]);
}

/// A frame with more objects than a stop previews, and the same object in
/// its caller.
fn crowded() -> String {
    let mut prog = String::from(
        "class User:\n    def __init__(self, id, tier):\n        self.id = id\n        self.tier = tier\n\n\ndef inner(user):\n",
    );
    for i in 0..24 {
        prog.push_str(&format!("    a{i:02} = User({i}, 'x')\n"));
    }
    // Line 32.
    prog.push_str("    return user\n\n\ndef outer():\n    user = User(482, 'gold')\n    inner(user)\n\n\nouter()\n");
    prog
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_value_reads_the_same_in_every_frame() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("crowded.py", &crowded())]);
    let t = Tmux::start(
        "oneview",
        ws.path(),
        &["--break", "crowded.py:32", "--", "crowded.py"],
    );
    t.wait_for("the top frame", |s| current_line(s) == Some(32))
        .await;
    // The user is the last row of the tree.
    t.keys(&["Tab", "Tab", "G"]);
    let s = t
        .wait_for("the user in the top frame", |s| {
            tree_row(s, "user").is_some_and(|r| r.contains("id=482"))
        })
        .await;
    let top = tree_row(&s, "user").unwrap_or_default().to_string();
    t.keys(&["BTab", "j"]);
    let s = t
        .wait_for("the user in the caller", |s| {
            s.contains("variables (frame 1)") && tree_row(s, "user").is_some()
        })
        .await;
    let caller = tree_row(&s, "user").unwrap_or_default().to_string();
    assert_eq!(squash(&caller), squash(&top), "{s}");
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_variables_pane_shows_its_first_rows() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    const TREE: &str = "\
class Box:
    def __init__(self):
        self.items = list(range(300))
        self.label = 'box'


def work():
    box = Box()
    return box


work()
";
    let ws = workspace(&[("tree.py", TREE)]);
    let t = Tmux::start(
        "restart",
        ws.path(),
        &["--break", "tree.py:9", "--", "tree.py"],
    );
    t.wait_for("the stop", |s| tree_row(s, "box").is_some())
        .await;
    // Open box, then its items, and go to the bottom of the page.
    t.keys(&["Tab", "Tab", "Enter"]);
    t.wait_for("box's members", |s| s.contains("▾ box")).await;
    t.keys(&["j", "Enter"]);
    t.wait_for("the items", |s| s.contains("000 = 0")).await;
    t.keys(&["G"]);
    t.wait_for("the end of the page", |s| s.contains("199 = 199"))
        .await;
    t.keys(&["R"]);
    let s = t
        .wait_for("the stop after the restart", |s| {
            s.contains("stopped: breakpoint") && s.contains("restarted")
                || tree_row(s, "box").is_some() && !s.contains("199 = 199")
        })
        .await;
    let s = if tree_row(&s, "box").is_some() {
        s
    } else {
        t.wait_for("the tree after the restart", |s| {
            tree_row(s, "box").is_some()
        })
        .await
    };
    assert!(!s.contains("199 = 199"), "the old scroll is gone: {s}");
    assert!(s.contains("▸ box"), "box is folded again: {s}");
    t.keys(&["q", "y"]);
}

const C_PROG: &str = "\
#include <stdio.h>

static int add(int a, int b) {
    int total = a + b;
    return total;
}

int main(void) {
    int x = add(1, 2);
    int y = add(x, 10);
    printf(\"result %d\\n\", y);
    return 0;
}
";

fn c_workspace() -> tempfile::TempDir {
    let ws = workspace(&[("add.c", C_PROG)]);
    build_c(&ws.path().join("add.c"), &ws.path().join("add"));
    ws
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_values_show_at_the_end_of_the_lines_that_use_them() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = c_workspace();
    let t = Tmux::start("cinline", ws.path(), &["--break", "add.c:5", "--", "./add"]);
    let s = t
        .wait_for("values inline", |s| {
            current_line(s) == Some(5)
                && s.lines()
                    .any(|l| l.contains("int total = a + b;   total = 3, a = 1, b = 2"))
        })
        .await;
    assert!(
        s.lines().any(|l| l.contains("return total;   total = 3")),
        "{s}"
    );
    // The native scopes beside the locals, folded.
    t.wait_for("the registers scope", |s| {
        tree_row(s, "Registers").is_some()
    })
    .await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_step_out_shows_the_returned_value_first_in_the_variables() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = c_workspace();
    let t = Tmux::start("creturn", ws.path(), &["--break", "add.c:5", "--", "./add"]);
    t.wait_for("the stop in add", |s| current_line(s) == Some(5))
        .await;
    t.keys(&["f"]);
    let s = t
        .wait_for("the returned value", |s| {
            current_line(s) == Some(9) && s.contains("(return) = 3")
        })
        .await;
    let rows: Vec<&str> = s.lines().collect();
    let at = rows
        .iter()
        .position(|l| l.contains("╭ variables"))
        .expect("the variables pane");
    assert!(
        rows[at + 1].contains("(return) = 3"),
        "the returned value is the first row: {s}"
    );
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn e_shows_a_rust_panic_from_the_users_frame() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[]);
    common::native::build_rust_demo(ws.path());
    let t = Tmux::start(
        "rustpanic",
        ws.path(),
        &["--", "target/debug/shop", "panic"],
    );
    t.wait_for("the entry stop", |s| s.contains("stopped: "))
        .await;
    t.keys(&["c"]);
    t.wait_for("the panic stop", |s| s.contains("stopped: panic"))
        .await;
    t.keys(&["E"]);
    let s = t
        .wait_for("the traceback", |s| s.contains(" traceback 1–"))
        .await;
    assert!(s.contains("main.rs"), "the user's frames: {s}");
    t.keys(&["Escape", "q", "y"]);
}
