//! Rust on gdb, end to end: a real MCP client drives the real binary on a
//! program holding a value of each kind, and the viewport reads each as
//! Rust writes it; conditions and expressions are Rust; an adapter that
//! cannot debug Rust is refused by name.

mod common;

use common::native::*;
use common::*;
use serde_json::json;

/// Launches the values program, stopped at the line holding `needle`.
async fn stopped_at(needle: &str, extra: serde_json::Value) -> (tempfile::TempDir, Mcp, String) {
    let ws = workspace(&[]);
    build_rust_values(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let mut args = json!({
        "program": "values",
        "breakpoints": [{"file": "src/main.rs", "line": rust_values_line(needle)}],
    });
    for (k, v) in extra.as_object().into_iter().flatten() {
        args[k] = v.clone();
    }
    let v = mcp.ok("debug_launch", args).await;
    eprintln!("{v}");
    (ws, mcp, v)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_rust_value_reads_as_rust() {
    if !gdb_available() {
        return;
    }
    let (_ws, mcp, v) = stopped_at("println!(\"{:?} {:?} {:?} {:?} {:?}\"", json!({})).await;
    let line = rust_values_line("println!(\"{:?} {:?} {:?} {:?} {:?}\"");
    assert!(
        v.contains(&format!("── STOPPED at src/main.rs:{line} (main::main) ──")),
        "{v}"
    );
    let expected = [
        ("none", "None"),
        ("some", "Some(\"yes\")"),
        ("found", "Some(Item {id: 42, name: \"saw\"})"),
        ("ok", "Ok(3)"),
        ("err", "Err(\"bad\")"),
        ("c_tool", "Cat::Tool"),
        ("c_food", "Cat::Food {perishable: true, days: 6}"),
        ("c_gad", "Cat::Gadget(\"FM\", 2)"),
        ("results", "[Ok(2)]"),
        ("small", "2"),
        ("pair", "Pair(1, 5)"),
        ("p", "<Item: id=7, name=\"hammer\">"),
    ];
    let wrong: Vec<String> = expected
        .iter()
        .filter(|(name, want)| local(&v, name).as_deref() != Some(*want))
        .map(|(name, want)| format!("{name}: want {want}, got {:?}", local(&v, name)))
        .collect();
    assert!(wrong.is_empty(), "{}\n{v}", wrong.join("\n"));

    // Expressions are Rust's: a tuple field, a field through a reference.
    for (expression, want) in [
        ("c_gad.0", "\"FM\""),
        ("p.name", "\"hammer\""),
        ("pair.0 + pair.1", "6"),
        ("found", "Some(Item {id: 42, name: \"saw\"})"),
    ] {
        let e = mcp
            .ok("debug_evaluate", json!({"expression": expression}))
            .await;
        assert!(e.contains(&format!("= {want}")), "{expression}: {e}");
    }
    let e = mcp
        .fails("debug_evaluate", json!({"expression": "nosuch + 1"}))
        .await;
    assert!(e.contains("No symbol 'nosuch' in current context"), "{e}");

    // Expanded, an enum opens to its payload; a variant with none stays.
    for (path, want) in [
        (
            "none",
            "  None = None  (core::option::Option<main::Item>::None)",
        ),
        ("c_food", "  perishable = true  (bool)\n  days = 6  (u32)\n"),
        (
            "c_gad",
            "  0 = \"FM\"  (alloc::string::String)\n  1 = 2  (u8)\n",
        ),
        ("pair", "  0 = 1  (u32)\n  1 = 5  (u32)\n"),
        ("results[0]", "  0 = 2  (u32)\n"),
    ] {
        let v = mcp.ok("debug_variables", json!({"expand": path})).await;
        assert!(v.contains(want), "{path}: {v}");
    }

    // gdb's own lines stay out of the program's output.
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED with code 0"), "{v}");
    let out = mcp.ok("debug_output", json!({})).await;
    assert!(out.contains("None Some(\"yes\")"), "{out}");
    assert!(!out.contains("Breakpoint 1"), "{out}");
    mcp.close().await;
}

/// An `Option<&Item>` of its own: lldb-dap 22 spins on its formatter, so it
/// stays out of the values program the lldb tests share.
const BORROWED: &str = r#"#[derive(Debug)]
struct Item {
    id: u32,
    name: String,
}

fn main() {
    let items = vec![Item { id: 7, name: String::from("hammer") }, Item { id: 42, name: String::from("saw") }];
    let borrowed: Option<&Item> = items.iter().find(|i| i.id == 42);
    let refs: Vec<&Item> = items.iter().collect();
    println!("{:?} {:?}", borrowed, refs);
}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reference_inside_a_value_reads_as_what_it_points_at() {
    if !gdb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_rust_source(ws.path(), BORROWED);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "values", "breakpoints": [{"file": "src/main.rs", "line": 11}]}),
        )
        .await;
    // It read `Some(0x5555555afd80)`.
    assert_eq!(
        local(&v, "borrowed").as_deref(),
        Some("Some(Item {id: 42, name: \"saw\"})"),
        "{v}"
    );
    assert_eq!(
        local(&v, "refs").as_deref(),
        Some("[Item {id: 7, name: \"hammer\"}, Item {id: 42, name: \"saw\"}]"),
        "{v}"
    );
    mcp.close().await;
}

