//! Secrets given to the program at launch stay masked where they outlive
//! the call that showed them: the journal on disk and its hand-off card,
//! the DAP trace log, trace records and pushed notifications. Each session
//! masks its own secrets only. A real MCP client on debugpy.

mod common;

use common::*;
use serde_json::json;

/// The secret, read under a secret's name (`pw`) and an innocent one (`k`),
/// and a value that is no secret. None of them has a credential's shape:
/// only the launch says they are secret.
const PROG: &str = "\
import os
import sys

pw = os.environ['API_KEY']
k = pw
flag_value = sys.argv[2]
label = 'plain-' + 'visible-value'
print('ready', len(k))
";

const SECRET: &str = "opensesame-778899";
const FLAG_SECRET: &str = "tk-99887766";
const HARMLESS: &str = "plain-visible-value";

fn launch_args() -> serde_json::Value {
    json!({
        "program": "app.py",
        "args": ["--token", FLAG_SECRET],
        "env": {"API_KEY": SECRET, "MODE": "test"},
        "breakpoints": [{"file": "app.py", "line": 8}]
    })
}

fn assert_no_secret(what: &str, text: &str) {
    for s in [SECRET, FLAG_SECRET] {
        assert!(!text.contains(s), "{what} shows {s}:\n{text}");
    }
}

/// Every file and folder under `dir`, and whether it is the user's alone
/// (a file 0600, a folder 0700).
fn private_or_not(dir: &std::path::Path) -> Vec<(String, bool)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = vec![];
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let mode = std::fs::metadata(&d)
            .expect("a folder")
            .permissions()
            .mode()
            & 0o777;
        out.push((format!("{}/", d.display()), mode == 0o700));
        for e in std::fs::read_dir(&d).expect("read the folder").flatten() {
            let path = e.path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let mode = e.metadata().expect("a file").permissions().mode() & 0o777;
                out.push((path.display().to_string(), mode == 0o600));
            }
        }
    }
    out
}

/// Every byte of every journal part under `state`.
fn journal_bytes(state: &std::path::Path) -> String {
    let dir = state.join("pairdbg/journals");
    let mut all = String::new();
    for f in std::fs::read_dir(&dir).expect("journals").flatten() {
        all.push_str(&String::from_utf8_lossy(
            &std::fs::read(f.path()).expect("journal"),
        ));
    }
    all
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_journal_on_disk_and_its_card_keep_secrets_masked() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("app.py", PROG)]);
    let state = tempfile::tempdir().expect("state dir");
    let mcp = mcp_with_env(ws.path(), &[], &[("XDG_STATE_HOME", state.path())]).await;
    let v = mcp.ok("debug_launch", launch_args()).await;
    assert_eq!(stopped_line(&v), Some(8), "{v}");
    mcp.ok("debug_note", json!({"text": format!("k is {SECRET}")}))
        .await;
    // The note is masked for an agent that reads the action log later.
    let log = mcp.ok("debug_action_log", json!({})).await;
    assert_no_secret("the action log", &log);
    assert!(log.contains("k is <redacted: 17 chars>"), "{log}");
    let card = mcp.ok("debug_journal", json!({})).await;
    assert_no_secret("the card", &card);
    assert!(card.contains(HARMLESS), "{card}");
    assert!(card.contains("<redacted: 17 chars>"), "{card}");

    let on_disk = journal_bytes(state.path());
    assert_no_secret("the journal file", &on_disk);
    assert!(on_disk.contains(HARMLESS), "{on_disk}");
    assert!(on_disk.contains(r#""kind":"stop""#), "{on_disk}");
    mcp.close().await;
    // What pairdbg keeps in its state directory (journals, the log) is
    // the user's alone, whatever the umask.
    let kept = private_or_not(&state.path().join("pairdbg"));
    assert!(
        kept.iter().any(|(p, _)| p.contains("journals/")),
        "{kept:?}"
    );
    let open: Vec<_> = kept.iter().filter(|(_, private)| !private).collect();
    assert!(open.is_empty(), "readable by others: {open:?}");

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(["journal", "export"])
        .current_dir(ws.path())
        .env("XDG_STATE_HOME", state.path())
        .output()
        .expect("pairdbg journal export");
    let exported = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    assert_no_secret("the exported card", &exported);
    assert!(exported.contains(HARMLESS), "{exported}");
}

/// The DAP messages alone (`dap=trace`), and everything (`trace`): the MCP
/// library's own log of requests is left out unless named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dap_trace_log_holds_no_secrets() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("app.py", PROG)]);
    for level in ["dap=trace", "trace"] {
        let logs = tempfile::tempdir().expect("log dir");
        let log = logs.path().join("pairdbg.log");
        let mcp = mcp_with_env(
            ws.path(),
            &[],
            &[
                ("PAIRDBG_LOG", log.as_path()),
                ("PAIRDBG_LOG_LEVEL", level.as_ref()),
            ],
        )
        .await;
        let v = mcp.ok("debug_launch", launch_args()).await;
        assert_eq!(stopped_line(&v), Some(8), "{v}");
        let vars = mcp.ok("debug_variables", json!({})).await;
        assert!(vars.contains(HARMLESS), "{vars}");
        mcp.close().await;
        let text = String::from_utf8_lossy(&std::fs::read(&log).expect("the log")).to_string();
        for request in [
            r#""command":"launch""#,
            r#""command":"variables""#,
            r#""command":"stackTrace""#,
        ] {
            assert!(
                text.contains(request),
                "{level}: no {request} in the log:\n{text}"
            );
        }
        assert_no_secret(level, &text);
        // The program's values are traced: only the secrets are masked.
        assert!(text.contains(HARMLESS), "{level}: {text}");
        assert!(text.contains("<redacted: 17 chars>"), "{level}: {text}");
    }
}

