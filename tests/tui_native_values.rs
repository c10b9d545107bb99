//! Values of native programs in the real binary in a real terminal (tmux):
//! values at the end of the source lines on Go and Rust, and a C stop with
//! huge arrays and a function's statics in the variables pane.

mod common;

use std::process::Command;

use common::native::{
    BIG_C, build_c, build_cpp, build_rust_values, gdb_available, lldb_available, rust_values_line,
};
use common::tmux::{Tmux, current_line};
use common::*;

const GO_PROG: &str = "package main

import \"fmt\"

func add(a int, b int) int {
\ttotal := a + b
\treturn total
}

func main() {
\tx := add(1, 2)
\tfmt.Println(\"result\", x)
}
";

const RUST_PROG: &str = "fn add(a: i32, b: i32) -> i32 {
    let total = a + b;
    let doubled = total * 2;
    doubled - total
}

fn main() {
    let x = add(1, 2);
    println!(\"result {x}\");
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn go_values_show_at_the_end_of_the_lines_that_use_them() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("main.go", GO_PROG), ("go.mod", "module add\n\ngo 1.18\n")]);
    let t = Tmux::start("goinline", ws.path(), &["--break", "main.go:7", "--", "."]);
    let s = t
        .wait_for("values inline", |s| {
            current_line(s) == Some(7) && s.lines().any(|l| l.contains("return total   total = 3"))
        })
        .await;
    assert!(
        s.lines()
            .any(|l| l.contains("total := a + b   total = 3, a = 1, b = 2")),
        "{s}"
    );
    // Lines outside the function get none.
    assert!(
        s.lines()
            .any(|l| l.contains("x := add(1, 2)") && !l.contains("x = 3")),
        "{s}"
    );
    t.keys(&["v"]);
    t.wait_for("values hidden", |s| {
        s.lines()
            .any(|l| l.contains("return total") && !l.contains("total = 3"))
    })
    .await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_values_show_at_the_end_of_the_lines_that_use_them() {
    if !lldb_available() || !Tmux::available() || !tool_available("rustc") {
        return;
    }
    let ws = workspace(&[("add.rs", RUST_PROG)]);
    let st = Command::new("rustc")
        .args(["-g", "-C", "opt-level=0", "-o", "add", "add.rs"])
        .current_dir(ws.path())
        .status()
        .expect("run rustc");
    assert!(st.success(), "rustc failed");
    let t = Tmux::start(
        "rsinline",
        ws.path(),
        &["--break", "add.rs:3", "--", "./add"],
    );
    let s = t
        .wait_for("values inline", |s| {
            current_line(s) == Some(3)
                && s.lines()
                    .any(|l| l.contains("let total = a + b;   total = 3, a = 1, b = 2"))
        })
        .await;
    assert!(
        s.lines()
            .filter_map(|l| l.split("││").next())
            .any(|l| l.contains("let x = add(1, 2);") && !l.contains("x = 3")),
        "{s}"
    );
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_huge_arrays_and_statics_show_in_the_variables_pane() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("big.c", BIG_C)]);
    build_c(&ws.path().join("big.c"), &ws.path().join("big"));
    let t = Tmux::start("cbig", ws.path(), &["--break", "big.c:14", "--", "./big"]);
    let s = t
        .wait_for("the stop with the arrays' counts", |s| {
            current_line(s) == Some(14) && s.contains("(100000 item") && s.contains("(200000 item")
        })
        .await;
    let row = |name: &str| {
        // The variables pane's row, not the source's inline values.
        s.lines()
            .filter_map(|l| l.rsplit("││").next())
            .find(|l| l.contains(&format!(" {name} ")) && l.contains(" = "))
            .map(str::to_string)
    };
    assert!(row("calls").is_some_and(|r| r.contains("calls = 1")), "{s}");
    assert!(
        row("big").is_some_and(|r| r.contains("(200000 item")),
        "{s}"
    );
    t.keys(&["q", "y"]);
}

/// The variables pane on gdb reads each Rust value as Rust writes it: the
/// cases lldb-dap read as another variant.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_values_read_as_rust_in_the_variables_pane() {
    if !gdb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[]);
    build_rust_values(ws.path());
    let line = rust_values_line("println!(\"{:?} {:?} {:?} {:?} {:?}\"");
    let at = format!("src/main.rs:{line}");
    let t = Tmux::start("rustvalues", ws.path(), &["--break", &at, "--", "./values"]);
    t.wait_for("the breakpoint stop", |s| {
        current_line(s) == Some(line as u32)
    })
    .await;
    // The variables pane, zoomed to the whole width.
    t.keys(&["Tab", "Tab", "z"]);
    let expected = [
        "none = None",
        "some = Some(\"yes\")",
        "found = Some(Item {id: 42, name: \"saw\"})",
        "ok = Ok(3)",
        "err = Err(\"bad\")",
        "c_tool = Cat::Tool",
        "c_food = Cat::Food {perishable: true, days: 6}",
        "c_gad = Cat::Gadget(\"FM\", 2)",
        "results = [Ok(2)]",
        "small = 2",
    ];
    let s = t
        .wait_for("every value", |s| {
            let flat = squash(s);
            expected.iter().all(|e| flat.contains(e))
        })
        .await;
    assert!(!s.contains("Gadget(\"\""), "a wrong variant: {s}");
    t.keys(&["q", "y"]);
}

const MAPS_CPP: &str = r#"#include <cstdio>
#include <map>
#include <string>
#include <vector>

int main() {
    std::map<std::string, int> balances = {{"food", -325}, {"rent", 1200}};
    std::map<std::string, std::vector<int>> groups = {{"odd", {1, 3}}};
    std::printf("%zu %zu\n", balances.size(), groups.size());
    return 0;
}
"#;

/// A C++ map opens in the variables pane to one row per entry, named by
/// its key, and a mapped value that is a container opens in turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cpp_map_opens_to_rows_named_by_their_keys() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("maps.cpp", MAPS_CPP)]);
    build_cpp(&ws.path().join("maps.cpp"), &ws.path().join("maps"));
    let t = Tmux::start(
        "cppmaps",
        ws.path(),
        &["--break", "maps.cpp:9", "--", "./maps"],
    );
    t.wait_for("the stop with balances in the tree", |s| {
        current_line(s) == Some(9) && s.contains("▸ balances")
    })
    .await;
    // The variables pane, zoomed; balances is its first row.
    t.keys(&["Tab", "Tab", "z", "Enter"]);
    let s = t
        .wait_for("the map's entries", |s| {
            let s = squash(s);
            s.contains("[\"food\"] = -325") && s.contains("[\"rent\"] = 1200")
        })
        .await;
    assert!(!s.contains("<pair>"), "{s}");
    // groups, then its one entry's vector.
    t.keys(&["j", "j", "j", "Enter"]);
    t.wait_for("the groups' entry", |s| {
        squash(s).contains("[\"odd\"] = [1, 3]")
    })
    .await;
    t.keys(&["j", "Enter"]);
    t.wait_for("the entry's items", |s| {
        let s = squash(s);
        s.contains("[0] = 1") && s.contains("[1] = 3")
    })
    .await;
    t.keys(&["q", "y"]);
}
