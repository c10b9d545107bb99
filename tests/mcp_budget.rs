//! `max_tokens` end to end: a real MCP client on real adapters. Each budgeted
//! result keeps to bytes/4 ≤ max_tokens, leads with what matters most, and
//! ends with a call that fetches the rest.

mod common;

use std::collections::BTreeSet;

use common::native::*;
use common::*;
use serde_json::{Value, json};

/// A function with one argument and 199 locals: a stop with 200 locals.
fn many_locals() -> (String, u64) {
    let mut src = String::from("def many(seed):\n");
    for i in 1..200 {
        src.push_str(&format!("    v{i:03} = seed + {i}\n"));
    }
    src.push_str("    return seed\n\n\nmany(7)\n");
    (src, 201)
}

fn tokens(text: &str) -> usize {
    text.len() / 4
}

/// The names of `  name = value` lines.
fn names(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter_map(|l| l.split_once(" = ").map(|(n, _)| n.trim().to_string()))
        .filter(|n| !n.is_empty() && !n.contains(' '))
        .collect()
}

/// The `start` of the handle `debug_variables {start: K}`, if the result has one.
fn variables_handle(text: &str) -> Option<u64> {
    let at = text.find("debug_variables {")?;
    let rest = &text[at..];
    let s = rest.find("start: ")? + "start: ".len();
    rest[s..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

fn all_locals() -> BTreeSet<String> {
    let mut all: BTreeSet<String> = (1..200).map(|i| format!("v{i:03}")).collect();
    all.insert("seed".into());
    all
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_of_200_on_a_stop_with_200_locals_and_the_rest_by_its_handle() {
    if !debugpy_available() {
        return;
    }
    let (src, line) = many_locals();
    let ws = workspace(&[("many.py", &src)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "many.py", "breakpoints": [{"file": "many.py", "line": line}]}),
        )
        .await;
    assert!(v.contains(&format!("many.py:{line}")), "{v}");

    let v = mcp.ok("debug_status", json!({"max_tokens": 200})).await;
    eprintln!("{v}");
    assert!(tokens(&v) <= 200, "{} tokens: {v}", tokens(&v));
    assert!(v.starts_with("── STOPPED at many.py:201 (many) ──"), "{v}");
    // The argument comes before the other locals.
    let args = v
        .find("Arguments:\n  seed = 7")
        .expect("the argument leads");
    assert!(
        v.find("Locals:").is_none_or(|l| l > args),
        "arguments before locals: {v}"
    );
    // The JSON form keeps to the budget and stays JSON, saying what it left.
    let j = mcp
        .ok("debug_status", json!({"max_tokens": 200, "format": "json"}))
        .await;
    assert!(tokens(&j) <= 200, "{} tokens: {j}", tokens(&j));
    let body = j.rsplit_once("\n[session ").map_or(j.as_str(), |(b, _)| b);
    let parsed: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {j}"));
    assert!(
        parsed["omitted"]["locals"]
            .as_str()
            .is_some_and(|o| o.ends_with(" of 200: debug_variables")),
        "{j}"
    );
    let mut seen = names(&v);
    let mut next = variables_handle(&v).expect("a handle for the rest");
    assert!(
        v.contains(&format!("more locals: debug_variables {{start: {next}}}")),
        "{v}"
    );

    // Following the handles, each page in budget, reaches every local.
    let mut pages = 0;
    loop {
        let page = mcp
            .ok(
                "debug_variables",
                json!({"start": next, "count": 500, "max_tokens": 200}),
            )
            .await;
        assert!(tokens(&page) <= 200, "{} tokens: {page}", tokens(&page));
        seen.extend(names(&page));
        pages += 1;
        assert!(pages < 60, "the handles never end: {page}");
        match variables_handle(&page) {
            Some(n) => {
                assert!(n > next, "the handle moves on: {page}");
                next = n;
            }
            None => break,
        }
    }
    let missing: Vec<_> = all_locals().difference(&seen).cloned().collect();
    assert!(missing.is_empty(), "never shown: {missing:?}");

    // A budget for every viewport: moving tools keep to it too.
    mcp.ok(
        "debug_status",
        json!({"viewport_config": {"max_tokens": 120}}),
    )
    .await;
    let v = mcp.ok("debug_step", json!({})).await;
    assert!(tokens(&v) <= 120, "{} tokens: {v}", tokens(&v));
    assert!(
        v.contains("EXITED") || v.contains("STOPPED") || v.contains("STEP"),
        "{v}"
    );
    mcp.close().await;
}

const DEEP: &str = "\
def down(n, acc):
    label = 'level %d' % n
    if n == 0:
        print('x' * 5000)
        raise ValueError('bottom reached')
    return down(n - 1, acc + [n])


big = list(range(10000))
down(40, [])
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_inspection_tool_keeps_to_its_budget() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("deep.py", DEEP)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp.ok("debug_launch", json!({"program": "deep.py"})).await;
    assert!(v.contains("ValueError"), "{v}");

    // Bad budgets name the field and its range.
    for bad in [0, 10, 1_000_000] {
        let e = mcp.fails("debug_status", json!({"max_tokens": bad})).await;
        assert!(
            e.contains("max_tokens") && e.contains("50 to 250000"),
            "{e}"
        );
    }
    let e = mcp
        .fails(
            "debug_status",
            json!({"viewport_config": {"max_tokens": 5}}),
        )
        .await;
    assert!(
        e.contains("viewport_config.max_tokens") && e.contains("50 to 250000"),
        "{e}"
    );

    // The stack: a page in budget, then the handle's page starts where it ended.
    let s = mcp
        .ok("debug_stack", json!({"levels": 100, "max_tokens": 100}))
        .await;
    assert!(tokens(&s) <= 100, "{s}");
    let at = s.find("debug_stack {start: ").expect("a handle") + "debug_stack {start: ".len();
    let from: usize = s[at..].split('}').next().unwrap().parse().unwrap();
    assert!(s.contains(&format!("  #{} ", from - 1)), "{s}");
    let s2 = mcp
        .ok("debug_stack", json!({"start": from, "levels": 5}))
        .await;
    assert!(
        s2.lines()
            .nth(1)
            .unwrap_or("")
            .starts_with(&format!("  #{from} ")),
        "{s2}"
    );

    // A large value is cut, and says so.
    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "big", "max_tokens": 60}),
        )
        .await;
    assert!(tokens(&e) <= 60, "{e}");
    assert!(e.contains("big = "), "{e}");

    // Output keeps to the budget and gives the cursor for the rest.
    let o = mcp.output_containing("xxxx").await;
    assert!(o.len() > 5000, "{o}");
    let o = mcp.ok("debug_output", json!({"max_tokens": 100})).await;
    assert!(tokens(&o) <= 100, "{o}");
    assert!(
        o.contains("(next since=") && o.contains("more available"),
        "{o}"
    );

    // The exception's context drops the deepest frames' variables first and
    // names what it dropped.
    let c = mcp
        .ok(
            "exception_get_context",
            json!({"max_frames": 50, "include_variables_for_frames": 10, "max_tokens": 400}),
        )
        .await;
    assert!(tokens(&c) <= 400, "{} tokens: {c}", tokens(&c));
    let json_text = c.rsplit_once("\n[session").map(|(j, _)| j).unwrap_or(&c);
    let j: Value = serde_json::from_str(json_text.trim()).unwrap_or_else(|e| panic!("{e}: {c}"));
    assert_eq!(j["exception"]["type"], "ValueError", "{c}");
    assert!(
        j["omitted"].as_str().unwrap_or("").contains("debug_"),
        "{c}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_native_stop_keeps_to_its_budget() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_c_demo(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "inventory", "breakpoints": [{"file": "inventory.c", "line": 29}]}),
        )
        .await;
    assert!(v.contains("inventory.c:29 (count_restock)"), "{v}");
    assert!(
        tokens(&v) > 80,
        "the full viewport is larger than the budget: {v}"
    );

    let b = mcp.ok("debug_status", json!({"max_tokens": 80})).await;
    eprintln!("{b}");
    assert!(tokens(&b) <= 80, "{} tokens: {b}", tokens(&b));
    assert!(
        b.starts_with("── STOPPED at inventory.c:29 (count_restock) ──"),
        "{b}"
    );
    let handle = b
        .lines()
        .find(|l| l.starts_with("… "))
        .unwrap_or_else(|| panic!("no handle: {b}"));
    // What the handle names is there to read.
    if let Some(start) = variables_handle(handle) {
        let page = mcp.ok("debug_variables", json!({"start": start})).await;
        assert!(!names(&page).is_empty(), "{page}");
    } else {
        assert!(handle.contains("debug_stack"), "{handle}");
        let s = mcp.ok("debug_stack", json!({})).await;
        assert!(s.contains("main"), "{s}");
    }
    mcp.close().await;
}
