//! Past sessions read back from their journals: two real debugpy runs of
//! one program recorded through MCP, then listed, searched, shown and
//! compared through the real `pairdbg journal` commands and the MCP tools
//! and resources, with the secrets they were handed never in clear.

mod common;

use std::path::Path;

use common::*;
use serde_json::json;

const PROG: &str = "\
import os
import sys


def build():
    parts = ['a', 'b', '', 'd', 'e', 'f', '']
    if len(sys.argv) > 1:
        parts[6] = str(167)
    return parts


def main(password):
    parts = build()
    seen = os.environ['API_KEY']
    total = len(parts[6])
    if total:
        print('long total', total)
    print('marker-out', total, seen)
    return total


main('hunter2' + '-secret')
";

const API_KEY: &str = "live-Qx81-pw-7730-zed";

/// Runs prog.py to its end through MCP with `args`, stopping at lines 9,
/// 17 and 19, and returns once its journal is written.
async fn record_run(ws: &Path, state: &Path, args: &[&str]) {
    let mcp = mcp_with_env(ws, &[], &[("XDG_STATE_HOME", state)]).await;
    let bps: Vec<_> = [9, 17, 19]
        .iter()
        .map(|l| json!({"file": "prog.py", "line": l}))
        .collect();
    mcp.ok(
        "debug_launch",
        json!({"program": "prog.py", "args": args, "env": {"API_KEY": API_KEY}, "breakpoints": bps}),
    )
    .await;
    mcp.ok(
        "debug_note",
        json!({"text": "checking parts before the join"}),
    )
    .await;
    // From each stop on to the next, and from the last to the end.
    let stops = if args.is_empty() { 2 } else { 3 };
    let mut last = String::new();
    for _ in 0..stops {
        last = mcp.ok("debug_continue", json!({})).await;
    }
    assert!(last.to_lowercase().contains("exited"), "{last}");
    // Answers once everything so far is on disk.
    mcp.ok("debug_journal", json!({})).await;
    mcp.close().await;
}

/// `pairdbg ARGS` in `ws`: (stdout, stderr, success).
fn pairdbg(ws: &Path, state: &Path, args: &[&str]) -> (String, String, bool) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(args)
        .current_dir(ws)
        .env("XDG_STATE_HOME", state)
        .output()
        .expect("pairdbg");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

fn ok(ws: &Path, state: &Path, args: &[&str]) -> String {
    let (out, err, success) = pairdbg(ws, state, args);
    assert!(success, "pairdbg {args:?} failed: {err}{out}");
    out
}

fn fails(ws: &Path, state: &Path, args: &[&str]) -> String {
    let (out, err, success) = pairdbg(ws, state, args);
    assert!(!success, "pairdbg {args:?} should have failed: {out}");
    err
}

