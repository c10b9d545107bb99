//! The breakpoint tools of the reference, end to end through a real MCP
//! client: on debugpy, and on lldb-dap with the C demo.

mod common;

use common::native::{build_c_demo, lldb_available};
use common::{debugpy_available, mcp_in, stopped_line, workspace};
use serde_json::json;

const PROG: &str = "\
import json
class Cart:
    def total(self, items):
        \"\"\"Sum.\"\"\"
        s = 0
        for i in items:
            s += i
        return s

def main():
    c = Cart()
    t = c.total(list(range(5)))
    marker = 1
    print('done', t)

main()
";

/// The number after `#` that a breakpoint line starts with.
fn id_of(text: &str) -> u64 {
    text.split('#')
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no id in {text}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_function_statement_content_condition_enable_and_never_hit() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": 11}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(11), "{v}");

    let f = mcp
        .ok("breakpoint_set", json!({"function": "Cart.total"}))
        .await;
    assert!(
        f.contains("function Cart.total prog.py:5"),
        "past the docstring: {f}"
    );
    assert!(
        f.contains("found in the source (def Cart.total at prog.py:3)"),
        "it says how: {f}"
    );

    let e = mcp
        .fails(
            "breakpoint_set",
            json!({"file": "prog.py", "line": 13, "expected_content": "marker = 2"}),
        )
        .await;
    assert!(
        e.contains("expected_content") && e.contains("\"marker = 1\""),
        "{e}"
    );

    let st = mcp
        .ok(
            "breakpoint_set",
            json!({"file": "prog.py", "statement": "s += i"}),
        )
        .await;
    assert!(st.contains("prog.py:7"), "{st}");

    let c = mcp
        .fails(
            "breakpoint_set",
            json!({"file": "prog.py", "line": 13, "condition": "i >== 100"}),
        )
        .await;
    assert!(
        c.contains("condition") && c.contains("invalid syntax"),
        "{c}"
    );

    let off = mcp
        .ok("breakpoint_set", json!({"file": "prog.py", "line": 14}))
        .await;
    let off_id = id_of(&off);
    let d = mcp
        .ok("breakpoint_enable", json!({"id": off_id, "enabled": false}))
        .await;
    assert!(d.contains("disabled"), "{d}");

    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(stopped_line(&v), Some(5), "the function's first line: {v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(stopped_line(&v), Some(7), "{v}");
    let list = mcp.ok("breakpoint_list", json!({})).await;
    assert!(
        list.contains("function Cart.total prog.py:5 enabled verified") && list.contains("hits 1"),
        "{list}"
    );
    assert!(
        list.contains(&format!("#{off_id} blocking prog.py:14 disabled")),
        "{list}"
    );
    let st_id = id_of(&st);
    mcp.ok("breakpoint_remove", json!({"id": st_id})).await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED"), "the disabled one did not fire: {v}");
    assert!(
        v.contains(&format!("Never hit: #{off_id} prog.py:14")),
        "the exit names what was never reached: {v}"
    );
    mcp.close().await;
}

const LOOP: &str = "\
total = 0
for i in range(20):
    total += i
print('end', total)
x = 1
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_tracepoints_record_every_hit_in_order_and_stop_themselves() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("loop.py", LOOP)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "loop.py", "stop_on_entry": true, "breakpoints": [{"file": "loop.py", "line": 5}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(1), "{v}");
    let t = mcp
        .ok(
            "tracepoint_set",
            json!({"file": "loop.py", "line": 3, "log_message": "i={i} {{lit}} 5% bad={nope}"}),
        )
        .await;
    let every = id_of(&t);
    let t2 = mcp
        .ok(
            "tracepoint_set",
            json!({"file": "loop.py", "line": 2, "log_message": "loop", "hit_count_multiple": 5, "max_notifications": 2}),
        )
        .await;
    let capped = id_of(&t2);
    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(stopped_line(&v), Some(5), "tracepoints never stop: {v}");

    let trace = mcp
        .ok(
            "debug_output",
            json!({"stream": "trace", "max_bytes": 100000}),
        )
        .await;
    let ours: Vec<&str> = trace
        .lines()
        .filter(|l| l.contains(&format!("#{every} hit")))
        .collect();
    assert_eq!(ours.len(), 20, "{trace}");
    for (i, l) in ours.iter().enumerate() {
        assert!(
            l.ends_with(&format!(
                "loop.py:3 i={i} {{lit}} 5% bad=<error: NameError>"
            )),
            "in order, braces literal, an error named: {l}"
        );
        assert!(l.contains(&format!("hit {}", i + 1)), "{l}");
    }
    let capped_lines: Vec<&str> = trace
        .lines()
        .filter(|l| l.contains(&format!("#{capped} hit")))
        .collect();
    assert_eq!(capped_lines.len(), 2, "{trace}");
    assert!(capped_lines[0].contains("hit 5 ") && capped_lines[1].contains("hit 10 "));
    let out = mcp.output_containing("end 190").await;
    assert!(
        !out.contains("i=0"),
        "hits stay out of the program's output: {out}"
    );
    let list = mcp.ok("breakpoint_list", json!({})).await;
    assert!(
        list.contains(&format!("#{every} tracepoint loop.py:3 enabled verified")),
        "{list}"
    );
    assert!(list.contains("hits 20"), "{list}");
    assert!(
        list.contains(&format!("#{capped} tracepoint loop.py:2 disabled")),
        "it disabled itself: {list}"
    );
    let bad = mcp.fails("debug_output", json!({"stream": "nope"})).await;
    assert!(bad.contains("stream"), "{bad}");
    mcp.close().await;
}

