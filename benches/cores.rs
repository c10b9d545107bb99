//! Core file → first viewport through `pairdbg mcp`, for each kind of core
//! pairdbg opens: C on lldb-dap and on gdb, Rust (a panic under
//! `panic=abort`) on gdb, Go (a nil dereference) on delve. Each program is
//! built and crashed once; each round opens every core in turn.
//! Run with `cargo bench --bench cores`.

// Only `median` is wanted here.
#[allow(dead_code)]
mod common;
#[path = "../tests/common/cores.rs"]
#[allow(dead_code)]
mod cores;
#[path = "common/mcp_call.rs"]
mod mcp_call;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::json;

use common::median;
use mcp_call::{call, start_in};

const ROUNDS: usize = 8;

const CRASH_C: &str = "#include <stdio.h>
struct point { int x; int y; };
static int read_x(struct point *p) { int depth = 7; return p->x + depth; }
int main(void) { struct point *nowhere = NULL; printf(\"crash\\n\"); return read_x(nowhere); }
";

const PANIC_RS: &str = "fn check(qty: i64) -> i64 {
    let limit = 10;
    if qty > limit { panic!(\"{qty} items\"); }
    qty
}
fn main() { let mut t = 0; for q in [3, 42] { t += check(q); } println!(\"{t}\"); }
";

const CRASH_GO: &str = "package main

import \"fmt\"

type point struct{ x, y int }

func readX(p *point) int { depth := 7; return p.x + depth }

func main() { var nowhere *point; fmt.Println(readX(nowhere)) }
";

struct Kind {
    name: &'static str,
    adapter: Option<&'static str>,
    dir: PathBuf,
    core: PathBuf,
}

fn built(dir: &Path, cmd: &mut Command) -> bool {
    cmd.current_dir(dir)
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// Each kind whose compiler is on the machine, built and crashed.
fn kinds(tmp: &Path) -> Vec<Kind> {
    let mut out = vec![];
    let c = tmp.join("c");
    std::fs::create_dir_all(&c).expect("mkdir");
    std::fs::write(c.join("crash.c"), CRASH_C).expect("write");
    if built(
        &c,
        Command::new("cc").args(["-g", "-O0", "-o", "crash", "crash.c"]),
    ) {
        let core = cores::crash_with_core(&c, &c.join("crash"), &[]);
        for adapter in ["lldb-dap", "gdb"] {
            out.push(Kind {
                name: if adapter == "gdb" {
                    "C on gdb"
                } else {
                    "C on lldb-dap"
                },
                adapter: Some(adapter),
                dir: c.clone(),
                core: core.clone(),
            });
        }
    }
    let rs = tmp.join("rust");
    std::fs::create_dir_all(&rs).expect("mkdir");
    std::fs::write(rs.join("main.rs"), PANIC_RS).expect("write");
    let rustc = [
        "-g",
        "--edition",
        "2021",
        "-C",
        "panic=abort",
        "-o",
        "crash",
        "main.rs",
    ];
    if built(&rs, Command::new("rustc").args(rustc)) {
        let core = cores::crash_with_core(&rs, &rs.join("crash"), &[]);
        out.push(Kind {
            name: "Rust on gdb",
            adapter: Some("gdb"),
            dir: rs,
            core,
        });
    }
    let go = tmp.join("go");
    std::fs::create_dir_all(&go).expect("mkdir");
    std::fs::write(go.join("main.go"), CRASH_GO).expect("write");
    std::fs::write(go.join("go.mod"), "module crash\n\ngo 1.21\n").expect("write");
    let go_build = ["build", "-gcflags=all=-N -l", "-o", "crash", "."];
    if built(&go, Command::new("go").args(go_build)) {
        let core = cores::crash_with_core(&go, &go.join("crash"), &[("GOTRACEBACK", "crash")]);
        out.push(Kind {
            name: "Go on delve",
            adapter: None,
            dir: go,
            core,
        });
    }
    out
}

/// `debug_launch {core}` to the crash's viewport, in a fresh `pairdbg mcp`.
async fn open(kind: &Kind) -> f64 {
    let client = start_in(&kind.dir).await;
    let mut args = json!({"program": "crash", "core": kind.core, "timeout_ms": 60000});
    if let Some(a) = kind.adapter {
        args["adapter"] = json!(a);
    }
    let t = Instant::now();
    let v = call(&client, "debug_launch", args).await;
    let took = t.elapsed().as_secs_f64() * 1000.0;
    assert!(v.contains("Reason: crashed"), "{}: {v}", kind.name);
    let _ = call(&client, "debug_terminate", json!({})).await;
    let _ = client.cancel().await;
    took
}

#[tokio::main]
async fn main() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let kinds = kinds(tmp.path());
    let mut times = vec![vec![]; kinds.len()];
    for _ in 0..ROUNDS {
        for (k, t) in kinds.iter().zip(times.iter_mut()) {
            t.push(open(k).await);
        }
    }
    println!("\n| core | core → first viewport (median) | samples |");
    println!("|---|---|---|");
    for (k, t) in kinds.iter().zip(times) {
        println!("| {} | {:.1} ms | {} |", k.name, median(t), ROUNDS);
    }
}