/// A tracepoint's record and its pushed hit, and the pushed state change
/// of a value set under a secret's name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trace_records_and_notifications_are_masked() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("app.py", PROG)]);
    let l = common::listener::listen_in(ws.path(), &[]).await;
    let mut args = launch_args();
    args["breakpoints"] = json!([{"file": "app.py", "line": 7}]);
    l.ok("debug_launch", args).await;
    l.ok(
        "tracepoint_set",
        json!({"file": "app.py", "line": 8, "log_message": "got {k} and {label}"}),
    )
    .await;
    let mark = l.pushed.mark();
    l.ok(
        "debug_set_variable",
        json!({"name": "pw", "value": "'hunter2-new-one'"}),
    )
    .await;
    let changed = l
        .pushed
        .custom(mark, "debugger/sessionStateChanged", |p| {
            p["change"].as_str().is_some_and(|c| c.contains("set pw"))
        })
        .await;
    let change = changed["change"].as_str().unwrap_or_default();
    assert!(!change.contains("hunter2-new-one"), "{changed}");
    assert!(change.contains("<redacted: 15 chars>"), "{changed}");

    let mark = l.pushed.mark();
    l.ok("debug_continue", json!({})).await;
    let hit = l
        .pushed
        .custom(mark, "debugger/breakpointHit", |p| {
            p["type"] == "tracepoint"
        })
        .await;
    let msg = hit["logMessage"].as_str().unwrap_or_default();
    assert_eq!(
        msg, "got <redacted: 17 chars> and plain-visible-value",
        "{hit}"
    );
    let trace = l.ok("debug_output", json!({"stream": "trace"})).await;
    assert_no_secret("the trace records", &trace);
    assert!(
        trace.contains("got <redacted: 17 chars> and plain-visible-value"),
        "{trace}"
    );
    l.close().await;
}

/// The same text, a secret in one session and a plain value in another
/// started after it by the same server.
const OTHER: &str = "\
k = 'opensesame' + '-778899'
print(k)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sessions_secrets_do_not_mask_another_sessions_values() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("app.py", PROG), ("other.py", OTHER)]);
    let mcp = mcp_in(ws.path()).await;
    let a = mcp.ok("debug_launch", launch_args()).await;
    assert!(a.contains("[session s1 "), "{a}");
    assert_no_secret("the first session", &a);
    let b = mcp
        .ok(
            "debug_launch",
            json!({"program": "other.py", "breakpoints": [{"file": "other.py", "line": 2}]}),
        )
        .await;
    assert!(b.contains("[session s2 "), "{b}");
    assert!(squash(&b).contains(&format!("k = \"{SECRET}\"")), "{b}");
    let e = mcp.ok("debug_evaluate", json!({"expression": "k"})).await;
    assert!(e.contains(SECRET), "{e}");
    // The first session still masks it.
    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "k", "session_id": "s1"}),
        )
        .await;
    assert_no_secret("the first session's evaluate", &e);
    mcp.close().await;
}
