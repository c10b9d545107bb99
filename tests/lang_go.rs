//! Go end to end: the Go demo debugged by a real MCP client through the
//! real binary and a real delve; a panic, a build failure, and an attach to
//! a running Go program that is left running.

mod common;

use std::time::Duration;

use common::*;
use serde_json::json;

const DEMO: &str = "assets/demo/go/main.go";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agent_debugs_the_go_demo() {
    if !go_available() {
        return;
    }
    let mcp = mcp_in(&repo_root()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "assets/demo/go", "breakpoints": [{"file": DEMO, "line": 41}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at assets/demo/go/main.go:41"), "{v}");
    assert!(v.contains("Reason: breakpoint"), "{v}");
    assert!(
        v.contains(" →41│ \tsubtotal := 0") || v.contains("→41│"),
        "{v}"
    );
    assert_eq!(
        local(&v, "user").as_deref(),
        Some("<User: ID=482, Tier=\"gold\">"),
        "{v}"
    );
    assert_eq!(
        local(&v, "cart").as_deref(),
        Some("<Cart: Items=[<Item>, <Item>, <Item>]>"),
        "{v}"
    );
    assert_eq!(local(&v, "taxRate").as_deref(), Some("8"), "{v}");
    // The compiler's return slot is not the program's variable.
    assert!(!v.contains("~r0"), "{v}");
    // The caller is named readably and carries its arguments.
    assert!(v.contains("main.main"), "{v}");

    let v = mcp.ok("debug_step", json!({"kind": "over"})).await;
    assert_eq!(stopped_line(&v), Some(42), "{v}");
    assert!(v.contains("Reason: step"), "{v}");

    let v = mcp
        .ok("debug_run_to", json!({"file": DEMO, "line": 45}))
        .await;
    assert_eq!(stopped_line(&v), Some(45), "{v}");
    assert_eq!(local(&v, "subtotal").as_deref(), Some("11994"), "{v}");

    let e = mcp
        .ok("debug_evaluate", json!({"expression": "subtotal * 2 + 1"}))
        .await;
    assert!(e.contains("= 23989"), "{e}");
    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "cart.Items[1].Price"}),
        )
        .await;
    assert!(e.contains("= 1999"), "{e}");
    let err = mcp
        .fails("debug_evaluate", json!({"expression": "nosuch + 1"}))
        .await;
    assert!(err.contains("nosuch"), "{err}");

    // A new tax rate, read back, and used by the rest of the run.
    let s = mcp
        .ok(
            "debug_set_variable",
            json!({"name": "taxRate", "value": "10"}),
        )
        .await;
    assert!(s.contains("10"), "{s}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "taxRate * 2"}))
        .await;
    assert!(e.contains("= 20"), "{e}");
    let err = mcp
        .fails(
            "debug_set_variable",
            json!({"name": "taxRate", "value": "\"text\""}),
        )
        .await;
    // delve's words changed across versions; both say the value is refused.
    assert!(
        err.contains("convert") || err.contains("can not be allocated"),
        "{err}"
    );

    // Into the discount: the function and its line move.
    let v = mcp.ok("debug_step", json!({"kind": "into"})).await;
    let header = v.lines().next().unwrap_or_default().to_string();
    assert!(header.contains("calculateDiscount"), "{v}");
    // Go stops on the function's own line first.
    assert_eq!(stopped_line(&v), Some(34), "{v}");
    assert!(
        v.contains("main.calculateDiscount(user=<User: ID=482"),
        "{v}"
    );
    let v = mcp
        .ok("debug_step", json!({"kind": "over", "count": 3}))
        .await;
    assert_eq!(stopped_line(&v), Some(37), "{v}");
    // The bug: the discount is negative, so subtracting it adds to the total.
    assert_eq!(local(&v, "discount").as_deref(), Some("-1199"), "{v}");

    let v = mcp.ok("debug_step", json!({"kind": "out"})).await;
    let header = v.lines().next().unwrap_or_default().to_string();
    assert!(header.contains("processOrder"), "{v}");
    assert_eq!(stopped_line(&v), Some(45), "{v}");

    // The program checks its total and fails with status 3.
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 3 ──"), "{v}");
    let out = mcp.output_containing("Order total").await;
    assert!(out.contains("Order total for user 482: 143.92"), "{out}");
    assert!(out.contains("check failed"), "{out}");
    assert!(!out.contains("DAP server listening"), "{out}");
    mcp.close().await;
}

const PANICS: &str = "package main

import \"fmt\"

func pick(items []int, i int) int {
\treturn items[i]
}

