//! The TUI on a Go program in a real terminal (tmux): a breakpoint set with
//! the keyboard, run to, a step that moves the line, and a quit that leaves
//! no dlv and no debuggee behind.

mod common;

use std::time::Duration;

use common::tmux::{Tmux, current_line};
use common::*;

const PROG: &str = "package main

import \"fmt\"

func add(a, b int) int {
\ttotal := a + b
\treturn total
}

func main() {
\tx := add(1, 2)
\ty := add(x, 10)
\tfmt.Println(\"result\", y)
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_debugs_a_go_program_from_the_keyboard() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/tui\n\ngo 1.19\n"),
        ("main.go", PROG),
    ]);
    let t = Tmux::start("go-keys", ws.path(), &["--break", "main.go:11", "--", "."]);
    let s = t
        .wait_for("the first breakpoint", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(11)
        })
        .await;
    assert!(s.contains("main.main"), "the stack names the frame: {s}");
    let pid = t.pane_pid().expect("pane pid");
    let tree = descendants(pid);
    assert!(
        tree.iter().any(|p| comm(*p).as_deref() == Some("dlv")),
        "dlv runs under pairdbg: {tree:?}"
    );

    // Cursor down to line 12, F9 sets a breakpoint there, F5 runs to it.
    t.keys(&["j", "F9"]);
    t.wait_for("the breakpoint mark", |s| {
        s.lines()
            .any(|l| l.contains("● 12 ") || l.contains("●→12 "))
    })
    .await;
    t.keys(&["F5"]);
    t.wait_for("the second breakpoint", |s| {
        current_line(s) == Some(12) && s.contains("x = 3")
    })
    .await;

    // Step over: the line moves to 13 and y appears.
    t.keys(&["n"]);
    t.wait_for("the step", |s| {
        current_line(s) == Some(13) && s.contains("y = 13")
    })
    .await;

    // The console evaluates in Go, and a watch shows its value.
    t.keys(&["e", "y * 2", "Enter"]);
    t.wait_for("the console answer", |s| s.contains("26  (int)"))
        .await;
    t.keys(&["w"]);
    t.keys(&["-l", "x + y"]);
    t.keys(&["Enter"]);
    t.wait_for("the watch", |s| s.contains("x + y = 16")).await;

    // Everything pairdbg started, the debuggee included, is listed now:
    // delve starts the program in a process group of its own.
    let tree = descendants(pid);
    t.keys(&["q", "y"]);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while t.alive() && tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
    assert!(!t.alive(), "q should end pairdbg and so the tmux session");
    assert!(
        wait_dead(&tree, Duration::from_secs(10)).await.is_empty(),
        "no process survives the quit: {tree:?}"
    );
}

/// The variables tree on Go values: a pointer to a struct opens to its
/// fields, a slice to its elements, read only when opened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_variables_tree_opens_go_values_lazily() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let t = Tmux::start(
        "go-tree",
        &repo_root().join("assets/demo/go"),
        &["--break", "main.go:41", "--", "."],
    );
    t.wait_for("the stop with cart in the tree", |s| {
        s.contains("stopped: breakpoint") && s.contains("▸ cart")
    })
    .await;
    // Focus the variables pane; cart is its first row.
    t.keys(&["Tab", "Tab", "Enter"]);
    t.wait_for("the cart's fields", |s| {
        s.contains("▾ cart") && s.contains("Items")
    })
    .await;
    t.keys(&["j", "Enter"]);
    t.wait_for("the slice's elements", |s| {
        let s = squash(s);
        s.contains("[0]") && s.contains("[2]") && s.contains("keyboard")
    })
    .await;
    t.keys(&["Enter"]);
    t.wait_for("the slice folded", |s| !squash(s).contains("[2] ="))
        .await;
    t.keys(&["q", "y"]);
}

const SLICES: &str = "package main

import \"fmt\"

type Item struct{ ID int }

func main() {
\tvar results []int
\tempty := []int{}
\tptrs := []*Item{{ID: 1}, nil}
\tfmt.Println(results, empty, ptrs)
}
";

/// The variables pane tells a nil slice from an empty one, and shows a
/// slice of pointers by what they point to, as the viewport does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_variables_pane_reads_nil_empty_and_pointers_as_go_does() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/slices\n\ngo 1.19\n"),
        ("main.go", SLICES),
    ]);
    let t = Tmux::start(
        "go-slices",
        ws.path(),
        &["--break", "main.go:11", "--", "."],
    );
    let s = t
        .wait_for("the stop with its locals", |s| {
            s.contains("stopped: breakpoint") && squash(s).contains("ptrs = [")
        })
        .await;
    let s = squash(&s);
    for shown in ["results = nil", "empty = []", "ptrs = [*Item {ID: 1}, nil]"] {
        assert!(s.contains(shown), "{shown}: {s}");
    }
    t.keys(&["q", "y"]);
}

