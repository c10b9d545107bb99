//! The real binary in a real terminal (tmux), driven as a person would:
//! keys in with send-keys, the screen read back with capture-pane.

mod common;

use std::process::Command;
use std::time::Duration;

use common::tmux::{Tmux, current_line, shell_exit};
use common::*;

use common::ADD_PROGRAM as PROG;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_sets_a_breakpoint_runs_steps_and_quits() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    // No breakpoint given: the program stops on entry.
    let t = Tmux::start("keys", ws.path(), &["--", "prog.py"]);
    let s = t
        .wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    assert_eq!(current_line(&s), Some(1), "{s}");
    let pid = t.pane_pid().expect("pane pid");
    let tree = descendants(pid);
    assert!(tree.len() >= 3, "adapter, launcher and program: {tree:?}");

    // Cursor to line 2, F9 sets a breakpoint there, F5 runs to it.
    t.keys(&["j", "F9"]);
    t.wait_for("the breakpoint mark", |s| {
        s.lines().any(|l| l.contains("● 2 ") || l.contains("●→2 "))
    })
    .await;
    t.keys(&["F5"]);
    let s = t
        .wait_for("the breakpoint stop", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(2)
        })
        .await;
    assert!(
        s.contains("a = 1") && s.contains("b = 2"),
        "the locals show: {s}"
    );
    assert!(
        s.contains("add  prog.py:2"),
        "the stack shows the frame: {s}"
    );

    // Step over: the current line moves to 3 and total appears.
    t.keys(&["n"]);
    // One predicate for the whole screen: a capture can catch a frame half drawn.
    t.wait_for("the step", |s| {
        current_line(s) == Some(3) && s.contains("total = 3")
    })
    .await;

    // Evaluate in the console.
    t.keys(&["e", "total * 100", "Enter"]);
    t.wait_for("the console answer", |s| s.contains("300  (int)"))
        .await;
    // History: Up recalls the last expression; Escape leaves the prompt.
    t.keys(&["e", "Up"]);
    t.wait_for("the recalled expression", |s| s.contains("› total * 100▏"))
        .await;
    t.keys(&["Escape"]);
    t.wait_for("the prompt closed", |s| !s.contains("› total * 100▏"))
        .await;
    // Zoom: the focused pane (the console, after evaluating) takes the
    // screen, and z again gives the others back.
    t.keys(&["z"]);
    t.wait_for("the zoomed console", |s| {
        s.contains("300  (int)") && !s.contains("call stack") && !s.contains("variables")
    })
    .await;
    t.keys(&["z"]);
    t.wait_for("the panes again", |s| {
        s.contains("call stack") && s.contains("variables")
    })
    .await;

    // Continue to the second hit, then to the end.
    t.keys(&["c"]);
    let s = t
        .wait_for("the second hit", |s| {
            s.contains("a = 3") && current_line(s) == Some(2)
        })
        .await;
    assert!(s.contains("stopped: breakpoint"), "{s}");
    t.keys(&["b", "c"]);
    t.wait_for("the exit", |s| {
        s.contains("exited with code 0") && s.contains("result 13")
    })
    .await;

    t.keys(&["q", "y"]);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while t.alive() && tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
    assert!(!t.alive(), "q should end pairdbg and so the tmux session");
    assert!(
        wait_dead(&tree, Duration::from_secs(10)).await.is_empty(),
        "no process survives the quit"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_restores_the_terminal_and_ends_the_session() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    // A shell keeps the pane after pairdbg ends, to see what it left behind.
    let t = Tmux::run("term", ws.path(), "sh");
    t.keys(&[
        &format!(
            "{} --break prog.py:2 -- prog.py; echo PAIRDBG-EXIT=$?",
            env!("CARGO_BIN_EXE_pairdbg")
        ),
        "Enter",
    ]);
    t.wait_for("the breakpoint stop", |s| s.contains("stopped: breakpoint"))
        .await;
    let pid = t.pane_pid().expect("pane pid");
    let tree = descendants(pid);
    let pairdbg = tree
        .iter()
        .copied()
        .find(|p| comm(*p).as_deref() == Some("pairdbg"))
        .expect("pairdbg runs in the pane");
    // SAFETY: signalling a process this test started.
    unsafe { libc::kill(pairdbg as i32, libc::SIGTERM) };
    let s = t
        .wait_for("the shell again", |s| shell_exit(s).is_some())
        .await;
    assert!(
        !s.contains("call stack"),
        "the alternate screen is gone: {s}"
    );
    let others: Vec<u32> = tree.into_iter().filter(|p| *p != pairdbg).collect();
    let survivors: Vec<u32> = survivors_besides_shell(&others, Duration::from_secs(10)).await;
    assert!(survivors.is_empty(), "survivors: {survivors:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mouse_sets_breakpoints_and_scrolls() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start("mouse", ws.path(), &["--", "prog.py"]);
    t.wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    // Row 4 of the screen is source line 3 (border, then lines 1, 2, 3);
    // column 2 is the gutter. SGR mouse reports, as a terminal sends them.
    t.keys(&["-l", "\x1b[<0;2;4M"]);
    t.keys(&["-l", "\x1b[<0;2;4m"]);
    t.wait_for("a breakpoint from the click", |s| {
        s.lines().any(|l| l.contains("● 3 "))
    })
    .await;
    t.keys(&["F5"]);
    t.wait_for("the stop there", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(3)
    })
    .await;
    // The wheel scrolls the source. On a loaded machine a terminal can hand
    // the report over in two reads, which reads as Esc and text: a person
    // would turn the wheel again, and so does the test.
    let scrolled = |s: &str| s.lines().nth(1).is_some_and(|l| !l.contains(" 1 def add"));
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        t.keys(&["-l", "\x1b[<65;20;6M"]);
        let turned = tokio::time::Instant::now() + std::time::Duration::from_secs(2);
        while !scrolled(&t.screen()) && tokio::time::Instant::now() < turned {
            let _ = tokio::time::timeout(
                std::time::Duration::from_millis(50),
                std::future::pending::<()>(),
            )
            .await;
        }
        if scrolled(&t.screen()) {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the wheel never scrolled: {}",
            t.screen()
        );
    }
    let s = t.screen();
    assert!(
        s.lines()
            .nth(1)
            .is_some_and(|l| l.contains(" 4 ") || l.contains(" 7 ")),
        "three lines a notch: {s}"
    );
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn launch_json_configurations_start_the_program() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let launch = r#"{
        // comments and trailing commas, as VS Code writes them
        "configurations": [
            {"name": "Run prog", "type": "debugpy", "request": "launch",
             "program": "${workspaceFolder}/prog.py", "env": {"GREETING": "${env:HOME}"},},
        ],
    }"#;
    let ws = workspace(&[("prog.py", PROG), (".vscode/launch.json", launch)]);
    let t = Tmux::start(
        "config",
        ws.path(),
        &["--config", "'Run prog'", "--break", "prog.py:2"],
    );
    // The status line can show the stop a frame before the source pane
    // has read the file: wait for both.
    t.wait_for("the breakpoint stop at line 2", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(2)
    })
    .await;
    t.keys(&["q", "y"]);
    drop(t);
    // `pairdbg` alone takes the first Python configuration, stopped on entry
    // (with no breakpoint remembered from the run above).
    let state = tempfile::tempdir().expect("tempdir");
    let t = Tmux::start_with_state("config-default", ws.path(), state.path(), &[]);
    t.wait_for("the entry stop in prog.py", |s| {
        s.contains("stopped: entry") && s.contains("prog.py")
    })
    .await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_debugpy_is_offered_and_installed() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    // A fresh virtual environment has pip but no debugpy.
    let venv = ws.path().join("venv");
    let ok = std::process::Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(ok, "python3 -m venv failed");
    let run = format!(
        "VIRTUAL_ENV={} {} -- prog.py; echo PAIRDBG-EXIT=$?",
        venv.display(),
        env!("CARGO_BIN_EXE_pairdbg")
    );
    let t = Tmux::run("install", ws.path(), "sh");
    t.keys(&[&run, "Enter"]);
    t.wait_for("the offer", |s| {
        s.contains("debugpy is not installed for") && s.contains("y installs")
    })
    .await;
    t.keys(&["n"]);
    let s = t
        .wait_for("the refusal", |s| shell_exit(s) == Some(1))
        .await;
    assert!(
        s.contains("-m pip install debugpy"),
        "the exact command is named: {s}"
    );
    t.keys(&[&run, "Enter"]);
    t.wait_for("the offer again", |s| s.contains("y installs"))
        .await;
    t.keys(&["y"]);
    // pip's own output scrolls by, then the program starts.
    let deadline = std::time::Duration::from_secs(120);
    let started = tokio::time::Instant::now();
    loop {
        let s = t.screen();
        if s.contains("stopped: entry") {
            break;
        }
        assert!(
            started.elapsed() < deadline && !s.contains("pip failed"),
            "no start after installing: {s}"
        );
        let _ = tokio::time::timeout(
            std::time::Duration::from_millis(100),
            std::future::pending::<()>(),
        )
        .await;
    }
    t.keys(&["q", "y"]);
    t.wait_for("a clean exit", |s| shell_exit(s) == Some(0))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_palette_runs_actions_by_name() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start("palette", ws.path(), &["--", "prog.py"]);
    t.wait_for("the entry stop", |s| {
        s.contains("stopped: entry") && current_line(s) == Some(1)
    })
    .await;
    t.keys(&[":"]);
    t.wait_for("the palette", |s| {
        s.contains(" commands ") && s.contains("step over")
    })
    .await;
    t.keys(&["-l", "step ov"]);
    let s = t
        .wait_for("the filtered list", |s| s.contains(": step ov"))
        .await;
    assert!(
        !s.contains("run to cursor"),
        "only matching actions stay: {s}"
    );
    t.keys(&["Enter"]);
    t.wait_for("the step", |s| {
        current_line(s) == Some(6) && !s.contains(" commands ")
    })
    .await;
    t.keys(&["?"]);
    t.wait_for("the help", |s| {
        s.contains("command palette") && s.contains("take / hand back control")
    })
    .await;
    t.keys(&["Escape", "q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_breakpoints_pane_edits_and_disables() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start("bps", ws.path(), &["--break", "prog.py:2", "--", "prog.py"]);
    t.wait_for("the first hit", |s| {
        s.contains("stopped: breakpoint") && s.contains("a = 1")
    })
    .await;
    // Focus: source → stack → variables → watch → breakpoints.
    t.keys(&["Tab", "Tab", "Tab", "Tab"]);
    t.wait_for("the pane focused", |s| {
        s.contains("prog.py:2") && s.contains("breakpoints")
    })
    .await;
    // debugpy's exception filters follow the breakpoints: uncaught is on.
    t.keys(&["j"]);
    t.wait_for("the exception filters", |s| {
        s.contains("☐ Raised Exceptions") && s.contains("☑ Uncaught Exceptions")
    })
    .await;
    t.keys(&["Space"]);
    t.wait_for("raised exceptions on", |s| {
        s.contains("☑ Raised Exceptions")
    })
    .await;
    t.keys(&["Space"]);
    t.wait_for("and off again", |s| s.contains("☐ Raised Exceptions"))
        .await;
    // Back up to the breakpoint.
    t.keys(&["k", "i"]);
    t.keys(&["-l", "a == 3"]);
    t.keys(&["Enter"]);
    t.wait_for("the condition", |s| s.contains("prog.py:2 if a == 3"))
        .await;
    t.keys(&["c"]);
    t.wait_for("the conditional hit", |s| {
        s.contains("stopped: breakpoint") && s.contains("a = 3")
    })
    .await;
    t.keys(&["Space"]);
    t.wait_for("the breakpoint off", |s| {
        s.contains("(off)") && s.lines().any(|l| l.contains("○→2 ") || l.contains("○ 2 "))
    })
    .await;
    t.keys(&["c"]);
    t.wait_for("the end, unstopped", |s| {
        s.contains("exited with code 0") && s.contains("result 13")
    })
    .await;
    t.keys(&["q", "y"]);
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_variables_tree_expands_lazily() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("tree.py", TREE)]);
    let t = Tmux::start(
        "tree",
        ws.path(),
        &["--break", "tree.py:9", "--", "tree.py"],
    );
    t.wait_for("the stop", |s| {
        s.contains("stopped: breakpoint") && s.contains("▸ box")
    })
    .await;
    // Focus the variables pane; box is its first row.
    t.keys(&["Tab", "Tab", "Enter"]);
    t.wait_for("box's members", |s| {
        s.contains("▾ box") && s.contains("items") && s.contains("label = \"box\"")
    })
    .await;
    t.keys(&["j", "Enter"]);
    t.wait_for("the first page of items", |s| {
        s.contains("▾   items") && s.contains("000 = 0")
    })
    .await;
    t.keys(&["G"]);
    t.wait_for("the end of the page", |s| {
        s.contains("199 = 199") && s.contains("… 101 more")
    })
    .await;
    t.keys(&["g", "j"]);
    // Enter again folds it.
    t.keys(&["Enter"]);
    t.wait_for("items folded", |s| !s.contains("000 = 0")).await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_and_the_file_picker_move_the_source() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[
        ("prog.py", PROG),
        ("lib/helpers.py", "def helper():\n    return 42\n"),
    ]);
    let t = Tmux::start("find", ws.path(), &["--", "prog.py"]);
    t.wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    // `/` searches from the cursor; an empty search repeats the last one.
    t.keys(&["/"]);
    t.keys(&["-l", "add("]);
    t.keys(&["Enter"]);
    // Line 6 is the first `add(` after line 1's `def add(`; the cursor line is reversed,
    // so read the cursor from the F9 mark it makes.
    t.keys(&["F9"]);
    t.wait_for("a breakpoint at the match", |s| {
        s.lines().any(|l| l.contains("● 6 "))
    })
    .await;
    t.keys(&["/", "Enter", "F9"]);
    t.wait_for("the next match", |s| s.lines().any(|l| l.contains("● 7 ")))
        .await;
    // `o` opens any workspace file.
    t.keys(&["o"]);
    t.wait_for("the picker", |s| s.contains(" files (")).await;
    t.keys(&["-l", "help"]);
    t.wait_for("one match", |s| {
        s.contains(" files (1) ") && s.contains("lib/helpers.py")
    })
    .await;
    t.keys(&["Enter"]);
    t.wait_for("the file shown", |s| {
        s.contains("def helper():") && s.contains("lib/helpers.py")
    })
    .await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn selecting_a_frame_moves_source_locals_and_evaluation() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start(
        "frames",
        ws.path(),
        &["--break", "prog.py:3", "--", "prog.py"],
    );
    t.wait_for("the stop in add", |s| {
        s.contains("stopped: breakpoint") && s.contains("total = 3")
    })
    .await;
    // Focus the stack and select the caller.
    t.keys(&["Tab", "j"]);
    let s = t
        .wait_for("the caller's frame", |s| {
            s.contains("variables (frame 1)")
                && current_line(s) == Some(6)
                && !s.contains("total = 3")
        })
        .await;
    assert!(
        !s.contains("total = 3"),
        "the pane shows the caller's locals, not add's: {s}"
    );
    // Evaluation follows the selected frame: `a` is not defined in <module>.
    t.keys(&["e"]);
    t.keys(&["-l", "a"]);
    t.keys(&["Enter"]);
    t.wait_for("the caller's scope", |s| s.contains("NameError"))
        .await;
    // Evaluating focused the console: three Tabs lead back to the stack.
    t.keys(&["Tab", "Tab", "Tab", "k"]);
    t.wait_for("back to the top frame", |s| {
        s.contains("total = 3") && current_line(s) == Some(3)
    })
    .await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resizing_and_a_crashed_adapter_leave_the_ui_usable() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    // Thirty lines of comments put the entry stop (line 31) low in the file.
    let padded = format!("{}{PROG}", "# padding\n".repeat(30));
    let ws = workspace(&[("prog.py", &padded)]);
    let t = Tmux::run("crash", ws.path(), "sh");
    t.keys(&[
        &format!(
            "{} -- prog.py; echo PAIRDBG-EXIT=$?",
            env!("CARGO_BIN_EXE_pairdbg")
        ),
        "Enter",
    ]);
    t.wait_for("the entry stop", |s| {
        s.contains("stopped: entry") && current_line(s) == Some(31)
    })
    .await;
    // Narrow: the side panes move under the source, whose few rows still
    // show the current line.
    let _ = Command::new("tmux")
        .args(["-L", &t.socket, "resize-window", "-x", "80", "-y", "24"])
        .status();
    t.wait_for("the narrow layout", |s| {
        s.lines()
            .any(|l| l.contains("call stack") && l.contains("variables"))
            && current_line(s) == Some(31)
    })
    .await;
    // Kill the adapter: the session fails, the UI says so and still quits cleanly.
    let tree = descendants(t.pane_pid().expect("pane"));
    let adapter = tree
        .iter()
        .copied()
        .find(|p| {
            std::fs::read(format!("/proc/{p}/cmdline"))
                .map(|c| String::from_utf8_lossy(&c).contains("adapter_boot.py"))
                .unwrap_or(false)
        })
        .expect("the adapter runs");
    // SAFETY: signalling a process this test started.
    unsafe { libc::kill(adapter as i32, libc::SIGKILL) };
    t.wait_for("the failure and its reason", |s| {
        // "unexpectedly", or naming the request it left unanswered.
        s.contains("the session failed: the debug adapter exited")
    })
    .await;
    // R, as the message says, starts it again.
    t.keys(&["R"]);
    t.wait_for("the program again", |s| s.contains("stopped: entry"))
        .await;
    t.keys(&["q", "y"]);
    t.wait_for("a clean exit", |s| shell_exit(s).is_some())
        .await;
    let others: Vec<u32> = tree.into_iter().filter(|p| *p != adapter).collect();
    let left: Vec<u32> = survivors_besides_shell(&others, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "survivors: {left:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_restores_the_terminal_and_ends_the_session() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::run("panic", ws.path(), "sh");
    t.keys(&[
        &format!(
            "RUST_BACKTRACE=0 PAIRDBG_TEST_PANIC=1 {} -- prog.py; echo PAIRDBG-EXIT=$?",
            env!("CARGO_BIN_EXE_pairdbg")
        ),
        "Enter",
    ]);
    let s = t
        .wait_for("the shell again", |s| shell_exit(s).is_some())
        .await;
    assert!(
        s.contains("PAIRDBG_TEST_PANIC is set"),
        "the panic message is readable: {s}"
    );
    assert!(
        !s.contains("call stack") && !s.contains("╭"),
        "the alternate screen is gone: {s}"
    );
    // The terminal answers normally again: typed text echoes.
    t.keys(&["echo typed-after-panic", "Enter"]);
    t.wait_for("an echoing terminal", |s| {
        s.matches("typed-after-panic").count() >= 2
    })
    .await;
    let left = pids_matching(&ws.path().join("prog.py").display().to_string());
    assert!(
        wait_dead(&left, Duration::from_secs(10)).await.is_empty(),
        "the program dies with pairdbg: {left:?}"
    );
}

