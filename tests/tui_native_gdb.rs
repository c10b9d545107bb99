//! The native views in a real terminal on the C demo through gdb, as on
//! lldb-dap (tui_native_views.rs): the disassembly with the current
//! instruction marked and stepped by one, the registers scope, and the
//! memory a pointer points at.

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
async fn on_gdb_the_disassembly_marks_the_current_instruction_and_steps_by_one() {
    if !gdb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[]);
    build_c_demo(ws.path());
    let t = Tmux::start(
        "gdbdisasm",
        ws.path(),
        &[
            "--adapter",
            "gdb",
            "--break",
            "inventory.c:22",
            "--",
            "./inventory",
        ],
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
    eprintln!("{s}");
    assert!(s.contains("needs_restock"), "the function is named: {s}");
    assert!(
        s.contains("inventory.c:22"),
        "the source line shows above its instructions: {s}"
    );
    // The source stays beside the instructions, its current line marked.
    assert_eq!(current_line(&s), Some(22), "the source beside: {s}");
    let before = current_address(&s).unwrap();
    t.keys(&["n"]);
    let s = t
        .wait_for("the next instruction", |s| {
            s.contains("stopped") && current_address(s).is_some_and(|a| a != before)
        })
        .await;
    eprintln!("{s}");
    assert!(s.contains("disassembly"), "the view stays: {s}");
    t.keys(&["Escape"]);
    t.wait_for("the source alone again", |s| {
        current_line(s) == Some(22) && !s.contains("disassembly")
    })
    .await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_gdb_registers_and_memory_show_on_a_c_program() {
    if !gdb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[]);
    build_c_demo(ws.path());
    let t = Tmux::start(
        "gdbmemory",
        ws.path(),
        &[
            "--adapter",
            "gdb",
            "--break",
            "inventory.c:22",
            "--",
            "./inventory",
        ],
    );
    let s = t
        .wait_for("the registers scope, collapsed", |s| {
            s.contains("stopped: breakpoint") && s.contains("▸ Registers")
        })
        .await;
    eprintln!("{s}");
    // The parameters show with the locals, not again as a scope.
    assert!(!s.contains("▸ Arguments"), "{s}");
    t.keys(&["Tab", "Tab", "G", "Enter"]);
    let s = t
        .wait_for("the registers", |s| {
            s.contains("▾ Registers") && s.contains("rax     = ")
        })
        .await;
    eprintln!("{s}");
    t.keys(&["M"]);
    t.keys(&["-l", "it"]);
    t.keys(&["Enter"]);
    let s = t
        .wait_for("the memory view", |s| {
            s.contains("memory: it @ 0x") && s.contains("|widget")
        })
        .await;
    eprintln!("{s}");
    assert!(s.contains("77 69 64 67 65 74"), "the bytes in hex: {s}");
    t.keys(&["q", "y"]);
}
