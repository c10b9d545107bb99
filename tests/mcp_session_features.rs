//! Launch options, watches, variables, JSON status, threads, restart and
//! several sessions at once, through the real binary and a real debugpy.

mod common;

use common::*;
use serde_json::json;

const MAIN: &str = "\
import os, sys
print(sys.argv[1:], os.environ.get('GREETING'), os.path.basename(os.getcwd()), flush=True)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn module_launch_with_args_env_cwd_and_stop_on_entry() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[
        ("pkg/__init__.py", "VERSION = 1\n"),
        ("pkg/__main__.py", MAIN),
        ("sub/keep.txt", ""),
    ]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"module": "pkg", "args": ["a", "b c"], "env": {"GREETING": "hi", "PYTHONPATH": ws.path()}, "cwd": "sub", "stop_on_entry": true}),
        )
        .await;
    assert!(v.contains("Reason: entry"), "{v}");
    assert!(
        v.contains("pkg/__init__.py:1"),
        "the first line run is the package's: {v}"
    );
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED with code 0"), "{v}");
    let out = mcp.output_containing("hi").await;
    assert!(out.contains("['a', 'b c'] hi sub"), "{out}");
    mcp.close().await;
}

const PROG: &str = "\
class Box:
    def __init__(self, items):
        self.items = items
        self.label = 'box'


def work(n):
    box = Box(list(range(n)))
    total = sum(box.items)
    return total


data = {'k': [1, 2, 3], 'name': 'x'}
big = list(range(5000))
print(work(120))
print(work(3))
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watches_variables_status_threads_and_restart() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": 10}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(10), "{v}");
    assert_eq!(
        local(&v, "box").as_deref(),
        Some("<Box: items=[0, 1, 2, 3, 4, ...] (120 items), label=\"box\">"),
        "{v}"
    );
    assert_eq!(local(&v, "total").as_deref(), Some("7140"), "{v}");
    assert!(
        v.contains("work(n=120)"),
        "the top frame shows its arguments: {v}"
    );

    let w = mcp
        .ok(
            "debug_watch",
            json!({"add": ["total * 2", "len(box.items)"]}),
        )
        .await;
    assert!(
        w.contains("total * 2") && w.contains("len(box.items)"),
        "{w}"
    );
    let s = mcp.ok("debug_status", json!({})).await;
    assert!(
        s.contains("Watch:") && s.contains("total * 2       = 14280"),
        "{s}"
    );

    // Paging through a big list, by path.
    let page = mcp
        .ok(
            "debug_variables",
            json!({"expand": "box.items", "start": 100, "count": 5}),
        )
        .await;
    assert!(
        page.contains("box.items (100–105 of 121)"),
        "120 items and len(): {page}"
    );
    assert!(
        page.contains("  100 = 100")
            && page.contains("  104 = 104")
            && !page.contains("  105 = 105"),
        "{page}"
    );
    let first = mcp
        .ok(
            "debug_variables",
            json!({"expand": "box.items", "count": 2}),
        )
        .await;
    assert!(
        first.contains("  000 = 0") && first.contains("  001 = 1"),
        "{first}"
    );
    let far = mcp
        .ok(
            "debug_variables",
            json!({"scope": "Globals", "expand": "big", "start": 3500, "count": 3}),
        )
        .await;
    assert!(
        far.contains("big (3500–3503 of 5001)")
            && far.contains("  3500 = 3500")
            && far.contains("  3502 = 3502"),
        "{far}"
    );
    let item = mcp
        .ok("debug_evaluate", json!({"expression": "box.items[7]"}))
        .await;
    assert!(item.starts_with("box.items[7] = 7"), "{item}");
    assert!(page.contains("(more: start=105)"), "{page}");
    let filtered = mcp.ok("debug_variables", json!({"filter": "to"})).await;
    assert!(
        filtered.contains("total = 7140") && !filtered.contains("box ="),
        "{filtered}"
    );
    let globals = mcp
        .ok(
            "debug_variables",
            json!({"scope": "Globals", "filter": "data"}),
        )
        .await;
    assert!(
        globals.contains("data = ") && globals.contains("▸ expand=data"),
        "{globals}"
    );
    let bad = mcp.fails("debug_variables", json!({"scope": "Nope"})).await;
    assert!(bad.contains("scope") && bad.contains("Locals"), "{bad}");

    let j = mcp.ok("debug_status", json!({"format": "json"})).await;
    let body = j.lines().next().expect("json line");
    let parsed: serde_json::Value = serde_json::from_str(body).expect("valid JSON");
    assert_eq!(parsed["location"]["line"], 10);
    assert_eq!(parsed["locals"]["total"]["value"], "7140");
    assert_eq!(parsed["watch"][0]["value"], "14280");
    assert!(parsed["epoch"].as_u64().unwrap() > 0);

    let src = mcp.ok("debug_source", json!({})).await;
    assert!(
        src.contains("prog.py (1–15):") || src.contains("prog.py ("),
        "{src}"
    );
    assert!(
        src.contains(" →10│     return total"),
        "the current line is marked: {src}"
    );
    let src = mcp
        .ok(
            "debug_source",
            json!({"file": "prog.py", "line": 2, "context": 1}),
        )
        .await;
    assert!(
        src.contains("prog.py (1–3):") && src.contains("  2│     def __init__(self, items):"),
        "{src}"
    );
    let bad = mcp
        .fails("debug_source", json!({"file": "prog.py", "line": 99}))
        .await;
    assert!(
        bad.contains("line 99 is outside the file, which has 16 lines"),
        "{bad}"
    );
    let bad = mcp
        .fails("debug_source", json!({"file": "../etc/passwd"}))
        .await;
    assert!(bad.contains("file") && bad.contains(".."), "{bad}");

    // Setting through a path changes the object itself.
    let r = mcp
        .ok(
            "debug_set_variable",
            json!({"name": "box.label", "value": "'crate'"}),
        )
        .await;
    assert!(r.contains("box.label = \"crate\""), "{r}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "box.label"}))
        .await;
    assert!(e.starts_with("box.label = \"crate\""), "{e}");
    let bad = mcp
        .fails(
            "debug_set_variable",
            json!({"name": "total", "value": "undefined_thing"}),
        )
        .await;
    assert!(bad.contains("NameError"), "{bad}");
    // Setting a variable reads the stop again; that is no new hit.
    let l = mcp.ok("breakpoint_list", json!({})).await;
    assert!(
        l.contains("#1 blocking prog.py:10 enabled verified hits 1"),
        "{l}"
    );

    let t = mcp.ok("debug_threads", json!({})).await;
    assert!(t.contains("MainThread"), "{t}");

    // The watch follows every stop.
    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(local(&v, "total").as_deref(), Some("3"), "{v}");
    assert!(v.contains("total * 2       = 6"), "{v}");

    // Restart keeps the breakpoints and stops at the first hit again.
    let v = mcp.ok("debug_restart", json!({})).await;
    assert_eq!(stopped_line(&v), Some(10), "{v}");
    assert_eq!(local(&v, "total").as_deref(), Some("7140"), "{v}");
    let l = mcp.ok("breakpoint_list", json!({})).await;
    // The new run counts its hits afresh.
    assert!(
        l.contains("#1 blocking prog.py:10 enabled verified hits 1"),
        "{l}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_sessions_side_by_side() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let mcp = mcp_in(ws.path()).await;
    let a = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": 9}]}),
        )
        .await;
    assert!(a.contains("[session s1 "), "{a}");
    let b = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": 9}]}),
        )
        .await;
    assert!(b.contains("[session s2 "), "{b}");
    let list = mcp.ok("debug_sessions", json!({})).await;
    assert!(
        list.contains("  s1 prog.py stopped") && list.contains("* s2 prog.py stopped"),
        "{list}"
    );
    // The current session is the newest; session_id reaches the other one.
    let e = mcp.ok("debug_evaluate", json!({"expression": "n"})).await;
    assert!(e.starts_with("n = 120"), "{e}");
    let v = mcp.ok("debug_step", json!({"session_id": "s1"})).await;
    assert!(v.contains("[session s1 "), "{v}");
    assert_eq!(stopped_line(&v), Some(10), "{v}");
    let bad = mcp.fails("debug_status", json!({"session_id": "s9"})).await;
    assert!(bad.contains("no session s9"), "{bad}");
    mcp.ok("debug_terminate", json!({"session_id": "s2"})).await;
    let list = mcp.ok("debug_sessions", json!({})).await;
    assert!(list.contains("* s1") && !list.contains("s2"), "{list}");
    mcp.close().await;
}

