//! Conditional, hit-count and log breakpoints, exceptions deep in a stack,
//! and output capture, on a real debugpy through the real binary.

mod common;

use common::*;
use serde_json::json;

const LOOP: &str = "\
total = 0
for i in range(10):
    total += i
print('done', total)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conditional_hit_count_and_log_breakpoints() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("loop.py", LOOP)]);
    let mcp = mcp_in(ws.path()).await;

    let v = mcp
        .ok("debug_launch", json!({"program": "loop.py", "breakpoints": [{"file": "loop.py", "line": 3, "condition": "i == 7"}]}))
        .await;
    assert_eq!(stopped_line(&v), Some(3), "{v}");
    assert_eq!(local(&v, "i").as_deref(), Some("7"), "{v}");
    assert_eq!(local(&v, "total").as_deref(), Some("21"), "{v}");

    // Replace it with a hit-count breakpoint: the 2nd hit from here on.
    let r = mcp
        .ok("breakpoint_remove", json!({"file": "loop.py", "line": 3}))
        .await;
    assert!(r.contains("Removed #1 blocking loop.py:3"), "{r}");
    let r = mcp
        .ok(
            "breakpoint_set",
            json!({"file": "loop.py", "line": 3, "hit_count": 2}),
        )
        .await;
    assert!(
        r.contains("loop.py:3") && r.contains("verified") && r.contains("hit_count 2"),
        "{r}"
    );
    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(
        local(&v, "i").as_deref(),
        Some("9"),
        "the second hit after i == 7 is i == 9: {v}"
    );

    let list = mcp.ok("breakpoint_list", json!({})).await;
    assert!(
        list.contains("hit_count 2") && list.contains("[agent]"),
        "{list}"
    );
    mcp.ok("breakpoint_remove", json!({"id": 2})).await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED with code 0"), "{v}");
    assert!(v.contains("done 45"), "{v}");
    mcp.close().await;

    // Log points record in the trace log and do not stop.
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok("debug_launch", json!({"program": "loop.py", "breakpoints": [{"file": "loop.py", "line": 3, "log_message": "i is {i}"}]}))
        .await;
    assert!(v.contains("EXITED with code 0"), "{v}");
    let out = mcp.ok("debug_output", json!({"stream": "trace"})).await;
    assert!(
        out.contains("hit 1 loop.py:3 i is 0") && out.contains("hit 10 loop.py:3 i is 9"),
        "{out}"
    );
    mcp.close().await;
}

const DEEP: &str = "\
def level(n):
    if n == 0:
        raise ValueError(f'bad value at depth {n}')
    return level(n - 1)


def main():
    level(6)


main()
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uncaught_exception_deep_in_a_stack_pauses() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("deep.py", DEEP)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp.ok("debug_launch", json!({"program": "deep.py"})).await;
    assert!(v.contains("── STOPPED at deep.py:3 (level) ──"), "{v}");
    assert!(v.contains("Reason: exception"), "{v}");
    assert!(
        v.contains("Exception: ValueError: bad value at depth 0"),
        "{v}"
    );
    assert!(v.contains("Call Stack (5 of 9 frames):"), "{v}");
    assert_eq!(local(&v, "n").as_deref(), Some("0"), "{v}");
    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "n", "frame_index": 3}),
        )
        .await;
    assert!(e.starts_with("n = 3"), "frame 3 is level(3): {e}");
    // Each caller of the five frames shown carries its own argument.
    for (depth, n) in [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)] {
        let line = v
            .lines()
            .filter(|l| l.trim_start_matches([' ', '→']).starts_with("deep.py:"))
            .nth(depth)
            .unwrap_or_else(|| panic!("no frame {depth}: {v}"));
        assert!(line.ends_with(&format!("level(n={n})")), "{v}");
    }
    let s = mcp.ok("debug_stack", json!({})).await;
    assert!(s.contains("#8 deep.py:11 <module>"), "{s}");
    assert!(s.contains("#3 deep.py:4 level(n=3)"), "{s}");
    assert!(
        s.contains("#5 deep.py:4 level(n)\n"),
        "beyond the read frames, the parameters' names: {s}"
    );

    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED with code 1"), "{v}");
    let out = mcp.output_containing("ValueError: bad value").await;
    assert!(
        out.contains("[stderr] ValueError: bad value at depth 0"),
        "{out}"
    );
    mcp.close().await;
}

const OUTPUT: &str = "\
import sys
sys.stdout.write('first line\\n')
sys.stdout.flush()
sys.stderr.write('an error line\\n')
sys.stderr.flush()
for i in range(3):
    print('row', i, flush=True)
x = 1
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn output_is_captured_and_read_through_a_cursor() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("out.py", OUTPUT)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "out.py", "breakpoints": [{"file": "out.py", "line": 8}]}),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(8), "{v}");
    // debugpy reads stdout and stderr on separate pipes, so their relative
    // order is not fixed; the cursor must still hand out every byte once.
    let body = |t: &str| {
        t.rsplit_once("\n(next since=")
            .map(|(b, _)| b.to_string())
            .unwrap_or_default()
    };
    let cursor = |t: &str| -> u64 {
        t.split("next since=")
            .nth(1)
            .and_then(|s| s.split([',', ')']).next())
            .and_then(|n| n.parse().ok())
            .expect("cursor")
    };
    // Output travels through debugpy's launcher, apart from the stop, so it
    // may trail the stop a little: wait for it.
    let all = mcp.output_containing("row 2").await;
    assert!(
        all.contains("first line\n")
            && all.contains("[stderr] an error line\n")
            && all.contains("row 2"),
        "{all}"
    );
    let mut pieces = String::new();
    let mut since = 0;
    for _ in 0..20 {
        let part = mcp
            .ok("debug_output", json!({"since": since, "max_bytes": 11}))
            .await;
        pieces.push_str(&body(&part));
        since = cursor(&part);
        if !part.contains("more available") {
            break;
        }
    }
    let plain = |t: &str| t.replace("[stderr] ", "").replace('\n', "");
    assert_eq!(plain(&pieces), plain(&body(&all)));
    assert_eq!(since, cursor(&all));
    mcp.close().await;
}