/// The two runs' journal ids, oldest first: A without arguments, B with one.
fn ids(ws: &Path, state: &Path) -> (String, String) {
    let list: serde_json::Value =
        serde_json::from_str(&ok(ws, state, &["journal", "list", "--json"])).expect("JSON");
    let ids: Vec<String> = list
        .as_array()
        .expect("a list")
        .iter()
        .map(|j| j["id"].as_str().expect("id").to_string())
        .collect();
    assert_eq!(ids.len(), 2, "{list}");
    (ids[0].clone(), ids[1].clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn journal_commands_list_search_show_and_diff_two_real_runs() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let state = tempfile::tempdir().expect("state dir");
    let (w, s) = (ws.path(), state.path());
    record_run(w, s, &[]).await;
    record_run(w, s, &["more"]).await;
    let (a, b) = ids(w, s);

    let list = ok(w, s, &["journal", "list"]);
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 2, "{list}");
    assert!(
        lines[0].starts_with(&a)
            && lines[0].contains("prog.py  ·  exited with code 0  ·  2 stops, 1 note"),
        "{list}"
    );
    assert!(
        lines[1].contains("prog.py more  ·  exited with code 0  ·  3 stops"),
        "{list}"
    );
    // Filters.
    let none = ok(w, s, &["journal", "list", "--outcome", "crashed"]);
    assert_eq!(none, "No journals match.\n");
    let exited = ok(
        w,
        s,
        &[
            "journal",
            "list",
            "--outcome",
            "exited:0",
            "--program",
            "prog",
        ],
    );
    assert_eq!(exited.lines().count(), 2, "{exited}");
    let later = ok(w, s, &["journal", "list", "--since", "2999-01-01"]);
    assert_eq!(later, "No journals match.\n");
    let today = ok(w, s, &["journal", "list", "--until", "2999-01-01T00:00"]);
    assert_eq!(today.lines().count(), 2, "{today}");
    let elsewhere = ok(w, s, &["journal", "list", "--program", "other.py"]);
    assert_eq!(elsewhere, "No journals match.\n");
    // Bad filters name the argument.
    let e = fails(w, s, &["journal", "list", "--since", "yesterday"]);
    assert!(
        e.contains("--since \"yesterday\": expected a UTC date"),
        "{e}"
    );
    let e = fails(w, s, &["journal", "list", "--outcome", "exploded"]);
    assert!(e.contains("--outcome \"exploded\": expected exited"), "{e}");
    let e = fails(w, s, &["journal", "show", "../x"]);
    assert!(e.contains("ID \"../x\": a journal id is"), "{e}");
    let e = fails(w, s, &["journal", "show", "s77"]);
    assert!(e.contains("ID \"s77\": no journal"), "{e}");
    let e = fails(w, s, &["journal", "show", &a, "--stop", "9"]);
    assert!(
        e.contains("--stop 9: the journal") && e.contains("holds stops 1 to 2"),
        "{e}"
    );

    // Search: values, output, notes.
    let found = ok(w, s, &["journal", "search", "MARKER-OUT"]);
    assert_eq!(found.matches("output: marker-out").count(), 2, "{found}");
    let found = ok(w, s, &["journal", "search", "\"167\""]);
    assert!(
        found.contains(&format!("{b}  ")) && found.contains("stop 1 at prog.py:9 value: parts = ["),
        "{found}"
    );
    assert!(
        !found.contains(&format!("{a}  ")),
        "only B holds 167: {found}"
    );
    let found = ok(w, s, &["journal", "search", "before the join", "--json"]);
    let hits: serde_json::Value = serde_json::from_str(&found).expect("JSON");
    assert_eq!(hits["hits"].as_array().map(Vec::len), Some(2), "{hits}");
    assert_eq!(hits["hits"][0]["kind"], "note", "{hits}");

    // Show: one stop's full state, and the whole session.
    let stop = ok(w, s, &["journal", "show", &b, "--stop", "3"]);
    assert!(
        stop.contains("Stop 3 of 3 · prog.py:19 in main · breakpoint"),
        "{stop}"
    );
    assert!(stop.contains("    #0 main prog.py:19"), "{stop}");
    assert!(stop.contains("    #1 <module> prog.py:22"), "{stop}");
    assert!(stop.contains("    total = 3"), "{stop}");
    assert!(stop.contains("    password = <redacted"), "{stop}");
    let whole = ok(w, s, &["journal", "show", &a]);
    let first = whole
        .find("Stop 1 of 2 · prog.py:9 in build")
        .expect(&whole);
    let note = whole.find("Note (agent): checking parts").expect(&whole);
    let second = whole
        .find("Stop 2 of 2 · prog.py:19 in main")
        .expect(&whole);
    assert!(first < note && note < second, "{whole}");
    assert!(whole.contains("stdout| marker-out 0"), "{whole}");
    assert!(
        whole.contains("End: The program exited with code 0."),
        "{whole}"
    );
    let json_stop: serde_json::Value =
        serde_json::from_str(&ok(w, s, &["journal", "show", &b, "--stop", "1", "--json"]))
            .expect("JSON");
    assert_eq!(json_stop["stops"][0]["number"], 1, "{json_stop}");
    assert_eq!(json_stop["stops"][0]["frames"][0]["line"], 9, "{json_stop}");

    // Diff: where the paths part, and the first value that differs.
    let d = ok(w, s, &["journal", "diff", &a, &b]);
    assert!(
        d.contains("Path: the same for 1 stop; stop 2 differs: A prog.py:19, B prog.py:17"),
        "{d}"
    );
    assert!(
        d.contains(r#"Values: first differ at stop 1 (prog.py:9 in build): parts[6]: "" → "167""#),
        "{d}"
    );
    let dj: serde_json::Value =
        serde_json::from_str(&ok(w, s, &["journal", "diff", &a, &b, "--json"])).expect("JSON");
    assert_eq!(dj["value_differs"]["path"], "parts[6]", "{dj}");
    assert_eq!(dj["path_differs"]["stop"], 2, "{dj}");
    let same = ok(w, s, &["journal", "diff", &a, &a]);
    assert!(same.contains("Path: the same at all 2 stops"), "{same}");

    // Secrets: neither the launch env's key nor the local `password` is in
    // a journal on disk or in anything the commands print.
    for secret in [API_KEY, "hunter2-secret"] {
        let found = ok(w, s, &["journal", "search", secret]);
        assert!(found.contains("is in none of the 2 journals"), "{found}");
        for id in [&a, &b] {
            let shown = ok(w, s, &["journal", "show", id]);
            assert!(!shown.contains(secret), "{shown}");
            let shown = ok(w, s, &["journal", "show", id, "--json"]);
            assert!(!shown.contains(secret), "{shown}");
        }
        for f in std::fs::read_dir(s.join("pairdbg/journals")).expect("journals") {
            let text = std::fs::read_to_string(f.expect("entry").path()).expect("journal");
            assert!(!text.contains(secret), "{text}");
        }
    }
    // The key reaches the output masked, and is found masked.
    let found = ok(w, s, &["journal", "search", "marker-out 0"]);
    assert!(found.contains("output: marker-out 0 <redacted"), "{found}");
}

/// A journals resource that must fail: its message.
async fn resource_error(mcp: &Mcp, uri: &str) -> String {
    match mcp
        .client
        .read_resource(rmcp::model::ReadResourceRequestParams::new(uri))
        .await
    {
        Ok(r) => panic!("{uri} should have failed: {r:?}"),
        Err(e) => e.to_string(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_reads_past_sessions_as_mcp_resources() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let state = tempfile::tempdir().expect("state dir");
    let (w, s) = (ws.path(), state.path());
    record_run(w, s, &[]).await;
    record_run(w, s, &["more"]).await;
    let (a, b) = ids(w, s);
    let mcp = mcp_with_env(w, &[], &[("XDG_STATE_HOME", s)]).await;

    let listed = mcp
        .client
        .list_resources(None)
        .await
        .expect("resources/list");
    assert!(
        listed
            .resources
            .iter()
            .any(|r| r.uri == "debugger://journals"),
        "{listed:?}"
    );
    let list: serde_json::Value =
        serde_json::from_str(&mcp.resource("debugger://journals").await).expect("JSON");
    assert_eq!(list[0]["id"], a.as_str(), "{list}");
    assert_eq!(list[1]["stops"], 3, "{list}");
    assert_eq!(list[1]["outcome"], "exited", "{list}");
    let filtered: serde_json::Value = serde_json::from_str(
        &mcp.resource("debugger://journals?program=prog.py&outcome=crashed")
            .await,
    )
    .expect("JSON");
    assert_eq!(filtered, json!([]));
    let e = resource_error(&mcp, "debugger://journals?since=2026-13-01").await;
    assert!(
        e.contains("since \"2026-13-01\": expected a UTC date"),
        "{e}"
    );
    let e = resource_error(&mcp, "debugger://journals?colour=red").await;
    assert!(e.contains("query field \"colour\" is not one"), "{e}");

    let found: serde_json::Value =
        serde_json::from_str(&mcp.resource("debugger://journals?text=long%20total").await)
            .expect("JSON");
    assert_eq!(found["hits"][0]["kind"], "output", "{found}");
    assert_eq!(found["hits"][0]["text"], "long total 3", "{found}");
    assert_eq!(found["hits"][0]["journal"], b.as_str(), "{found}");
    let found = mcp
        .resource("debugger://journals?text=hunter2-secret")
        .await;
    assert!(found.contains(r#""hits":[]"#), "{found}");

    let one = mcp
        .resource(&format!("debugger://journals/{b}?stop=1"))
        .await;
    assert!(
        one.contains(r#"    parts = ["a", "b", "", "d", "e", "f", "167"]"#),
        "{one}"
    );
    let e = resource_error(&mcp, &format!("debugger://journals/{b}?stop=0")).await;
    assert!(e.contains("stop 0: the journal"), "{e}");
    let whole = mcp.resource(&format!("debugger://journals/{a}")).await;
    assert!(
        whole.contains("Stop 1 of 2 · prog.py:9 in build"),
        "{whole}"
    );
    assert!(!whole.contains(API_KEY), "{whole}");

    // The ids complete, newest first.
    let offered = mcp
        .client
        .complete_resource_argument("debugger://journals/{a}/diff/{b}", "b", "", None)
        .await
        .expect("complete b");
    assert_eq!(offered.values, vec![b.clone(), a.clone()]);
    let d = mcp
        .resource(&format!("debugger://journals/{a}/diff/{b}"))
        .await;
    assert!(d.contains(r#"parts[6]: "" → "167""#), "{d}");
    let e = resource_error(&mcp, &format!("debugger://journals/{a}/diff/nope")).await;
    assert!(e.contains("b \"nope\": no journal"), "{e}");
    mcp.close().await;
}
