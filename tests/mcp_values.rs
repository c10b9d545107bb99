//! Values an agent can trust: exact counts, types read rather than
//! guessed, cuts that say so, paths that can be fed back, the raise site
//! and return values, through the real binary and a real debugpy.

mod common;

use common::*;
use serde_json::json;

const PROG: &str = "\
import collections


class Acct:
    def __init__(self):
        self.meta = {'limits': {'daily': 5}, 'owner': 'ann'}


class Weird:
    __slots__ = ()


def main():
    big = list(range(100000))
    many = {i: [i] for i in range(5000)}
    deep = {'a': [{'k': 1}], 't': (1, (2, 3))}
    dq = collections.deque([3, 4, 4])
    tl = ([1, 2, 3], [4, 5, 6])
    powers = [[2 ** i] for i in range(10)]
    ordinal = 3
    acct = Acct()
    num = 12345678901234567890123456789012345678901234567890
    text = 'x' * 300
    huge = 'y' * 10_000_000
    raw = b'\\x00abc'
    it = iter([1, 2])
    gen = (i for i in range(3))
    w = Weird()
    print('stop', flush=True)
    return len(big)


main()
";

const STOP_LINE: u64 = 30;

/// A session stopped in `main` with every local assigned.
async fn stopped(config: serde_json::Value) -> (tempfile::TempDir, Mcp, String) {
    let ws = workspace(&[("prog.py", PROG)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": STOP_LINE}], "viewport_config": config}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(STOP_LINE), "{v}");
    (ws, mcp, v)
}

/// The value a `debug_variables` or `debug_evaluate` line gives `name`.
fn listed(text: &str, name: &str) -> String {
    text.lines()
        .map(str::trim_start)
        .find_map(|l| l.strip_prefix(&format!("{name} = ")))
        .unwrap_or_else(|| panic!("no {name} in {text}"))
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counts_are_exact_in_every_tool() {
    if !debugpy_available() {
        return;
    }
    let (_ws, mcp, v) = stopped(json!({})).await;
    assert!(local(&v, "big").unwrap().contains("(100000 items)"), "{v}");
    let vars = mcp.ok("debug_variables", json!({})).await;
    assert!(listed(&vars, "big").contains("(100000 items)"), "{vars}");
    assert!(listed(&vars, "many").contains("(5000 items)"), "{vars}");
    let e = mcp.ok("debug_evaluate", json!({"expression": "big"})).await;
    assert!(listed(&e, "big").contains("(100000 items)"), "{e}");
    for text in [&v, &vars, &e] {
        assert!(!text.contains("+ items"), "a guessed count: {text}");
    }
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deeper_levels_are_read_not_guessed() {
    if !debugpy_available() {
        return;
    }
    let (_ws, mcp, v) = stopped(json!({"locals_max_depth": 2})).await;
    let deep = local(&v, "deep").unwrap();
    assert_eq!(deep, r#"{"a": [{"k": 1}], "t": (1, (2, 3))}"#, "{v}");
    assert!(!v.contains("<set") && !v.contains("0+ items"), "{v}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn containers_show_their_own_repr_when_it_fits() {
    if !debugpy_available() {
        return;
    }
    let (_ws, mcp, v) = stopped(json!({})).await;
    assert_eq!(local(&v, "dq").as_deref(), Some("deque([3, 4, 4])"), "{v}");
    assert_eq!(
        local(&v, "tl").as_deref(),
        Some("([1, 2, 3], [4, 5, 6])"),
        "{v}"
    );
    let vars = mcp.ok("debug_variables", json!({})).await;
    assert_eq!(
        listed(&vars, "dq"),
        "deque([3, 4, 4])  (deque)  ▸ expand=dq"
    );
    assert!(
        listed(&vars, "tl").starts_with("([1, 2, 3], [4, 5, 6])"),
        "{vars}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_item_is_reachable_by_paging_and_expand() {
    if !debugpy_available() {
        return;
    }
    let (_ws, mcp, _) = stopped(json!({})).await;
    let page = mcp
        .ok("debug_variables", json!({"expand": "many", "start": 4990}))
        .await;
    assert!(page.contains("of 5001)"), "5000 keys and len(): {page}");
    assert!(listed(&page, "4999").starts_with("[4999]"), "{page}");
    let one = mcp
        .ok("debug_variables", json!({"expand": "many[4999]"}))
        .await;
    assert!(listed(&one, "0").starts_with("4999"), "{one}");
    let list = mcp
        .ok("debug_variables", json!({"expand": "big", "start": 99998}))
        .await;
    assert!(listed(&list, "99999").starts_with("99999"), "{list}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_printed_path_is_accepted_back() {
    if !debugpy_available() {
        return;
    }
    let (_ws, mcp, _) = stopped(json!({})).await;
    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "powers[ordinal - 1]"}),
        )
        .await;
    let hint = e
        .split("▸ expand=")
        .nth(1)
        .and_then(|h| h.lines().next())
        .unwrap_or_else(|| panic!("no hint: {e}"));
    let back = mcp.ok("debug_variables", json!({"expand": hint})).await;
    assert!(listed(&back, "0").starts_with('4'), "{back}");
    for path in [
        "acct.meta[\"limits\"]",
        "acct.meta['limits']",
        "acct.meta.\"limits\"",
    ] {
        let r = mcp.ok("debug_variables", json!({"expand": path})).await;
        assert!(listed(&r, "'daily'").starts_with('5'), "{path}: {r}");
    }
    assert!(
        listed(
            &mcp.ok("debug_variables", json!({"expand": "powers[0]"}))
                .await,
            "0"
        )
        .starts_with('1')
    );
    // Each hint a listing prints expands.
    let meta = mcp
        .ok("debug_variables", json!({"expand": "acct.meta"}))
        .await;
    let hints: Vec<&str> = meta
        .lines()
        .filter_map(|l| l.split("▸ expand=").nth(1))
        .collect();
    assert!(!hints.is_empty(), "{meta}");
    for h in hints {
        mcp.ok("debug_variables", json!({"expand": h})).await;
    }
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cuts_say_so_and_numbers_are_never_cut() {
    if !debugpy_available() {
        return;
    }
    let (_ws, mcp, _) = stopped(json!({"string_truncate_length": 40})).await;
    let v = mcp.ok("debug_status", json!({})).await;
    assert_eq!(
        local(&v, "num").as_deref(),
        Some("12345678901234567890123456789012345678901234567890"),
        "{v}"
    );
    let text = local(&v, "text").unwrap();
    assert!(text.ends_with("...\" (300 chars)"), "{v}");
    let e = mcp
        .ok("debug_evaluate", json!({"expression": "text"}))
        .await;
    assert!(listed(&e, "text").contains("(300 chars)"), "{e}");
    let whole = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "text", "max_length": 1000}),
        )
        .await;
    assert!(
        whole.contains(&format!("\"{}\"", "x".repeat(300))),
        "{whole}"
    );
    // The limit counts the string's characters, not its quotes.
    let exact = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "text[:100]", "max_length": 100}),
        )
        .await;
    assert!(
        exact.contains(&format!("= \"{}\"", "x".repeat(100))),
        "{exact}"
    );
    let huge = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "huge", "max_length": 10_100_000}),
        )
        .await;
    assert!(
        huge.contains(&"y".repeat(10_000_000)),
        "not whole: {} chars, {}...{}",
        huge.len(),
        &huge[..200.min(huge.len())],
        &huge[huge.len().saturating_sub(200)..]
    );
    let cut = mcp
        .ok("debug_evaluate", json!({"expression": "huge"}))
        .await;
    assert!(
        cut.contains("(10000000 chars)"),
        "{}",
        &cut[..cut.len().min(600)]
    );
    let bad = mcp
        .fails(
            "debug_evaluate",
            json!({"expression": "text", "max_length": 10_485_761}),
        )
        .await;
    assert!(
        bad.contains("max_length") && bad.contains("10485760"),
        "{bad}"
    );
    let no = mcp
        .fails("debug_variables", json!({"expand": "huge"}))
        .await;
    assert!(
        no.len() < 600,
        "the error echoes the value: {} chars",
        no.len()
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bytes_iterators_and_empty_objects_say_what_they_are() {
    if !debugpy_available() {
        return;
    }
    let (_ws, mcp, v) = stopped(json!({})).await;
    assert_eq!(local(&v, "raw").as_deref(), Some(r#"b"\x00abc""#), "{v}");
    assert_eq!(local(&v, "it").as_deref(), Some("<list_iterator>"), "{v}");
    assert_eq!(
        local(&v, "gen").as_deref(),
        Some("<generator main.<locals>.<genexpr>>"),
        "{v}"
    );
    assert_eq!(local(&v, "w").as_deref(), Some("<Weird>"), "{v}");
    mcp.close().await;
}

const NUMBER: &str = "\
def parse_record(r):
    if r < 0:
        raise ValueError('bad record')
    return r


def get_total(n):
    total = n + 1
    return total


def level(n, r):
    if n == 0:
        return parse_record(r)
    return level(n - 1, r)
";

const MAIN: &str = "\
import sys
sys.path.insert(0, 'src')
from pkg.number import get_total, level
t = get_total(41)
print(t, flush=True)
level(8, -1)
";

fn number_workspace() -> tempfile::TempDir {
    workspace(&[
        ("main.py", MAIN),
        ("src/pkg/__init__.py", ""),
        ("src/pkg/number.py", NUMBER),
        ("src/pkg/helpers.py", ""),
        ("src/other/helpers.py", ""),
    ])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stack_paths_are_workspace_relative_and_accepted_back() {
    if !debugpy_available() {
        return;
    }
    let ws = number_workspace();
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "main.py", "breakpoints": [{"file": "src/pkg/number.py", "line": 8}]}),
        )
        .await;
    let top = v
        .lines()
        .find(|l| l.trim_start().starts_with('→') && l.contains("get_total"))
        .unwrap_or_else(|| panic!("{v}"));
    assert!(top.contains("src/pkg/number.py:8"), "{v}");
    let printed = top
        .split_whitespace()
        .nth(1)
        .and_then(|loc| loc.rsplit_once(':'))
        .map(|(file, _)| file.to_string())
        .unwrap();
    mcp.ok("breakpoint_set", json!({"file": printed, "line": 9}))
        .await;
    let bare = mcp
        .ok("breakpoint_set", json!({"file": "number.py", "line": 14}))
        .await;
    assert!(bare.contains("src/pkg/number.py:14"), "{bare}");
    let many = mcp
        .fails("breakpoint_set", json!({"file": "helpers.py", "line": 1}))
        .await;
    assert!(
        many.contains("src/other/helpers.py") && many.contains("src/pkg/helpers.py"),
        "{many}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_out_shows_the_return_value() {
    if !debugpy_available() {
        return;
    }
    let ws = number_workspace();
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "main.py", "breakpoints": [{"file": "src/pkg/number.py", "line": 9}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(9), "{v}");
    let v = mcp.ok("debug_step", json!({"kind": "out"})).await;
    assert_eq!(
        local(&v, "(return) get_total").as_deref(),
        Some("42"),
        "{v}"
    );
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_exception_line_names_the_raise_site() {
    if !debugpy_available() {
        return;
    }
    let ws = number_workspace();
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "main.py", "viewport_config": {"stack_depth": 1}}),
        )
        .await;
    let line = v
        .lines()
        .find(|l| l.starts_with("Exception:"))
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(
        line, "Exception: ValueError: bad record (raised at src/pkg/number.py:3 in parse_record)",
        "{v}"
    );
    mcp.close().await;
}

