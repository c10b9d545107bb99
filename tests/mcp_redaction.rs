//! Secrets stay out of the agent's results: by their names and by their
//! shapes, in the viewport, variables, evaluate and trace records, with a
//! real MCP client on debugpy and on lldb-dap; `--no-redact` shows them.

mod common;

use common::native::*;
use common::*;
use serde_json::json;

// Secrets are built at run time so that the source lines in the viewport
// do not hold them whole.
const PROG: &str = "\
def connect(user, password):
    api_key = 'k-' + '1234567890'
    settings = {'host': 'db.local', 'token': 'tok-' + 'abcdef'}
    note = 'AKIA' + 'IOSFODNN7EXAMPLE'
    count = len(user)
    return count


connect('bob', 'hun' + 'ter2')
connect('bob', 'hun' + 'ter2')
";

const SECRETS: &[&str] = &[
    "hunter2",
    "k-1234567890",
    "tok-abcdef",
    "AKIAIOSFODNN7EXAMPLE",
];

fn assert_hidden(what: &str, text: &str) -> String {
    for s in SECRETS {
        assert!(!text.contains(s), "{what} shows {s}: {text}");
    }
    squash(text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_are_masked_for_the_agent_by_default() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("app.py", PROG)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "app.py", "breakpoints": [{"file": "app.py", "line": 6}]}),
        )
        .await;
    let v = assert_hidden("the viewport", &v);
    assert!(v.contains("password = <redacted: 7 chars>"), "{v}");
    assert!(v.contains("api_key = <redacted: 12 chars>"), "{v}");
    assert!(v.contains("<redacted: 20 chars>"), "{v}");
    // What is not a secret is left as it was.
    assert!(v.contains("user = \"bob\""), "{v}");
    assert!(v.contains("db.local"), "{v}");

    let vars = mcp.ok("debug_variables", json!({})).await;
    let vars = assert_hidden("debug_variables", &vars);
    assert!(vars.contains("password = <redacted: 7 chars>"), "{vars}");
    let inside = mcp
        .ok("debug_variables", json!({"expand": "settings"}))
        .await;
    assert_hidden("the expanded dict", &inside);
    assert!(inside.contains("<redacted: 10 chars>"), "{inside}");

    for e in ["password", "settings['token']", "note", "api_key"] {
        let r = mcp.ok("debug_evaluate", json!({"expression": e})).await;
        assert_hidden(e, &r);
        assert!(r.contains("<redacted:"), "{e}: {r}");
    }

    // A tracepoint's message hides the placeholder named like a secret.
    mcp.ok(
        "tracepoint_set",
        json!({"file": "app.py", "line": 5, "log_message": "login {user} {password}"}),
    )
    .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert_hidden("the second stop", &v);
    let trace = mcp.ok("debug_output", json!({"stream": "trace"})).await;
    assert!(trace.contains("login bob <redacted: 7 chars>"), "{trace}");
    assert_hidden("the trace", &trace);
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_redact_shows_the_values() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("app.py", PROG)]);
    let mcp = mcp_with(ws.path(), &["--no-redact"]).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "app.py", "breakpoints": [{"file": "app.py", "line": 6}]}),
        )
        .await;
    assert!(squash(&v).contains("password = \"hunter2\""), "{v}");
    assert!(v.contains("AKIAIOSFODNN7EXAMPLE"), "{v}");
    let r = mcp
        .ok("debug_evaluate", json!({"expression": "settings['token']"}))
        .await;
    assert!(r.contains("tok-abcdef"), "{r}");
    mcp.close().await;
}

const C_PROG: &str = r#"#include <stdio.h>
#include <string.h>

int main(void) {
    char user[] = "bob";
    char password[16];
    strcpy(password, "hun");
    strcat(password, "ter2");
    int n = (int)strlen(password) + (int)strlen(user);
    printf("%d\n", n);
    return 0;
}
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn native_secrets_are_masked_too() {
    if !lldb_available() {
        return;
    }
    let ws = workspace(&[("login.c", C_PROG)]);
    build_c(&ws.path().join("login.c"), &ws.path().join("login"));
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "login", "breakpoints": [{"file": "login.c", "line": 10}]}),
        )
        .await;
    assert!(!v.contains("hunter2"), "{v}");
    assert!(squash(&v).contains("password = <redacted: 7 chars>"), "{v}");
    assert!(v.contains("bob"), "{v}");
    let r = mcp
        .ok("debug_evaluate", json!({"expression": "password"}))
        .await;
    assert!(!r.contains("hunter2") && r.contains("<redacted:"), "{r}");
    mcp.close().await;
}

