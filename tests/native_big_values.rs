//! Native programs with very large arrays and a function's `static`
//! locals, through a real MCP client on lldb-dap and delve: the stop shows
//! at once with each container's count, and an item near the end is read
//! by paging.

mod common;

use common::native::*;
use common::*;
use serde_json::json;

const BIG_GO: &str = r#"package main

import "fmt"

func main() {
	big := make([]int, 200000)
	for i := range big {
		big[i] = i
	}
	fmt.Println(len(big))
}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_c_stop_with_huge_arrays_shows_at_once_and_pages_to_the_end() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[("big.c", BIG_C)]);
    build_c(&ws.path().join("big.c"), &ws.path().join("big"));
    let mcp = mcp_in(ws.path()).await;
    let started = std::time::Instant::now();
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "big", "breakpoints": [{"file": "big.c", "line": 14}]}),
        )
        .await;
    eprintln!("{v}");
    assert!(v.contains("── STOPPED at big.c:14 (counter) ──"), "{v}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "the stop took {:?}",
        started.elapsed()
    );
    let stack = local(&v, "stackarr").expect("stackarr");
    assert!(stack.starts_with("[0, 2, 4"), "{v}");
    assert!(stack.contains("100000 items"), "{v}");
    // The function's statics, with its locals.
    assert_eq!(local(&v, "calls").as_deref(), Some("1"), "{v}");
    let big = local(&v, "big").expect("the static array with the locals");
    assert!(big.contains("200000 items"), "{v}");
    assert!(
        local(&v, "file_global").is_none(),
        "globals stay apart: {v}"
    );

    let page = mcp
        .ok(
            "debug_variables",
            json!({"expand": "big", "start": 199998, "count": 2}),
        )
        .await;
    eprintln!("{page}");
    assert!(
        page.contains("[199999]") && page.contains("= 199999"),
        "{page}"
    );
    assert!(!page.contains("[0]"), "only the page asked for: {page}");
    let page = mcp
        .ok(
            "debug_variables",
            json!({"expand": "stackarr", "start": 99999, "count": 1}),
        )
        .await;
    assert!(page.contains("= 199998"), "{page}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_go_slice_of_200000_pages_to_its_last_item() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("main.go", BIG_GO),
        ("go.mod", "module bigdemo\n\ngo 1.18\n"),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "breakpoints": [{"file": "main.go", "line": 10}]}),
        )
        .await;
    eprintln!("{v}");
    assert!(v.contains("200000 items"), "{v}");
    let page = mcp
        .ok(
            "debug_variables",
            json!({"expand": "big", "start": 199998, "count": 2}),
        )
        .await;
    eprintln!("{page}");
    assert!(
        page.contains("[199999]") && page.contains("= 199999"),
        "{page}"
    );
    assert!(!page.contains("[0]"), "only the page asked for: {page}");
    mcp.close().await;
}