const CAUGHT: &str = "\
def risky():
    raise KeyError('missing key')


try:
    risky()
except KeyError:
    handled = True
print('handled')
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raised_exception_filter_stops_on_caught_exceptions() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("c.py", CAUGHT)]);
    let mcp = mcp_in(ws.path()).await;
    // By default a caught exception does not stop.
    let v = mcp.ok("debug_launch", json!({"program": "c.py"})).await;
    assert!(v.contains("EXITED with code 0"), "{v}");
    mcp.close().await;

    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "c.py", "exception_breakpoints": ["raised"]}),
        )
        .await;
    assert!(v.contains("Reason: exception"), "{v}");
    assert!(v.contains("Exception: KeyError"), "{v}");
    assert_eq!(stopped_line(&v), Some(2), "{v}");
    let r = mcp
        .ok("breakpoint_set_exception", json!({"filters": []}))
        .await;
    assert!(
        r.contains("Exception filters: []") && r.contains("uncaught"),
        "{r}"
    );
    let bad = mcp
        .fails(
            "breakpoint_set_exception",
            json!({"filters": ["sometimes"]}),
        )
        .await;
    assert!(bad.contains("\"sometimes\" is not a filter"), "{bad}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED with code 0"), "{v}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_debugpy_names_the_fix() {
    if !debugpy_available() {
        return;
    }
    // A bare virtual environment has no debugpy.
    let ws = workspace(&[("p.py", "x = 1\n")]);
    let venv = ws.path().join("bare-venv");
    let ok = std::process::Command::new("python3")
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(ok, "python3 -m venv failed");
    let python = venv.join("bin/python");
    let mcp = mcp_in(ws.path()).await;
    let msg = mcp
        .fails("debug_launch", json!({"program": "p.py", "python": python}))
        .await;
    assert!(msg.contains("debugpy is not installed"), "{msg}");
    assert!(
        msg.contains(&format!("{} -m pip install debugpy", python.display())),
        "{msg}"
    );
    mcp.close().await;
}