/// The collections a Rust program reads most, stopped before they are printed.
const COLLECTIONS: &str = r#"use std::collections::{HashMap, VecDeque};
#[derive(Debug)]
struct Item {
    id: u32,
    name: String,
}

fn main() {
    let items = vec![Item { id: 7, name: String::from("hammer") }, Item { id: 42, name: String::from("saw") }, Item { id: 9, name: String::from("drill") }];
    let mut stock: HashMap<String, u32> = HashMap::new();
    stock.insert(String::from("widget"), 3);
    let found: Option<&Item> = items.iter().find(|i| i.id == 42);
    let first: &Item = &items[0];
    let title = String::from("shop");
    let word: &str = "tool";
    let slice: &[Item] = &items[1..];
    let queue: VecDeque<u32> = VecDeque::from(vec![4, 5]);
    let iter = items.iter();
    let empty: Vec<u32> = Vec::new();
    let refs: Vec<&Item> = items.iter().collect();
    let count: Option<u32> = Some(3);
    let note = String::from("two\nlines");
    println!("{:?} {:?} {:?} {:?} {} {} {:?} {:?} {:?} {:?} {:?} {:?} {}", items, stock, found, first, title, word, slice, queue, iter, empty, refs, count, note);
}
"#;

/// Launches `COLLECTIONS`, stopped where every value is made.
async fn collections_stopped() -> (tempfile::TempDir, Mcp) {
    let ws = workspace(&[]);
    build_rust_source(ws.path(), COLLECTIONS);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "values", "breakpoints": [{"file": "src/main.rs", "line": 23}]}),
        )
        .await;
    assert!(
        v.contains("── STOPPED at src/main.rs:23 (main::main) ──"),
        "{v}"
    );
    (ws, mcp)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn indexes_keys_and_counts_read_from_the_values_parts() {
    if !gdb_available() {
        return;
    }
    let (_ws, mcp) = collections_stopped().await;
    // gdb has no `Vec::len` to call and indexes no Vec; a string key it
    // would place in the program's memory by running its allocator.
    for (expression, want) in [
        (
            "items[1]",
            "items[1] = <Item: id=42, name=\"saw\">  (main::Item)",
        ),
        (
            "items[1].name",
            "items[1].name = \"saw\"  (alloc::string::String)",
        ),
        ("items.len()", "items.len() = 3  (usize)"),
        ("items.is_empty()", "items.is_empty() = false  (bool)"),
        ("empty.is_empty()", "empty.is_empty() = true  (bool)"),
        ("title.len()", "title.len() = 4  (usize)"),
        ("word.len()", "word.len() = 4  (usize)"),
        ("slice.len()", "slice.len() = 2  (usize)"),
        ("stock.len()", "stock.len() = 1  (usize)"),
        ("queue.len()", "queue.len() = 2  (usize)"),
        ("items[2].name.len()", "items[2].name.len() = 5  (usize)"),
        ("stock[\"widget\"]", "stock[\"widget\"] = 3  (u32)"),
    ] {
        let e = mcp
            .ok("debug_evaluate", json!({"expression": expression}))
            .await;
        assert!(e.starts_with(want), "{expression}: {e}");
    }
    let e = mcp
        .fails("debug_evaluate", json!({"expression": "items[7].name"}))
        .await;
    assert!(
        e.starts_with("items[7].name not read: items.7 does not exist"),
        "{e}"
    );
    let e = mcp
        .fails("debug_evaluate", json!({"expression": "stock[\"gear\"]"}))
        .await;
    assert!(e.starts_with("stock[\"gear\"] does not exist"), "{e}");
    // gdb writes the newline as `\n`: the text's length in bytes is not
    // read from it, so the count is not guessed.
    let e = mcp
        .fails("debug_evaluate", json!({"expression": "note.len()"}))
        .await;
    assert!(
        e.starts_with("note.len() not read: the adapter cannot call it here, and note's value (\"two\\nlines\") gives no exact count"),
        "{e}"
    );
    // A watch reads the same way, at every stop.
    let w = mcp
        .ok(
            "debug_watch",
            json!({"add": ["items.len()", "items[2].name", "stock[\"widget\"]"]}),
        )
        .await;
    eprintln!("{w}");
    let v = mcp.ok("debug_status", json!({})).await;
    for (name, value) in [
        ("items.len()", "3"),
        ("items[2].name", "\"drill\""),
        ("stock[\"widget\"]", "3"),
    ] {
        let shown = v.lines().any(|l| {
            l.trim_start().starts_with(&format!("{name} "))
                && l.trim_end().ends_with(&format!("= {value}"))
        });
        assert!(shown, "watch {name}: {v}");
    }
    // The program never ran for the key.
    let v = mcp.ok("debug_variables", json!({"expand": "stock"})).await;
    assert!(v.contains("  [\"widget\"] = 3  (u32)"), "{v}");
    assert!(!v.contains("key0"), "{v}");
    // A count gdb would have to call at each hit is refused when set.
    let e = mcp
        .fails(
            "breakpoint_set",
            json!({"file": "src/main.rs", "line": 23, "condition": "items.len() > 2"}),
        )
        .await;
    assert!(
        e.contains("gdb runs a condition itself and cannot call len() there"),
        "{e}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn children_read_as_rust_names_and_types_them() {
    if !gdb_available() {
        return;
    }
    let (_ws, mcp) = collections_stopped().await;
    let expanded = [
        // An Option opens to its payload's fields, through the variant and
        // the reference gdb lists as levels of their own.
        (
            "found",
            "found (0–2 of 2):\n  id = 42  (u32)\n  name = \"saw\"  (alloc::string::String)\n",
        ),
        ("found.Some", "  id = 42  (u32)\n"),
        ("first", "first (0–2 of 2):\n  id = 7  (u32)\n"),
        ("count", "count (0–1 of 1):\n  0 = 3  (u32)\n"),
        // gdb says `*mut main::Item`; the Vec's type says `&main::Item`.
        (
            "refs",
            "  [1] = <Item: id=42, name=\"saw\">  (&main::Item)  ▸ expand=refs[1]\n",
        ),
        // A slice iterator's end is an address, never read as an Item.
        ("iter", "  end_or_len = 0x"),
    ];
    for (path, want) in expanded {
        let v = mcp.ok("debug_variables", json!({"expand": path})).await;
        assert!(v.contains(want), "{path}: {v}");
        assert!(
            !v.contains("__0") && !v.contains("Cannot access memory"),
            "{path}: {v}"
        );
    }
    let v = mcp.ok("debug_variables", json!({"expand": "iter"})).await;
    assert!(!v.contains("expand=iter.end_or_len"), "{v}");
    let e = mcp
        .fails("debug_variables", json!({"expand": "iter.end_or_len"}))
        .await;
    assert!(e.contains("has no children"), "{e}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "refs[1].name"}))
        .await;
    assert!(e.starts_with("refs[1].name = \"saw\""), "{e}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rust_condition_stops_only_where_it_holds() {
    if !gdb_available() {
        return;
    }
    let needle = "if item.id == *id {";
    let ws = workspace(&[]);
    build_rust_values(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({
                "program": "values",
                "breakpoints": [{
                    "file": "src/main.rs",
                    "line": rust_values_line(needle),
                    "condition": "*id == 42 && item.id == 42",
                }],
            }),
        )
        .await;
    eprintln!("{v}");
    assert_eq!(stopped_function(&v).as_deref(), Some("main::find"), "{v}");
    assert_eq!(
        local(&v, "item").as_deref(),
        Some("<Item: id=42, name=\"saw\">"),
        "{v}"
    );
    let e = mcp.ok("debug_evaluate", json!({"expression": "*id"})).await;
    assert!(e.contains("= 42"), "{e}");
    // A condition that does not parse is refused when set, not hit.
    let e = mcp
        .fails(
            "breakpoint_set",
            json!({"file": "src/main.rs", "line": rust_values_line(needle), "condition": "*id >== 42"}),
        )
        .await;
    assert!(
        e.contains("does not compile") && e.contains("unexpected token"),
        "{e}"
    );
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED with code 0"), "{v}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adapter_that_cannot_debug_rust_is_refused_by_name() {
    let ws = workspace(&[]);
    build_rust_values(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let e = mcp
        .fails(
            "debug_launch",
            json!({"program": "values", "adapter": "delve"}),
        )
        .await;
    assert!(
        e.contains("adapter") && e.contains("delve cannot debug rust; these can: gdb, lldb-dap"),
        "{e}"
    );
    let e = mcp
        .fails(
            "debug_launch",
            json!({"program": "values", "adapter": "nosuch"}),
        )
        .await;
    assert!(
        e.contains("there is no adapter \"nosuch\"; rust programs are debugged with gdb, lldb-dap"),
        "{e}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steps_set_variable_and_a_return_value_on_the_rust_demo() {
    if !gdb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_rust_demo(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "target/debug/shop", "breakpoints": [{"file": "src/main.rs", "line": 35}]}),
        )
        .await;
    eprintln!("{v}");
    // Into `subtotal(&items)`, past the standard library's Deref.
    let v = mcp.ok("debug_step", json!({"kind": "into"})).await;
    assert_eq!(
        stopped_function(&v).as_deref(),
        Some("shop::subtotal"),
        "{v}"
    );
    assert_eq!(stopped_line(&v), Some(15), "{v}");
    assert!(
        v.contains("shop::checkout(items=") && v.contains("coupon=Some(\"yes\")"),
        "{v}"
    );
    // A step over a line split into several statements lands on the next line.
    let v = mcp.ok("debug_step", json!({"kind": "over"})).await;
    assert_eq!(stopped_line(&v), Some(16), "{v}");
    assert_eq!(local(&v, "sum").as_deref(), Some("0"), "{v}");
    let s = mcp
        .ok(
            "debug_set_variable",
            json!({"name": "sum", "value": "sum + 1000"}),
        )
        .await;
    assert!(s.contains("1000"), "{s}");
    let e = mcp.ok("debug_evaluate", json!({"expression": "sum"})).await;
    assert!(e.contains("= 1000"), "{e}");
    let v = mcp.ok("debug_step", json!({"kind": "over"})).await;
    assert_eq!(stopped_line(&v), Some(17), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "over"})).await;
    assert_eq!(stopped_line(&v), Some(16), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "out"})).await;
    eprintln!("{v}");
    assert_eq!(
        stopped_function(&v).as_deref(),
        Some("shop::checkout"),
        "{v}"
    );
    assert_eq!(local(&v, "(return)").as_deref(), Some("1650"), "{v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    // 1650 - 165 = 1485; the exit code is 1485 % 256.
    assert!(v.contains("EXITED with code 205"), "{v}");
    mcp.close().await;
}

const POINTERS: &str = r#"#[derive(Debug)]
struct Item {
    id: u32,
}

fn show(item: &Item, m: &mut Item, raw: *const Item, items: &[Item]) -> u32 {
    let r = &items[1];
    let x = one(item);
    m.id += 1;
    item.id + m.id + r.id + unsafe { (*raw).id } + x.id - two(m).id
}

fn one(x: &Item) -> &Item {
    x
}

fn two(x: &mut Item) -> &mut Item {
    x.id += 0;
    x
}

fn main() {
    let items = vec![Item { id: 1 }, Item { id: 2 }];
    let a = Item { id: 10 };
    let mut b = Item { id: 20 };
    let total = show(&a, &mut b, &a as *const Item, &items);
    println!("{total} {b:?}");
}
"#;

/// gdb names every Rust pointer `*mut T`, a reference too: each local's
/// kind is read from the program's own DWARF, and its value reads as what
/// it points at. A name the program declares with two kinds (`x`, in
/// `one` and `two`) is told by each function's own declaration.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reference_reads_as_the_kind_the_program_declares() {
    if !gdb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_rust_source(ws.path(), POINTERS);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": "values", "breakpoints": [{"file": "src/main.rs", "line": 9}]}),
    )
    .await;
    let kinds = [
        ("item", 10, "&main::Item"),
        ("m", 20, "&mut main::Item"),
        ("raw", 10, "*const main::Item"),
        ("r", 2, "&main::Item"),
        // `x` is `&Item` in `one` and `&mut Item` in `two`: its name
        // alone says neither, so `show`'s own declaration tells it.
        ("x", 10, "&main::Item"),
    ];
    for (name, id, kind) in kinds {
        let e = mcp.ok("debug_evaluate", json!({"expression": name})).await;
        assert!(
            e.contains(&format!("id: {id}")) || e.contains(&format!("id={id}")),
            "{name}: {e}"
        );
        assert!(e.contains(&format!("({kind})")), "{name}: {e}");
        assert!(!e.contains("*mut"), "{name}: {e}");
    }
    let rows = mcp.ok("debug_variables", json!({})).await;
    assert!(
        rows.contains("  x = <Item: id=10>  (&main::Item)"),
        "{rows}"
    );
    mcp.ok("breakpoint_set", json!({"file": "src/main.rs", "line": 18}))
        .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(stopped_function(&v).as_deref(), Some("main::two"), "{v}");
    let rows = mcp.ok("debug_variables", json!({})).await;
    assert!(rows.contains("(&mut main::Item)"), "{rows}");
    let caller = mcp.ok("debug_variables", json!({"frame_index": 1})).await;
    assert!(
        caller.contains("  x = <Item: id=10>  (&main::Item)"),
        "{caller}"
    );
    mcp.close().await;
}