func main() {
\tfmt.Println(\"before the panic\")
\tfmt.Println(pick([]int{1, 2, 3}, 5))
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panic_stops_with_its_message_and_a_build_failure_says_why() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/panics\n\ngo 1.19\n"),
        ("main.go", PANICS),
        ("broken/go.mod", "module example.com/broken\n\ngo 1.19\n"),
        (
            "broken/main.go",
            "package main\n\nfunc main() {\n\tx := 1\n}\n",
        ),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp.ok("debug_launch", json!({"program": "."})).await;
    assert!(v.contains("Reason: exception"), "{v}");
    assert!(v.contains("index out of range [5] with length 3"), "{v}");
    // The stop is read from the program's own frame, not the runtime's.
    assert!(
        v.contains("── STOPPED at main.go:") && v.contains("(main.pick) ──"),
        "the user's frame: {v}"
    );
    mcp.ok("debug_terminate", json!({})).await;

    let err = mcp
        .fails("debug_launch", json!({"program": "broken"}))
        .await;
    assert!(
        // Go's words differ between versions: `declared and not used: x`
        // or `x declared but not used`.
        err.contains("It did not compile: broken/main.go:4: ") && err.contains("not used"),
        "the first error, where it is: {err}"
    );
    mcp.close().await;
}

const LOOPS: &str = "package main

import (
\t\"fmt\"
\t\"time\"
)

func main() {
\tfor n := 0; ; n++ {
\t\tif n%20 == 0 {
\t\t\tfmt.Println(\"tick\", n)
\t\t}
\t\ttime.Sleep(50 * time.Millisecond)
\t}
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attaches_to_a_running_go_program_and_leaves_it_running() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/loops\n\ngo 1.19\n"),
        ("main.go", LOOPS),
    ]);
    let bin = ws.path().join("loops");
    let built = std::process::Command::new("go")
        .args(["build", "-gcflags=all=-N -l", "-o"])
        .arg(&bin)
        .arg(".")
        .current_dir(ws.path())
        .status()
        .expect("go build");
    assert!(built.success());
    let mut target = std::process::Command::new(&bin)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("start the program");
    let pid = target.id();

    // Through the agent's tool; the language is told from the binary.
    let mcp = mcp_in(ws.path()).await;
    let v = mcp.ok("debug_attach", json!({"pid": pid})).await;
    assert!(
        v.contains("── RUNNING ──") && v.contains(&format!("pid {pid}")),
        "{v}"
    );
    let v = mcp.ok("debug_pause", json!({})).await;
    assert!(
        v.contains("main.main"),
        "the pause stop shows main.main: {v}"
    );

    // Ending the session detaches: the program runs on, dlv ends.
    let dlvs: Vec<u32> = descendants(mcp.pid)
        .into_iter()
        .filter(|p| comm(*p).as_deref() == Some("dlv"))
        .collect();
    assert!(!dlvs.is_empty(), "no dlv under pairdbg");
    let t = mcp.ok("debug_terminate", json!({"detach": true})).await;
    assert!(t.contains("detached and keeps running"), "{t}");
    let left = wait_dead(&dlvs, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "dlv survived: {left:?}");
    assert!(alive(pid), "the attached program was killed");
    // Still running, not left stopped: it keeps answering signals to ps.
    let state = stat(pid).map(|(_, s)| s);
    assert!(matches!(state, Some('S' | 'R')), "state {state:?}");
    mcp.close().await;
    target.kill().expect("kill the program");
    let _ = target.wait();
}

/// `stop_on_entry` stops at the program's `main` with its stack read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_on_entry_stops_at_main() {
    if !go_available() {
        return;
    }
    let mcp = mcp_in(&repo_root()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "assets/demo/go", "stop_on_entry": true}),
        )
        .await;
    assert_eq!(stopped_function(&v).as_deref(), Some("main.main"), "{v}");
    assert!(v.contains("Reason: entry"), "{v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED"), "{v}");
    mcp.close().await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_method_frame_keeps_its_receiver() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/shapes\n\ngo 1.19\n"),
        ("main.go", SHAPES),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "breakpoints": [{"file": "main.go", "line": 11}]}),
        )
        .await;
    assert!(
        v.contains("── STOPPED at main.go:11 (main.(*Circle).Area) ──"),
        "{v}"
    );
    assert!(v.contains("→ main.go:11  main.(*Circle).Area("), "{v}");
    mcp.close().await;
}

/// dlv picks its own port and says which: sessions started at the same
/// time cannot take each other's port, as they could when pairdbg picked
/// one and dlv bound it later.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_go_sessions_launch_at_once() {
    if !go_available() {
        return;
    }
    let workspaces: Vec<_> = (0..4)
        .map(|_| {
            workspace(&[
                ("go.mod", "module example.com/shapes\n\ngo 1.19\n"),
                ("main.go", SHAPES),
            ])
        })
        .collect();
    let launches = workspaces.iter().map(|ws| async move {
        let mcp = mcp_in(ws.path()).await;
        let v = mcp
            .ok(
                "debug_launch",
                json!({"program": ".", "breakpoints": [{"file": "main.go", "line": 11}]}),
            )
            .await;
        mcp.close().await;
        v
    });
    for v in futures::future::join_all(launches).await {
        assert!(
            v.contains("── STOPPED at main.go:11 (main.(*Circle).Area) ──"),
            "{v}"
        );
    }
}
