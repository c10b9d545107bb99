//! The native views in a real terminal on the C demo through lldb-dap:
//! disassembly with instruction steps, the registers scope, the memory
//! view; on Go the disassembly, and on Python, the keys say why not.

mod common;

use common::native::*;
use common::tmux::{Tmux, current_line};
use common::*;

/// The address the disassembly view marks as current.
fn current_address(screen: &str) -> Option<String> {
    screen.lines().find_map(|l| {
        let after = l.split("→ 0x").nth(1)?;
        Some(after.split_whitespace().next()?.to_string())
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_disassembly_shows_the_current_instruction_and_steps_by_one() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[]);
    build_c_demo(ws.path());
    let t = Tmux::start(
        "disasm",
        ws.path(),
        &["--break", "inventory.c:22", "--", "./inventory"],
    );
    t.wait_for("the breakpoint stop", |s| {
        s.contains("stopped: breakpoint") && current_line(s) == Some(22)
    })
    .await;
    t.keys(&["D"]);
    let s = t
        .wait_for("the disassembly", |s| {
            s.contains("disassembly") && current_address(s).is_some()
        })
        .await;
    assert!(s.contains("needs_restock"), "the function is named: {s}");
    assert!(
        s.contains("inventory.c:22"),
        "the source line shows above its instructions: {s}"
    );
    let before = current_address(&s).unwrap();
    // n steps one instruction while the view is shown.
    t.keys(&["n"]);
    let s = t
        .wait_for("the next instruction", |s| {
            s.contains("stopped") && current_address(s).is_some_and(|a| a != before)
        })
        .await;
    assert!(s.contains("disassembly"), "the view stays: {s}");
    // Esc goes back to the source.
    t.keys(&["Escape"]);
    t.wait_for("the source again", |s| current_line(s) == Some(22))
        .await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registers_and_memory_show_on_a_c_program() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[]);
    build_c_demo(ws.path());
    let t = Tmux::start(
        "memory",
        ws.path(),
        &["--break", "inventory.c:22", "--", "./inventory"],
    );
    t.wait_for("the registers scope, collapsed", |s| {
        s.contains("stopped: breakpoint") && s.contains("▸ Registers")
    })
    .await;
    // The variables pane, its last row: Registers opens to its groups.
    t.keys(&["Tab", "Tab", "G", "Enter"]);
    t.wait_for("the register groups", |s| {
        s.contains("▾ Registers") && s.contains("General Purpose Registers")
    })
    .await;
    // The memory where `it` points: the first item, named "widget".
    t.keys(&["M"]);
    t.keys(&["-l", "it"]);
    t.keys(&["Enter"]);
    let s = t
        .wait_for("the memory view", |s| {
            s.contains("memory: it @ 0x") && s.contains("|widget")
        })
        .await;
    assert!(s.contains("77 69 64 67 65 74"), "the bytes in hex: {s}");
    // Scrolling past the first read reads on: the row 256 bytes in shows.
    let base = s
        .split("memory: it @ 0x")
        .nth(1)
        .and_then(|r| u64::from_str_radix(r.split_whitespace().next()?, 16).ok())
        .expect("the view's address");
    // How far two pages go depends on whether the first page's read-on
    // landed before the second key: any row past the first read will do.
    let read_on = |s: &str| {
        s.lines().any(|l| {
            l.trim_start_matches('│')
                .strip_prefix("0x")
                .and_then(|r| u64::from_str_radix(r.split_whitespace().next()?, 16).ok())
                .is_some_and(|a| a >= base + 256)
        })
    };
    t.keys(&["PageDown", "PageDown"]);
    t.wait_for("the bytes read on", read_on).await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_python_the_native_keys_say_why_not() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("app.py", "x = 1\nprint(x)\n")]);
    let t = Tmux::start("nonative", ws.path(), &["--", "app.py"]);
    t.wait_for("the entry stop", |s| s.contains("stopped"))
        .await;
    t.keys(&["D"]);
    t.wait_for("why no disassembly", |s| {
        squash(s).contains("disassembly needs a native adapter")
    })
    .await;
    t.keys(&["M"]);
    t.wait_for("why no memory view", |s| {
        squash(s).contains("the memory view needs a native adapter")
    })
    .await;
    t.keys(&["q", "y"]);
}

const GO_PROGRAM: &str =
    "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tx := 1\n\tfmt.Println(x)\n}\n";

/// On Go the adapter disassembles, so D shows the instructions; M takes an
/// address, and says why a value without one cannot be shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_go_the_disassembly_shows_and_memory_needs_an_address() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/nv\n\ngo 1.19\n"),
        ("main.go", GO_PROGRAM),
    ]);
    let t = Tmux::start("gonative", ws.path(), &["--break", "main.go:7", "--", "."]);
    t.wait_for("the breakpoint stop", |s| current_line(s) == Some(7))
        .await;
    t.keys(&["D"]);
    let s = t
        .wait_for("the disassembly", |s| current_address(s).is_some())
        .await;
    assert!(
        squash(&s).contains("main.go:7 fmt.Println(x)"),
        "source lines: {s}"
    );
    // delve (1.22 and later) reads memory, but writes a pointer as `*1`,
    // with no address: M says so rather than guess one.
    t.keys(&["Escape", "M"]);
    t.keys(&["-l", "&x"]);
    t.keys(&["Enter"]);
    t.wait_for("why this memory cannot be read", |s| {
        squash(s).contains("&x = *1 is neither a pointer nor an address")
    })
    .await;
    t.keys(&["q", "y"]);
}