const THREADS: &str = "\
import threading
ready = threading.Event()
stop = threading.Event()
worker = threading.Thread(target=lambda: (ready.set(), stop.wait(30)), name='worker')
worker.start()
ready.wait()
n = 2
stop.set()
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watches_are_added_edited_and_removed_and_threads_show() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("t.py", THREADS)]);
    let t = Tmux::start("watches", ws.path(), &["--break", "t.py:8", "--", "t.py"]);
    let s = t
        .wait_for("the stop", |s| {
            s.contains("stopped: breakpoint") && s.contains("threads:")
        })
        .await;
    assert!(
        s.contains("MainThread") && s.contains("worker"),
        "both threads are listed: {s}"
    );
    t.keys(&["w"]);
    t.keys(&["-l", "n * 10"]);
    t.keys(&["Enter"]);
    t.wait_for("the watch", |s| s.contains("n * 10 = 20")).await;
    // Adding focused the console; five Tabs reach the watch pane.
    t.keys(&["Tab", "Tab", "Tab", "Tab", "Tab", "Enter"]);
    t.wait_for("the editor", |s| s.contains("edit watch › n * 10"))
        .await;
    t.keys(&["BSpace", "BSpace"]);
    t.keys(&["-l", "100"]);
    t.keys(&["Enter"]);
    t.wait_for("the edited watch", |s| {
        s.contains("n * 100 = 200") && !s.contains("n * 10 =")
    })
    .await;
    t.keys(&["x"]);
    t.wait_for("no watch", |s| s.contains("w adds a watch"))
        .await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_person_sets_a_value_in_the_variables_pane() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start(
        "setvalue",
        ws.path(),
        &["--break", "prog.py:2", "--", "prog.py"],
    );
    t.wait_for("the stop", |s| {
        s.contains("stopped: breakpoint") && s.contains("a = 1")
    })
    .await;
    // Focus the variables pane; its first row is `a`.
    t.keys(&["Tab", "Tab", "="]);
    t.wait_for("the value editor, filled with the value", |s| {
        s.contains("set a › 1▏")
    })
    .await;
    t.keys(&["BSpace"]);
    t.keys(&["-l", "40 + 1"]);
    t.keys(&["Enter"]);
    t.wait_for("the new value", |s| s.contains("a = 41")).await;
    // The program runs on with it.
    t.keys(&["n"]);
    t.wait_for("the step", |s| {
        current_line(s) == Some(3) && s.contains("total = 43")
    })
    .await;
    // A bad value is refused with Python's own words, and nothing changes.
    t.keys(&["Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "Tab", "Tab"]);
    t.keys(&["k", "k", "k", "="]);
    t.wait_for("the editor again", |s| s.contains("set a › 41▏"))
        .await;
    t.keys(&["BSpace", "BSpace"]);
    t.keys(&["-l", "1/0"]);
    t.keys(&["Enter"]);
    t.wait_for("the error", |s| s.contains("ZeroDivisionError"))
        .await;
    assert!(t.screen().contains("a     = 41"), "{}", t.screen());
    t.keys(&["q", "y"]);
}

/// `48;2;r;g;b`: how a theme's background reaches the terminal.
fn background(theme: &str) -> String {
    let t = pairdbg::tui::theme::Theme::load(theme).expect("a bundled theme");
    match t.current_line.bg {
        Some(ratatui::style::Color::Rgb(r, g, b)) => format!("48;2;{r};{g};{b}"),
        other => panic!("{theme}'s current line has no RGB background: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn themes_come_from_the_flag_or_the_config_file_and_code_is_highlighted() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let (dark, light, gruvbox) = (
        background("dark"),
        background("light"),
        background("gruvbox"),
    );
    assert!(dark != light && dark != gruvbox);

    // The default theme; syntect colours the code once the highlighter,
    // which runs off the UI thread, is done.
    let t = Tmux::start(
        "dark",
        ws.path(),
        &["--break", "prog.py:2", "--", "prog.py"],
    );
    let s = t
        .wait_for_escapes("syntax colours", |s| {
            // `def add(a, b):` split by colour changes: keyword, name, parameters.
            s.lines()
                .filter_map(|l| l.split_once("def")?.1.split_once("):"))
                .any(|(sig, _)| sig.matches("38;2;").count() >= 3)
        })
        .await;
    assert!(s.contains(&dark), "the current line's background: {s}");
    t.keys(&["q", "y"]);

    let t = Tmux::start(
        "light",
        ws.path(),
        &["--theme", "light", "--break", "prog.py:2", "--", "prog.py"],
    );
    let s = t
        .wait_for_escapes("the light theme", |s| s.contains(&light))
        .await;
    assert!(!s.contains(&dark), "{s}");
    t.keys(&["q", "y"]);

    let config = tempfile::tempdir().expect("config dir");
    std::fs::create_dir_all(config.path().join("pairdbg")).expect("mkdir");
    std::fs::write(
        config.path().join("pairdbg/config.toml"),
        "theme = \"gruvbox\"\n",
    )
    .expect("config");
    let t = Tmux::run(
        "gruvbox",
        ws.path(),
        &format!(
            "XDG_CONFIG_HOME={} {} --break prog.py:2 -- prog.py",
            config.path().display(),
            env!("CARGO_BIN_EXE_pairdbg")
        ),
    );
    let s = t
        .wait_for_escapes("the configured theme", |s| s.contains(&gruvbox))
        .await;
    assert!(!s.contains(&dark), "{s}");
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_adapter_shows_a_spinner_and_the_ui_stays_live() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start(
        "slow",
        ws.path(),
        &["--break", "prog.py:2", "--", "prog.py"],
    );
    t.wait_for("the stop", |s| s.contains("stopped: breakpoint"))
        .await;
    // debugpy answers nothing else while this evaluation sleeps.
    t.keys(&["e"]);
    t.keys(&["-l", "__import__('time').sleep(4) or 7"]);
    t.keys(&["Enter"]);
    t.wait_for("the spinner", |s| s.contains("waiting for the adapter"))
        .await;
    // Meanwhile keys still work: the help overlay opens and closes.
    t.keys(&["?"]);
    let s = t
        .wait_for("the help overlay", |s| s.contains("show the next thread"))
        .await;
    // (The overlay hides the end of the status bar.)
    assert!(
        s.contains("waiting for"),
        "the answer is still outstanding: {s}"
    );
    t.keys(&["?"]);
    t.wait_for("the answer, and no spinner", |s| {
        s.contains("7  (int)") && !s.contains("waiting for the adapter")
    })
    .await;
    t.keys(&["q", "y"]);
}

const SPIN: &str = "\
import threading
ready = threading.Event()
stop = threading.Event()


def spin(tag):
    ready.set()
    while not stop.is_set():
        tag = tag
    return tag


worker = threading.Thread(target=spin, args=('w',), name='worker')
worker.start()
ready.wait()
n = 2
stop.set()
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn t_switches_to_another_thread_and_back() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("spin.py", SPIN)]);
    let t = Tmux::start(
        "threads",
        ws.path(),
        &["--break", "spin.py:16", "--", "spin.py"],
    );
    t.wait_for("the stop", |s| {
        s.contains("stopped: breakpoint")
            && s.contains("MainThread]")
            && current_line(s) == Some(16)
    })
    .await;
    t.keys(&["t"]);
    let s = t
        .wait_for("the worker's stack", |s| {
            s.contains("worker]") && s.contains("spin  spin.py:") && s.contains("stopped: pause")
        })
        .await;
    assert!(
        matches!(current_line(&s), Some(8 | 9)),
        "the source follows the worker: {s}"
    );
    assert!(s.contains("tag = \"w\""), "the worker's locals: {s}");
    let worker_id = s
        .split(" worker]")
        .next()
        .and_then(|head| head.rsplit('[').next())
        .unwrap_or_default()
        .to_string();
    assert!(
        s.contains(&format!("frame, thread {worker_id})")),
        "the stack's title names the worker's thread {worker_id:?}: {s}"
    );
    t.keys(&["t"]);
    t.wait_for("back on the main thread", |s| {
        s.contains("MainThread]")
            && s.contains("stopped: breakpoint")
            && current_line(s) == Some(16)
    })
    .await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pairdbg_alone_opens_the_demo() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    // Outside the repository the bundled copy of the demo is used.
    let elsewhere = workspace(&[]);
    let t = Tmux::start("demo", elsewhere.path(), &[]);
    let s = t
        .wait_for("the demo's stop", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(44)
        })
        .await;
    assert!(
        s.contains("discount = calculate_discount(user, subtotal)"),
        "{s}"
    );
    assert!(s.contains("subtotal = 119.94"), "{s}");
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vanished_terminal_ends_everything_and_cleans_up() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let t = Tmux::start("hangup", ws.path(), &["--", "prog.py"]);
    t.wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    let root = ws.path().canonicalize().unwrap();
    let files = pairdbg::agent::discovery::files_for(&root);
    assert_eq!(files.len(), 1, "the TUI publishes its endpoint");
    let file = files[0].clone();
    let tree = descendants(t.pane_pid().expect("pane"));
    let mut all = tree.clone();
    all.push(t.pane_pid().unwrap());
    // Closing the terminal (SIGHUP) is not a crash: the TUI ends as on q.
    drop(t);
    assert!(
        wait_dead(&all, Duration::from_secs(10)).await.is_empty(),
        "every process ends"
    );
    assert!(!file.exists(), "the discovery file goes with the TUI");
}