const LONG: &str = "\
def main():
    long = 'z' * 100_000
    short = 'a' * 10
    print('stop', flush=True)


main()
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_string_the_adapter_cut_says_its_exact_length() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("long.py", LONG)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "long.py", "breakpoints": [{"file": "long.py", "line": 4}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(4), "{v}");
    let long = local(&v, "long").unwrap_or_else(|| panic!("{v}"));
    assert!(long.starts_with("\"zzz"), "{v}");
    assert!(
        long.ends_with("...\" (100000 chars)"),
        "exact, not a lower bound: {v}"
    );
    assert_eq!(local(&v, "short").as_deref(), Some("\"aaaaaaaaaa\""), "{v}");
    let listing = mcp.ok("debug_variables", json!({})).await;
    assert!(
        listed(&listing, "long").contains("...\" (100000 chars)"),
        "{listing}"
    );
    mcp.close().await;
}

const DEEP_RAISE: &str = "\
def parse_record(r):
    raise ValueError('bad record')


def level(n):
    return parse_record(n) if n == 0 else level(n - 1)


level(3)
";

/// debugpy pauses for a user-uncaught exception in the outermost frame of
/// the program's own code, four calls above where it was raised, and
/// lists the raise frame first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_raise_site_is_named_when_the_stop_is_in_another_frame() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("deep.py", DEEP_RAISE)]);
    let mcp = mcp_in(ws.path()).await;
    mcp.ok(
        "debug_launch",
        json!({"program": "deep.py", "stop_on_entry": true,
               "viewport_config": {"stack_depth": 1}}),
    )
    .await;
    mcp.ok(
        "breakpoint_set_exception",
        json!({"filters": ["userUnhandled"]}),
    )
    .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("Call Stack (1 of 6 frames)"), "{v}");
    let line = v
        .lines()
        .find(|l| l.starts_with("Exception:"))
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(
        line, "Exception: ValueError: bad record (raised at deep.py:2 in parse_record)",
        "{v}"
    );
    mcp.close().await;
}
