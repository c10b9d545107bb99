//! The program's stdout and stderr reach `debug_output` and the TUI's
//! output pane in the order the program wrote them, stderr still marked,
//! for Python (debugpy, flushing after each line) and C (lldb-dap, both
//! streams unbuffered), each line a few milliseconds after the one
//! before. Two lines written within microseconds of each other on the two
//! terminals can reach the debugger together, where nothing tells their
//! order (the README says so); under a loaded machine the test saw that.

mod common;

use common::native::*;
use common::tmux::Tmux;
use common::*;
use serde_json::json;

const ROUNDS: usize = 20;

fn python(rounds: usize) -> String {
    format!(
        "\
import sys, time
for i in range({rounds}):
    print(f'out {{i}}', flush=True)
    time.sleep(0.005)
    print(f'err {{i}}', file=sys.stderr, flush=True)
    time.sleep(0.02)
print('done', flush=True)
"
    )
}

const C: &str = r#"
#include <stdio.h>
#include <unistd.h>
int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    setvbuf(stderr, NULL, _IONBF, 0);
    for (int i = 0; i < 20; i++) {
        printf("out %d\n", i);
        usleep(5000);
        fprintf(stderr, "err %d\n", i);
        usleep(20000);
    }
    printf("done\n");
    return 0;
}
"#;

/// The lines each round wrote, in write order, as `debug_output` marks them.
fn expected() -> Vec<String> {
    (0..ROUNDS)
        .flat_map(|i| [format!("out {i}"), format!("[stderr] err {i}")])
        .chain(["done".to_string()])
        .collect()
}

fn program_lines(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.starts_with("out ") || l.starts_with("[stderr] err ") || *l == "done")
        .map(str::to_string)
        .collect()
}

async fn output_in_order(mcp: &Mcp) {
    let out = mcp.output_containing("\ndone").await;
    assert_eq!(program_lines(&out), expected(), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_stdout_and_stderr_keep_their_write_order() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", &python(ROUNDS))]);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok("debug_launch", json!({"program": "prog.py"})).await;
    output_in_order(&mcp).await;
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_stdout_and_stderr_keep_their_write_order() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[("order.c", C)]);
    build_c(&ws.path().join("order.c"), &ws.path().join("order"));
    let mcp = mcp_in(ws.path()).await;
    mcp.ok("debug_launch", json!({"program": "order"})).await;
    output_in_order(&mcp).await;
    mcp.close().await;
}

/// The output pane, zoomed so every line shows: the same order, stderr
/// marked with its bar.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_output_pane_keeps_the_write_order() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let rounds = 12;
    let ws = workspace(&[("prog.py", &python(rounds))]);
    let t = Tmux::start("order", ws.path(), &["--", "prog.py"]);
    // The TUI stops at the program's first line: run it to its end.
    t.wait_for("the stop on entry", |s| s.contains("stopped"))
        .await;
    t.keys(&["c"]);
    t.wait_for("the program's end", |s| s.contains("│done"))
        .await;
    // Tab from the source to the output pane, then zoom it.
    t.keys(&["Tab", "Tab", "Tab", "Tab", "Tab", "z"]);
    let s = t
        .wait_for("the zoomed output pane", |s| {
            s.contains("│out 0") && s.contains("│done")
        })
        .await;
    let shown: Vec<String> = s
        .lines()
        .filter_map(|l| {
            let inner = l.strip_prefix('│')?.trim_end().trim_end_matches('│');
            let inner = inner.trim_end();
            let line = match inner.strip_prefix('▌') {
                Some(err) => format!("[stderr] {err}"),
                None => inner.to_string(),
            };
            (line.starts_with("out ") || line.starts_with("[stderr] err ") || line == "done")
                .then_some(line)
        })
        .collect();
    let want: Vec<String> = (0..rounds)
        .flat_map(|i| [format!("out {i}"), format!("[stderr] err {i}")])
        .chain(["done".to_string()])
        .collect();
    assert_eq!(shown, want, "{s}");
    t.keys(&["q", "y"]);
}
