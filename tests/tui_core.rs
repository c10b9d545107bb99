//! A core file in a real terminal: the TUI opens it at the crash, and the
//! keys that would run the program say why nothing runs, while the
//! disassembly still reads.

mod common;

use common::cores::{
    CRASH_PY, SEGV_PY, core_by_keep_core, crash_with_core, python_core_of_segv,
    python_dump_of_crash,
};
use common::native::{build_c, gdb_available, lldb_available};
use common::tmux::{Tmux, current_line};
use common::*;

const CRASH_C: &str = "\
#include <stddef.h>
static int read_x(int *p) {
    int depth = 7;
    return *p + depth;
}
int main(void) {
    int *nowhere = NULL;
    return read_x(nowhere);
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_opens_a_core_on_gdb_and_its_run_keys_say_nothing_runs() {
    if !gdb_available() || !Tmux::available() {
        return;
    }
    tui_core("gdb").await;
}

/// lldb-dap disassembles a core from the code in it, which the cores
/// `--keep-core` lets the program write hold.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_opens_a_keep_core_core_on_lldb_dap_with_its_disassembly() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("crash.c", CRASH_C)]);
    build_c(&ws.path().join("crash.c"), &ws.path().join("crash"));
    let Some(_) = core_by_keep_core(ws.path(), "crash") else {
        return;
    };
    let t = Tmux::start(
        "tuicorelldb",
        ws.path(),
        &["--core", "core", "--", "./crash"],
    );
    t.wait_for("the crash", |s| {
        s.contains("stopped: SIGSEGV: the program crashed") && current_line(s) == Some(4)
    })
    .await;
    t.keys(&["D"]);
    let s = t
        .wait_for("the disassembly", |s| {
            s.contains("disassembly") && s.contains("→ 0x")
        })
        .await;
    assert!(s.contains("read_x"), "{s}");
    t.keys(&["n"]);
    t.wait_for("the refusal", |s| {
        s.contains("this is a core file: nothing runs")
    })
    .await;
    t.keys(&["q", "y"]);
}

async fn tui_core(adapter: &str) {
    let ws = workspace(&[("crash.c", CRASH_C)]);
    let bin = ws.path().join("crash");
    build_c(&ws.path().join("crash.c"), &bin);
    let core = crash_with_core(ws.path(), &bin, &[]);
    let core = core.file_name().unwrap().to_string_lossy().into_owned();
    let t = Tmux::start(
        "tuicore",
        ws.path(),
        &["--adapter", adapter, "--core", &core, "--", "./crash"],
    );
    let s = t
        .wait_for("the crash", |s| {
            s.contains("stopped: SIGSEGV: the program crashed") && current_line(s) == Some(4)
        })
        .await;
    assert!(s.contains("read_x"), "{s}");
    for key in ["n", "c"] {
        t.keys(&[key]);
        t.wait_for("the refusal", |s| {
            s.contains("this is a core file: nothing runs")
        })
        .await;
        t.keys(&["Escape"]);
    }
    t.keys(&["D"]);
    let s = t
        .wait_for("the disassembly", |s| {
            s.contains("disassembly") && s.contains("→ 0x")
        })
        .await;
    assert_eq!(current_line(&s), Some(4), "{s}");
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_opens_a_python_dump_at_the_raise_and_its_run_keys_say_nothing_runs() {
    if !python_package_available("coredumpy") || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("crash.py", CRASH_PY)]);
    let dump = python_dump_of_crash(ws.path());
    let t = Tmux::start("tuidump", ws.path(), &["--core", &dump]);
    let s = t
        .wait_for("the raise", |s| {
            s.contains("stopped: ZeroDivisionError: float division by zero")
                && current_line(s) == Some(12)
        })
        .await;
    assert!(s.contains("spent  = 20.0"), "{s}");
    assert!(s.contains("settle"), "{s}");
    t.keys(&["n"]);
    t.wait_for("the refusal", |s| {
        s.contains("this is a core file: nothing runs")
    })
    .await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tui_opens_a_python_interpreters_core_at_the_programs_frame() {
    if !python_package_available("pystack") || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("segv.py", SEGV_PY)]);
    let core = python_core_of_segv(ws.path());
    let t = Tmux::start("tuipycore", ws.path(), &["--core", &core]);
    let s = t
        .wait_for("the crash", |s| {
            s.contains("stopped: SIGSEGV: the program crashed") && current_line(s) == Some(7)
        })
        .await;
    assert!(s.contains("count  = 2"), "{s}");
    assert!(s.contains("read"), "{s}");
    // The console reads a local by its name.
    t.keys(&["e"]);
    t.keys(&["label", "Enter"]);
    t.wait_for("the local's value", |s| {
        s.contains("› label") && s.contains("\"week 48\"")
    })
    .await;
    t.keys(&["q", "y"]);
}