const EXC: &str = "\
def f(n):
    try:
        raise KeyError(n)
    except KeyError:
        pass
    try:
        raise ValueError(n)
    except ValueError:
        pass

for n in range(2):
    f(n)
print('ok')
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_exception_breakpoints_by_type() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("exc.py", EXC)]);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": "exc.py", "stop_on_entry": true}),
    )
    .await;
    let e = mcp
        .fails("breakpoint_set_exception", json!({"filters": ["nope"]}))
        .await;
    assert!(
        e.contains("raised") && e.contains("uncaught"),
        "its own filters: {e}"
    );
    let x = mcp
        .ok(
            "breakpoint_set_exception",
            json!({"exception_type": "ValueError", "break_on_second_chance": false}),
        )
        .await;
    assert!(x.contains("exception ValueError (raised"), "{x}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(stopped_line(&v), Some(7), "ValueError, not KeyError: {v}");
    let id = id_of(&x);
    let list = mcp.ok("breakpoint_list", json!({})).await;
    assert!(
        list.contains(&format!("#{id} exception ValueError")) && list.contains("hits 1"),
        "{list}"
    );
    mcp.ok("breakpoint_enable", json!({"id": id, "enabled": false}))
        .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED"), "disabled, it no longer stops: {v}");
    mcp.close().await;
}

const SUBTYPE: &str = "\
class Sub(ValueError):
    pass

def f(n):
    try:
        raise Sub(n)
    except ValueError:
        pass
    try:
        raise ValueError(n)
    except ValueError:
        pass

