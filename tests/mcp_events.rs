//! Push events end to end through a real MCP client that records what it
//! receives: `debugger/breakpointHit`, `debugger/sessionStateChanged`,
//! resource reads and `notifications/resources/updated`, `breakpoint_wait`,
//! and long waits answered before a client's timeout or with progress.

mod common;

use common::listener::*;
use common::native::*;
use common::*;
use rmcp::model::{ReadResourceRequestParams, SubscribeRequestParams};
use serde_json::{Value, json};

const PROG: &str = "\
import time


def work(n):
    total = 0
    for i in range(n):
        total += i
    return total


def main():
    print('start', flush=True)
    work(2)
    raise ValueError('bad record')


main()
";
const LOOP_LINE: u64 = 7;

async fn read(l: &Listening, uri: &str) -> String {
    let r = l
        .client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap_or_else(|e| panic!("read {uri}: {e}"));
    match &r.contents[0] {
        rmcp::model::ResourceContents::TextResourceContents { text, .. } => text.clone(),
        other => panic!("{uri}: {other:?}"),
    }
}

/// The JSON line `breakpoint_wait` answers first.
fn head(text: &str) -> Value {
    serde_json::from_str(text.lines().next().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A step is told as one move to running and then its stop: the adapter's
/// answer to `next` changes nothing the agent can see, so it sends nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_is_told_as_one_running_then_its_stop() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let l = listen_in(ws.path(), &[]).await;
    l.ok(
        "debug_launch",
        json!({"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": LOOP_LINE}]}),
    )
    .await;
    let epoch = |p: &Value| p["epoch"].as_u64().unwrap_or(0);
    const STATE: &str = "debugger/sessionStateChanged";
    let first = epoch(&l.pushed.custom(0, STATE, |p| p["state"] == "stopped").await);
    let mark = l.pushed.mark();
    l.ok("debug_step", json!({"kind": "over"})).await;
    let running = epoch(
        &l.pushed
            .custom(mark, STATE, |p| p["state"] == "running")
            .await,
    );
    let stop = epoch(
        &l.pushed
            .custom(mark, STATE, |p| {
                p["state"] == "stopped" && epoch(p) > running
            })
            .await,
    );
    // The launch's stop may be told again late (a preview read after it);
    // what must not come is a second "running" before the step's stop.
    let runs: Vec<Value> = l
        .pushed
        .customs(STATE)
        .into_iter()
        .filter(|p| p["state"] == "running" && epoch(p) > first && epoch(p) < stop)
        .collect();
    assert_eq!(runs.len(), 1, "{runs:#?}");
    l.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_hits_states_and_resources_reach_the_client() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let l = listen_in(ws.path(), &[]).await;
    let v = l
        .ok(
            "debug_launch",
            json!({"program": "prog.py", "breakpoints": [{"file": "prog.py", "line": LOOP_LINE}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at prog.py:7"), "{v}");

    let hit = l
        .pushed
        .custom(0, "debugger/breakpointHit", |p| p["hitCount"] == 1)
        .await;
    assert_eq!(hit["breakpointId"], 1, "{hit}");
    assert_eq!(hit["type"], "blocking", "{hit}");
    assert_eq!(hit["location"]["file"], "prog.py", "{hit}");
    assert_eq!(hit["location"]["line"], LOOP_LINE, "{hit}");
    assert_eq!(hit["location"]["functionName"], "work", "{hit}");
    assert!(hit["threadId"].as_i64().unwrap() > 0, "{hit}");
    assert!(hit["timestamp"].as_str().unwrap().ends_with('Z'), "{hit}");
    assert!(
        hit["logMessage"].is_null() && hit["exceptionInfo"].is_null(),
        "{hit}"
    );
    let stopped = l
        .pushed
        .custom(0, "debugger/sessionStateChanged", |p| {
            p["state"] == "stopped"
        })
        .await;
    assert_eq!(stopped["location"]["line"], LOOP_LINE, "{stopped}");
    let epochs: Vec<u64> = l
        .pushed
        .customs("debugger/sessionStateChanged")
        .iter()
        .map(|p| p["epoch"].as_u64().unwrap())
        .collect();
    // The server sends them in order, but the MCP client hands each
    // notification to its handler in a task of its own, so they may be
    // recorded out of order: the epoch is how a client orders them, and
    // each state is sent once.
    let mut ordered = epochs.clone();
    ordered.sort_unstable();
    ordered.dedup();
    assert_eq!(ordered.len(), epochs.len(), "{epochs:?}");

    // Resources: listed, read, and updated when subscribed.
    let list = l.client.list_resources(None).await.expect("list");
    let uris: Vec<_> = list.resources.iter().map(|r| r.uri.clone()).collect();
    for u in [
        "debugger://sessions",
        "debugger://session/s1",
        "debugger://session/s1/breakpoints",
    ] {
        assert!(uris.iter().any(|x| x == u), "{u} not in {uris:?}");
    }
    let templates = l
        .client
        .list_resource_templates(None)
        .await
        .expect("templates");
    assert!(
        templates
            .resource_templates
            .iter()
            .any(|t| t.uri_template == "debugger://session/{id}/source/{path}"),
        "{templates:?}"
    );
    let sessions: Value = serde_json::from_str(&read(&l, "debugger://sessions").await).unwrap();
    assert_eq!(sessions[0]["id"], "s1");
    assert_eq!(sessions[0]["state"], "stopped");
    let view = read(&l, "debugger://session/s1").await;
    assert!(view.contains("── STOPPED at prog.py:7"), "{view}");
    let bps: Value =
        serde_json::from_str(&read(&l, "debugger://session/s1/breakpoints").await).unwrap();
    assert_eq!(bps["breakpoints"][0]["file"], "prog.py", "{bps}");
    assert_eq!(bps["breakpoints"][0]["line"], LOOP_LINE, "{bps}");
    let src = read(&l, "debugger://session/s1/source/prog.py").await;
    assert!(src.contains("def work(n):"), "{src}");
    let out = read(&l, "debugger://session/s1/output").await;
    assert!(out.contains("start"), "{out}");
    let trace: Value =
        serde_json::from_str(&read(&l, "debugger://session/s1/trace").await).unwrap();
    assert_eq!(trace["hits"][0]["breakpointId"], 1, "{trace}");
    let bad = l
        .client
        .read_resource(ReadResourceRequestParams::new("debugger://session/s9"))
        .await
        .expect_err("no such session");
    assert!(bad.to_string().contains("s9"), "{bad}");

    for uri in ["debugger://session/s1", "debugger://session/s1/breakpoints"] {
        #[allow(deprecated)]
        l.client
            .subscribe(SubscribeRequestParams::new(uri))
            .await
            .expect("subscribe");
    }

    // The second pass of the loop: a second hit, the viewport updated.
    let mark = l.pushed.mark();
    let v = l.ok("debug_continue", json!({})).await;
    assert!(v.contains("── STOPPED at prog.py:7"), "{v}");
    let hit = l
        .pushed
        .custom(mark, "debugger/breakpointHit", |_| true)
        .await;
    assert_eq!(hit["hitCount"], 2, "{hit}");
    l.pushed
        .wait_for(
            mark,
            30,
            "viewport update",
            |p| matches!(p, Pushed::ResourceUpdated(u) if u == "debugger://session/s1"),
        )
        .await;
    let running = l
        .pushed
        .custom(mark, "debugger/sessionStateChanged", |p| {
            p["state"] == "running"
        })
        .await;
    assert_eq!(running["previousState"], "stopped", "{running}");

    // Already stopped at the hit: breakpoint_wait answers at once.
    let w = l.ok("breakpoint_wait", json!({"breakpoint_id": 1})).await;
    let h = head(&w);
    assert_eq!(h["hit"], true, "{w}");
    assert_eq!(h["breakpoint_id"], 1, "{w}");
    assert_eq!(h["hit_count"], 2, "{w}");
    assert_eq!(h["location"]["line"], LOOP_LINE, "{w}");
    assert!(w.contains("── STOPPED at prog.py:7"), "{w}");
    let e = l
        .fails("breakpoint_wait", json!({"breakpoint_id": 99}))
        .await;
    assert!(e.contains("breakpoint_id") && e.contains("[1]"), "{e}");

    // A removed breakpoint updates the breakpoints resource.
    let mark = l.pushed.mark();
    l.ok("breakpoint_remove", json!({"id": 1})).await;
    l.pushed
        .wait_for(
            mark,
            30,
            "breakpoints update",
            |p| matches!(p, Pushed::ResourceUpdated(u) if u == "debugger://session/s1/breakpoints"),
        )
        .await;

    // A tracepoint on the raise line is a hit that does not pause.
    l.ok(
        "tracepoint_set",
        json!({"file": "prog.py", "line": 14, "log_message": "about to raise {1 + 1}"}),
    )
    .await;
    // The uncaught exception is a hit with its exception's details.
    let mark = l.pushed.mark();
    let v = l.ok("debug_continue", json!({})).await;
    assert!(v.contains("ValueError"), "{v}");
    let traced = l
        .pushed
        .custom(mark, "debugger/breakpointHit", |p| {
            p["type"] == "tracepoint"
        })
        .await;
    assert_eq!(traced["logMessage"], "about to raise 2", "{traced}");
    assert_eq!(traced["location"]["line"], 14, "{traced}");
    assert_eq!(traced["hitCount"], 1, "{traced}");
    let hit = l
        .pushed
        .custom(mark, "debugger/breakpointHit", |p| p["type"] == "exception")
        .await;
    assert!(
        hit["exceptionInfo"]["type"]
            .as_str()
            .unwrap()
            .contains("ValueError"),
        "{hit}"
    );
    assert!(
        hit["exceptionInfo"]["message"]
            .as_str()
            .unwrap()
            .contains("bad record"),
        "{hit}"
    );
    assert_eq!(hit["location"]["functionName"], "main", "{hit}");
    let w = l.ok("breakpoint_wait", json!({})).await;
    assert_eq!(head(&w)["type"], "exception", "{w}");

    let mark = l.pushed.mark();
    let v = l.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED"), "{v}");
    let exited = l
        .pushed
        .custom(mark, "debugger/sessionStateChanged", |p| {
            p["state"] == "exited"
        })
        .await;
    assert!(exited["epoch"].as_u64().unwrap() > 0, "{exited}");
    let w = l.ok("breakpoint_wait", json!({})).await;
    assert_eq!(head(&w)["reason"], "exited", "{w}");
    l.close().await;
}

const SLOW: &str = "\
import time

time.sleep(8)
a = 1
time.sleep(4)
b = 2
";

/// A client without progress tokens, speaking JSON-RPC lines on stdio
/// (an rmcp client always sends one).
struct Plain {
    child: tokio::process::Child,
    stdin: tokio::process::ChildStdin,
    stdout: tokio::io::Lines<tokio::io::BufReader<tokio::process::ChildStdout>>,
    next: u64,
}

impl Plain {
    async fn start(ws: &std::path::Path) -> Plain {
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
            .arg("mcp")
            .current_dir(ws)
            .env("PAIRDBG_LONG_WAIT_MS", "1000")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn pairdbg mcp");
        use tokio::io::AsyncBufReadExt;
        let stdin = child.stdin.take().unwrap();
        let stdout = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
        let mut p = Plain {
            child,
            stdin,
            stdout,
            next: 0,
        };
        p.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "plain", "version": "0"}}),
        )
        .await;
        p.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        p
    }

    async fn send(&mut self, v: Value) {
        use tokio::io::AsyncWriteExt;
        self.stdin
            .write_all(format!("{v}\n").as_bytes())
            .await
            .unwrap();
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        let read = async {
            while let Some(line) = self.stdout.next_line().await.unwrap() {
                let v: Value = serde_json::from_str(&line).unwrap_or_default();
                if v["id"] == id {
                    return v;
                }
            }
            panic!("pairdbg mcp closed stdout");
        };
        tokio::time::timeout(std::time::Duration::from_secs(20), read)
            .await
            .unwrap_or_else(|_| panic!("{method} took longer than the 20 s this client allows"))
    }

    async fn tool(&mut self, name: &str, args: Value) -> String {
        let r = self
            .request("tools/call", json!({"name": name, "arguments": args}))
            .await;
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
}