const MAPS: &str = r#"use std::collections::{BTreeMap, HashMap};

fn main() {
    let mut groups: HashMap<String, Vec<u32>> = HashMap::new();
    groups.insert(String::from("odd"), vec![1, 3]);
    let mut names: BTreeMap<u32, String> = BTreeMap::new();
    names.insert(1, String::from("one"));
    names.insert(2, String::from("two"));
    println!("{groups:?} {names:?}");
}
"#;

/// A Rust map on gdb opens to rows named by their keys, and a mapped value
/// that is a container opens through the path its row prints.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rust_maps_open_to_rows_named_by_their_keys() {
    if !gdb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_rust_source(ws.path(), MAPS);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": "values", "breakpoints": [{"file": "src/main.rs", "line": 9}]}),
    )
    .await;
    let rows = mcp.ok("debug_variables", json!({"expand": "names"})).await;
    assert!(rows.contains("  [1] = \"one\""), "{rows}");
    assert!(rows.contains("  [2] = \"two\""), "{rows}");
    let rows = mcp.ok("debug_variables", json!({"expand": "groups"})).await;
    let line = rows
        .lines()
        .find(|l| l.trim_start().starts_with("[\"odd\"] = [1, 3]"))
        .unwrap_or_else(|| panic!("an odd row in:\n{rows}"));
    let path = line
        .split("▸ expand=")
        .nth(1)
        .unwrap_or_else(|| panic!("a path in {line}"));
    assert_eq!(path, "groups[\"odd\"]");
    let items = mcp.ok("debug_variables", json!({"expand": path})).await;
    assert!(items.contains("  [1] = 3"), "{items}");
    mcp.close().await;
}

/// gdb offers Ada's exception filters beside C++'s; pairdbg debugs no Ada,
/// so a Rust session lists only C++'s, and a launch asking for Ada's is
/// refused with the filters it has.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ada_exception_filters_are_not_offered() {
    if !gdb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_rust_source(ws.path(), MAPS);
    let mcp = mcp_in(ws.path()).await;
    let e = mcp
        .fails(
            "debug_launch",
            json!({"program": "values", "exception_breakpoints": ["assert"],
                   "breakpoints": [{"file": "src/main.rs", "line": 9}]}),
        )
        .await;
    assert!(
        e.contains(r#""assert" is not a filter of gdb; it has ["throw", "rethrow", "catch"]"#),
        "{e}"
    );
    mcp.ok(
        "debug_launch",
        json!({"program": "values", "breakpoints": [{"file": "src/main.rs", "line": 9}]}),
    )
    .await;
    let v = mcp
        .ok("breakpoint_set_exception", json!({"filters": ["throw"]}))
        .await;
    assert!(
        v.contains("Available: throw (C++ exceptions, when thrown)"),
        "{v}"
    );
    assert!(!v.contains("Ada"), "{v}");
    mcp.close().await;
}