f(1)
print('ok')
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_exact_exception_type_passes_its_subtypes_by() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("sub.py", SUBTYPE)]);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": "sub.py", "stop_on_entry": true}),
    )
    .await;
    let x = mcp
        .ok(
            "breakpoint_set_exception",
            json!({"exception_type": "ValueError", "include_subtypes": false,
                   "break_on_second_chance": false}),
        )
        .await;
    assert!(x.contains("exception ValueError (raised)"), "{x}");
    // A run to a line past the Sub's raise gets there.
    let v = mcp
        .ok("debug_run_to", json!({"file": "sub.py", "line": 9}))
        .await;
    assert_eq!(stopped_line(&v), Some(9), "{v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(
        stopped_line(&v),
        Some(10),
        "the ValueError, not its Sub: {v}"
    );
    assert!(v.contains("Exception: ValueError: 1 "), "{v}");
    let list = mcp.ok("breakpoint_list", json!({})).await;
    assert!(list.contains("hits 1"), "the Sub was no hit: {list}");
    let log = mcp.ok("debug_action_log", json!({})).await;
    assert!(
        !log.contains("sub.py:6"),
        "the Sub's stop reached nobody: {log}"
    );
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED"), "{v}");

    mcp.ok(
        "breakpoint_set_exception",
        json!({"exception_type": "ValueError", "include_subtypes": true,
               "break_on_second_chance": false}),
    )
    .await;
    let mut v = mcp.ok("debug_restart", json!({})).await;
    if stopped_line(&v) != Some(6) {
        let (after, failed) = mcp.call("debug_continue", json!({})).await;
        assert!(
            !failed,
            "after the restart said:\n{v}\ncontinue said: {after}"
        );
        v = after;
    }
    assert_eq!(
        stopped_line(&v),
        Some(6),
        "subtypes too: the Sub stops: {v}"
    );
    mcp.close().await;
}

const STEPS: &str = "\
import json
def g(k):
    return k + 1

a = 0
a = g(a)
a = g(a)
a = g(a)
s = json.dumps(a)
print(s)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_moves_say_why_they_ended_early_and_just_my_code_off_enters_libraries() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("steps.py", STEPS)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "steps.py", "just_my_code": false,
                   "breakpoints": [{"file": "steps.py", "line": 5}, {"file": "steps.py", "line": 3}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(5), "{v}");
    let v = mcp
        .ok("debug_step", json!({"kind": "over", "count": 5}))
        .await;
    assert!(v.contains("Stopped after 1 of 5 steps: breakpoint"), "{v}");
    assert_eq!(stopped_line(&v), Some(3), "{v}");
    let v = mcp
        .ok("debug_run_to", json!({"file": "steps.py", "line": 9}))
        .await;
    assert!(v.contains("Stopped before reaching steps.py:9"), "{v}");
    mcp.ok("breakpoint_remove", json!({"file": "steps.py", "line": 3}))
        .await;
    let v = mcp
        .ok("debug_run_to", json!({"file": "steps.py", "line": 9}))
        .await;
    assert_eq!(stopped_line(&v), Some(9), "{v}");
    assert!(!v.contains("Stopped before"), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "into"})).await;
    assert!(
        v.contains("json/__init__.py") || v.contains("json/encoder.py"),
        "with just_my_code off a step enters the library: {v}"
    );
    mcp.close().await;
}

const COND: &str = "\
for i in range(5):
    y = i * 2