/// A program delve cannot build opens at the compiler's first error, with
/// its message, instead of "no source".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_build_error_shows_the_bad_line() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let broken = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n\tfmt.Println(missing)\n}\n";
    // The package sits below the module's root: the compiler's paths are
    // relative to the package, not to where pairdbg runs.
    let ws = workspace(&[
        ("go.mod", "module example.com/broken\n\ngo 1.19\n"),
        ("app/main.go", broken),
    ]);
    let t = Tmux::start("go-build", ws.path(), &["--", "app"]);
    let s = t
        .wait_for("the compiler's message in the status line", |s| {
            s.contains("undefined: missing (app/main.go:7)")
        })
        .await;
    assert!(!s.contains("no source"), "{s}");
    assert!(
        s.lines()
            .any(|l| l.contains(" 7 ") && l.contains("fmt.Println(missing)")),
        "the source pane shows the bad line: {s}"
    );
    t.keys(&["q", "y"]);
}

/// Logs with the file and line, as a compiler names its errors.
const LOGS: &str = "package main

import \"log\"

func main() {
\tlog.SetFlags(log.Lshortfile)
\tlog.Println(\"done\")
}
";

/// A program that built is never taken for one that did not, whatever it
/// prints.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn output_like_a_compilers_after_a_good_build_is_no_build_error() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/logs\n\ngo 1.19\n"),
        ("main.go", LOGS),
    ]);
    let t = Tmux::start("go-logs", ws.path(), &["--break", "main.go:6", "--", "."]);
    t.wait_for("the stop", |s| s.contains("stopped: breakpoint"))
        .await;
    t.keys(&["c"]);
    let s = t
        .wait_for("the exit, its output shown", |s| {
            s.contains("exited with code 0") && s.contains("main.go:7: done")
        })
        .await;
    assert!(!s.contains("press R"), "no build error: {s}");
    t.keys(&["q", "y"]);
}

/// With no breakpoint the program stops where it begins: its own `main`,
/// not delve's entry stop before the runtime has a goroutine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_program_with_no_breakpoint_stops_at_its_main() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/logs\n\ngo 1.19\n"),
        ("main.go", LOGS),
    ]);
    let t = Tmux::start("go-entry", ws.path(), &["--", "."]);
    let s = t
        .wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    assert_eq!(current_line(&s), Some(5), "{s}");
    t.keys(&["n"]);
    t.wait_for("a step in main", |s| current_line(s) == Some(6))
        .await;
    // The entry breakpoint is gone: the program runs to its end.
    t.keys(&["c"]);
    t.wait_for("the exit", |s| s.contains("exited with code 0"))
        .await;
    t.keys(&["q", "y"]);
}

const SHAPES: &str = "package main

import \"fmt\"

type Circle struct {
\tR float64
}

func (c *Circle) Area() float64 {
\tif c.R > 0 {
\t\treturn 3 * c.R * c.R
\t}
\treturn 0
}

func main() {
\tc := &Circle{R: 2}
\tfmt.Println(\"area\", c.Area())
}
";

/// gofmt indents with tabs; the pane shows them as four columns each. The
/// stack names the method with its receiver, and delve's own lines are in
/// the console, apart from the program's output.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tab_indented_go_keeps_its_indentation_and_its_method_names() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/shapes\n\ngo 1.19\n"),
        ("main.go", SHAPES),
    ]);
    let t = Tmux::start("go-tabs", ws.path(), &["--break", "main.go:11", "--", "."]);
    let s = t
        .wait_for("the stop in the method, and delve's lines", |s| {
            // delve's own lines reach the console as it writes them, which
            // can be after the stop is drawn.
            s.contains("stopped: breakpoint")
                && current_line(s) == Some(11)
                && s.contains("Type 'dlv help'")
        })
        .await;
    assert!(s.contains("11         return 3 * c.R * c.R"), "{s}");
    assert!(s.contains("10     if c.R > 0 {"), "{s}");
    assert!(s.contains("main.(*Circle).Area"), "{s}");
    let said: Vec<&str> = s
        .lines()
        .filter(|l| l.contains("Type 'dlv help'"))
        .collect();
    assert!(!said.is_empty(), "the console shows delve's lines: {s}");
    assert!(
        said.iter().all(|l| l.contains("debugger: Type 'dlv help'")),
        "only as the debugger's: {s}"
    );
}