/// A wait longer than one call may take answers "still running" with the
/// epoch, and debug_wait picks it up; a client that sent a progress token
/// hears progress and gets the stop in the same call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_waits_answer_early_or_report_progress() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("slow.py", SLOW)]);
    let mut p = Plain::start(ws.path()).await;
    let v = p
        .tool(
            "debug_launch",
            json!({"program": "slow.py", "timeout_ms": 60000,
                   "breakpoints": [{"file": "slow.py", "line": 4}, {"file": "slow.py", "line": 6}]}),
        )
        .await;
    assert!(
        v.contains("Still running after 1000 ms of the 60000 ms asked"),
        "{v}"
    );
    assert!(v.contains("debug_wait") && v.contains("epoch"), "{v}");
    let w = p.tool("breakpoint_wait", json!({"timeout_ms": 200})).await;
    assert_eq!(head(&w)["reason"], "timeout", "{w}");
    assert!(w.contains("No breakpoint hit within 200ms"), "{w}");
    let w = p
        .tool("breakpoint_wait", json!({"timeout_ms": 60000}))
        .await;
    assert!(
        ["still_running", "hit"].iter().any(|k| w.contains(k)),
        "{w}"
    );
    let mut v = String::new();
    for _ in 0..30 {
        v = p.tool("debug_wait", json!({"timeout_ms": 60000})).await;
        if v.contains("── STOPPED") {
            break;
        }
        assert!(v.contains("Still running"), "{v}");
    }
    assert!(v.contains("── STOPPED at slow.py:4"), "{v}");
    let _ = p.child.kill().await;

    // An rmcp client sends a progress token with every request.
    let l = listen_in(ws.path(), &[("PAIRDBG_LONG_WAIT_MS", "1000")]).await;
    let v = l
        .ok(
            "debug_launch",
            json!({"program": "slow.py", "timeout_ms": 60000,
                   "breakpoints": [{"file": "slow.py", "line": 6}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at slow.py:6"), "{v}");
    let progress = l
        .pushed
        .all()
        .iter()
        .filter(|p| matches!(p, Pushed::Progress(_)))
        .count();
    assert!(
        progress >= 5,
        "{progress} progress notifications: {:#?}",
        l.pushed.all()
    );
    l.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c_hits_and_signals_reach_the_client() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[]);
    build_c_demo(ws.path());
    let l = listen_in(ws.path(), &[]).await;
    let v = l
        .ok(
            "debug_launch",
            json!({"program": "inventory", "breakpoints": [{"file": "inventory.c", "line": 53}]}),
        )
        .await;
    assert!(v.contains("── STOPPED at inventory.c:53"), "{v}");
    let hit = l.pushed.custom(0, "debugger/breakpointHit", |_| true).await;
    assert_eq!(hit["type"], "blocking", "{hit}");
    assert_eq!(hit["breakpointId"], 1, "{hit}");
    assert_eq!(hit["location"]["file"], "inventory.c", "{hit}");
    assert_eq!(hit["location"]["line"], 53, "{hit}");
    assert_eq!(hit["hitCount"], 1, "{hit}");
    l.pushed
        .custom(0, "debugger/sessionStateChanged", |p| {
            p["state"] == "stopped" && p["location"]["line"] == 53
        })
        .await;
    let w = l.ok("breakpoint_wait", json!({"breakpoint_id": 1})).await;
    assert_eq!(head(&w)["hit"], true, "{w}");
    assert_eq!(head(&w)["location"]["function"], "main", "{w}");
    l.ok("debug_terminate", json!({})).await;

    let mark = l.pushed.mark();
    let v = l
        .ok(
            "debug_launch",
            json!({"program": "inventory", "args": ["crash"]}),
        )
        .await;
    assert!(v.contains("SIGSEGV"), "{v}");
    let hit = l
        .pushed
        .custom(mark, "debugger/breakpointHit", |p| p["type"] == "exception")
        .await;
    assert_eq!(hit["location"]["line"], 51, "{hit}");
    let info = hit["exceptionInfo"].to_string();
    assert!(info.contains("SIGSEGV"), "{hit}");
    l.close().await;
}