print('end')
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_a_condition_that_raises_is_warned_of_once() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("cond.py", COND)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "cond.py",
                   "breakpoints": [{"file": "cond.py", "line": 2, "condition": "1 / (i - 2) > 100"}]}),
        )
        .await;
    assert!(
        v.contains("Warning: breakpoint #1's condition") && v.contains("ZeroDivisionError"),
        "{v}"
    );
    let again = mcp.ok("breakpoint_list", json!({})).await;
    assert!(!again.contains("Warning:"), "told once: {again}");
    let out = mcp.ok("debug_output", json!({})).await;
    assert!(!out.contains("Error while evaluating"), "{out}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_function_breakpoints_tracepoints_enable_and_exception_types() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_c_demo(ws.path());
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "inventory", "breakpoints": [{"file": "inventory.c", "line": 45}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(45), "{v}");
    let f = mcp
        .ok("breakpoint_set", json!({"function": "needs_restock"}))
        .await;
    assert!(
        f.contains("function needs_restock") && f.contains("verified"),
        "{f}"
    );
    assert!(!f.contains("found in the source"), "the adapter's own: {f}");
    let t = mcp
        .ok(
            "tracepoint_set",
            json!({"file": "inventory.c", "line": 47, "log_message": "stock {items[i].stock}"}),
        )
        .await;
    let tp = id_of(&t);
    let e = mcp
        .fails(
            "breakpoint_set_exception",
            json!({"exception_type": "std::exception"}),
        )
        .await;
    assert!(e.contains("exception_type") && e.contains("filter"), "{e}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(stopped_line(&v), Some(22), "in needs_restock: {v}");
    let trace = mcp.ok("debug_output", json!({"stream": "trace"})).await;
    for (n, stock) in [(1, 12), (2, 40), (3, 1)] {
        assert!(
            trace.contains(&format!("#{tp} hit {n} inventory.c:47 stock {stock}")),
            "{trace}"
        );
    }
    let fid = id_of(&f);
    mcp.ok("breakpoint_enable", json!({"id": fid, "enabled": false}))
        .await;
    let list = mcp.ok("breakpoint_list", json!({})).await;
    assert!(
        list.contains(&format!("#{fid} function needs_restock")) && list.contains("disabled"),
        "{list}"
    );
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED"), "disabled, it no longer stops: {v}");
    mcp.close().await;
}

/// A breakpoint set by its statement follows that statement when the file
/// is edited above it, across a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_statement_breakpoint_follows_its_code_across_an_edit_and_a_restart() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": 11}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(11), "{v}");
    let st = mcp
        .ok(
            "breakpoint_set",
            json!({"file": "prog.py", "statement": "marker = 1"}),
        )
        .await;
    assert!(st.contains("prog.py:13"), "{st}");
    // Three lines land above the statement while the program runs.
    let edited = PROG.replace(
        "def main():\n",
        "def main():\n    a = 1\n    b = 2\n    c2 = 3\n",
    );
    std::fs::write(ws.path().join("prog.py"), edited).expect("edit");
    let v = mcp.ok("debug_restart", json!({})).await;
    // A line breakpoint follows its line's text as well: `c = Cart()` is
    // now line 14.
    assert_eq!(stopped_line(&v), Some(14), "{v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(
        stopped_line(&v),
        Some(16),
        "the statement moved with its code: {v}"
    );
    assert!(v.contains("marker = 1"), "{v}");
    mcp.close().await;
}

/// Every breakpoint says whether it is on, in the list's text and in the
/// breakpoints resource; a launch asking for an exception filter the
/// adapter does not have is refused, naming the adapter's own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_list_says_enabled_and_a_launch_with_an_unknown_filter_is_refused() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let mcp = mcp_in(ws.path()).await;
    let refused = mcp
        .fails(
            "debug_launch",
            json!({"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": 7}],
                   "exception_breakpoints": ["nosuch"]}),
        )
        .await;
    assert!(
        refused.starts_with(
            "The session failed: exception_breakpoints: \"nosuch\" is not a filter of debugpy; it has [\"raised\", \"uncaught\", \"userUnhandled\"]."
        ),
        "{refused}"
    );
    assert_eq!(refused.matches("nosuch").count(), 1, "said once: {refused}");
    assert!(!refused.contains("Breakpoint #1"), "{refused}");

    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": 7}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(7), "{v}");
    mcp.ok("breakpoint_set", json!({"file": "prog.py", "line": 13}))
        .await;
    mcp.ok("breakpoint_enable", json!({"id": 2, "enabled": false}))
        .await;
    let list = mcp.ok("breakpoint_list", json!({})).await;
    assert!(
        list.contains("#1 blocking prog.py:7 enabled verified hits 1"),
        "{list}"
    );
    assert!(
        list.contains("#2 blocking prog.py:13 disabled hits 0"),
        "{list}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&mcp.resource("debugger://session/s2/breakpoints").await)
            .expect("JSON breakpoints");
    let enabled: Vec<(u64, bool)> = json["breakpoints"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|b| (b["id"].as_u64().unwrap(), b["enabled"].as_bool().unwrap()))
        .collect();
    assert_eq!(enabled, [(1, true), (2, false)]);
    mcp.close().await;
}