/// What the server pushes is masked as what it answers is: a tracepoint's
/// message in `debugger/breakpointHit`, and the viewport resource.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pushed_hits_and_resources_are_masked_too() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("app.py", PROG)]);
    let l = common::listener::listen_in(ws.path(), &[]).await;
    l.ok(
        "debug_launch",
        json!({"program": "app.py", "breakpoints": [{"file": "app.py", "line": 6}]}),
    )
    .await;
    l.ok(
        "tracepoint_set",
        json!({"file": "app.py", "line": 5, "log_message": "login {user} {password}"}),
    )
    .await;
    let mark = l.pushed.mark();
    l.ok("debug_continue", json!({})).await;
    let hit = l
        .pushed
        .custom(mark, "debugger/breakpointHit", |p| {
            p["type"] == "tracepoint"
        })
        .await;
    let msg = hit["logMessage"].as_str().unwrap_or_default().to_string();
    assert_hidden("the pushed hit", &msg);
    assert_eq!(msg, "login bob <redacted: 7 chars>", "{hit}");
    let r = l
        .client
        .read_resource(rmcp::model::ReadResourceRequestParams::new(
            "debugger://session/s1",
        ))
        .await
        .expect("the viewport resource");
    let text = format!("{:?}", r.contents);
    assert_hidden("the viewport resource", &text);
    assert!(text.contains("<redacted: 7 chars>"), "{text}");
    l.close().await;
}

const GIVEN_PROG: &str = "\
import os
import sys

k = os.environ['API_KEY']
flag_value = sys.argv[2]
pw = 'opensesame1'
d = {'pass': 'abc12345'}
x = 'Zx9qT2mLp8VwR4nK7bYc3HdJ'
print('ready')
";

/// Secrets by value and by where they came from: an env value under a
/// secret's name and an argument after `--token`, read back under innocent
/// names; short secret names (`pw`, `pass`); a random-looking key. The
/// action log does not echo the launch's environment either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_given_to_the_program_stay_masked_under_any_name() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("given.py", GIVEN_PROG)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({
                "program": "given.py",
                "args": ["--token", "tk-99887766"],
                "env": {"API_KEY": "sk-live-0123456789abcdefXYZ", "MODE": "test"},
                "breakpoints": [{"file": "given.py", "line": 9}]
            }),
        )
        .await;
    assert_eq!(stopped_line(&v), Some(9), "{v}");
    let shown = format!(
        "{v}\n{}\n{}",
        mcp.ok("debug_variables", json!({})).await,
        mcp.ok("debug_action_log", json!({})).await
    );
    for secret in [
        "sk-live-0123456789abcdefXYZ",
        "tk-99887766",
        "opensesame1",
        "abc12345",
        "Zx9qT2mLp8VwR4nK7bYc3HdJ",
    ] {
        assert!(!shown.contains(secret), "{secret} shown:\n{shown}");
    }
    assert!(shown.contains("MODE="), "{shown}");
    assert!(shown.contains("<redacted"), "{shown}");
    mcp.close().await;
}

const RAISES: &str = "\
import os


def charge(card):
    pwd = 'hunter22x'
    token = os.environ['API_KEY']
    raise ValueError('declined for ' + token)


charge('4111')
";

/// An exception's context (its message, the raise site's locals, the
/// frames' arguments) is masked as the viewport is: a value given under a
/// secret's name, and a local named `pwd`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_exception_context_is_masked_too() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("raises.py", RAISES)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "raises.py", "env": {"API_KEY": "sk-live-0123456789abcdefXYZ"}}),
        )
        .await;
    assert!(v.contains("ValueError"), "{v}");
    let ctx = mcp.ok("exception_get_context", json!({})).await;
    let shown = format!("{v}\n{ctx}");
    assert!(ctx.contains("ValueError"), "{ctx}");
    assert!(ctx.contains("pwd"), "{ctx}");
    for secret in ["sk-live-0123456789abcdefXYZ", "hunter22x"] {
        assert!(!shown.contains(secret), "{secret} shown:\n{shown}");
    }
    assert!(ctx.contains("<redacted"), "{ctx}");
    mcp.close().await;
}
