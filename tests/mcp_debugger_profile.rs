//! `pairdbg mcp --profile mcp-debugger`: a client written from
//! mcp-debugger's tool reference, using its example arguments tool by tool
//! and checking the result fields it documents, on real adapters.

mod common;

use std::path::Path;
use std::time::Duration;

use serde_json::json;

use common::profile::{profile_in, top_frame, var};

/// The reference's own example program, laid out so its lines are known.
const SWAP: &str = r#"def swap_variables(a, b):
    """This function is supposed to swap two variables."""
    a = b  # Bug: loses original value of 'a'
    b = a  # Bug: 'b' gets the new value of 'a', not the original
    return a, b


def main():
    x = 10
    y = 20
    x, y = swap_variables(x, y)
    items = [x, y, 3]
    return items


main()
"#;

/// A program that runs until paused.
const SPIN: &str = "import time\n\npassword = 'hunter2hunter2'\nn = 0\nwhile True:\n    n += 1\n    time.sleep(0.01)\n";

fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.char_indices()
            .all(|(i, c)| [8, 13, 18, 23].contains(&i) == (c == '-'))
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_of_the_reference_debugs_python_tool_by_tool() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("swap_vars.py", SWAP)]);
    let c = profile_in(ws.path(), &[]).await;

    let langs = c.ok("list_supported_languages", json!({})).await;
    let python = langs["languages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "python")
        .unwrap_or_else(|| panic!("python is not listed: {langs}"));
    assert_eq!(python["installed"], json!(true), "{langs}");

    let created = c
        .ok(
            "create_debug_session",
            json!({"language": "python", "name": "My Debug Session"}),
        )
        .await;
    let id = created["sessionId"].as_str().unwrap().to_string();
    assert!(is_uuid(&id), "{created}");
    assert_eq!(
        created["message"],
        json!("Created python debug session: My Debug Session")
    );

    let listed = c.ok("list_debug_sessions", json!({})).await;
    assert_eq!(listed["count"], json!(1), "{listed}");
    let s = &listed["sessions"][0];
    assert_eq!(
        (&s["id"], &s["name"], &s["language"], &s["state"]),
        (
            &json!(id),
            &json!("My Debug Session"),
            &json!("python"),
            &json!("created")
        ),
        "{listed}"
    );
    assert!(s["createdAt"].as_str().unwrap().ends_with('Z'), "{listed}");

    // A breakpoint before the program starts is kept for the launch.
    let bp = c
        .ok(
            "set_breakpoint",
            json!({"sessionId": id, "file": "swap_vars.py", "line": 11}),
        )
        .await;
    assert!(is_uuid(bp["breakpointId"].as_str().unwrap()), "{bp}");
    assert_eq!(bp["line"], json!(11));
    assert_eq!(bp["verified"], json!(false));
    let file = bp["file"].as_str().unwrap();
    assert!(
        Path::new(file).is_absolute() && file.ends_with("swap_vars.py"),
        "{bp}"
    );
    assert!(
        bp["context"]["lineContent"]
            .as_str()
            .unwrap()
            .contains("swap_variables(x, y)"),
        "{bp}"
    );
    let around: Vec<i64> = bp["context"]["surrounding"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["line"].as_i64().unwrap())
        .collect();
    assert_eq!(around, vec![9, 10, 11, 12, 13], "{bp}");
    let missing = c
        .fails(
            "set_breakpoint",
            json!({"sessionId": id, "file": "nope.py", "line": 1}),
        )
        .await;
    assert!(
        missing["error"].as_str().unwrap().contains("nope.py"),
        "{missing}"
    );

    let src = c
        .ok(
            "get_source_context",
            json!({"sessionId": id, "file": "swap_vars.py", "line": 3, "linesContext": 3}),
        )
        .await;
    assert_eq!(src["contextLines"], json!(3));
    assert!(
        src["lineContent"].as_str().unwrap().contains("a = b"),
        "{src}"
    );
    // The file's edge bounds the lines before.
    assert_eq!(src["surrounding"][0]["line"], json!(1), "{src}");
    assert_eq!(src["surrounding"].as_array().unwrap().len(), 6, "{src}");

    // Nothing to read before the program starts.
    let early = c
        .fails("get_local_variables", json!({"sessionId": id}))
        .await;
    assert!(early["error"].as_str().is_some(), "{early}");

    let started = c
        .ok(
            "start_debugging",
            json!({
                "sessionId": id,
                "scriptPath": "swap_vars.py",
                "args": [],
                "dapLaunchArgs": {"stopOnEntry": false, "justMyCode": true}
            }),
        )
        .await;
    assert_eq!(started["state"], json!("paused"), "{started}");
    assert_eq!(started["data"]["reason"], json!("breakpoint"), "{started}");
    assert_eq!(
        started["message"],
        json!("Debugging started for swap_vars.py. Current state: paused")
    );
    let listed = c.ok("list_debug_sessions", json!({})).await;
    assert_eq!(listed["sessions"][0]["state"], json!("paused"), "{listed}");

    let stepped = c.ok("step_into", json!({"sessionId": id})).await;
    assert_eq!(
        (&stepped["state"], &stepped["message"]),
        (&json!("paused"), &json!("Stepped into"))
    );
    let stack = c.ok("get_stack_trace", json!({"sessionId": id})).await;
    let top = top_frame(&stack);
    assert_eq!(
        (&top["name"], &top["line"]),
        (&json!("swap_variables"), &json!(3)),
        "{stack}"
    );
    assert!(
        top["file"].as_str().unwrap().ends_with("swap_vars.py"),
        "{stack}"
    );
    assert_eq!(stack["stackFrames"][1]["name"], json!("main"), "{stack}");
    assert_eq!(
        stack["count"].as_u64().unwrap() as usize,
        stack["stackFrames"].as_array().unwrap().len()
    );

    let scopes = c
        .ok("get_scopes", json!({"sessionId": id, "frameId": top["id"]}))
        .await;
    let locals = &scopes["scopes"][0];
    assert_eq!(locals["name"], json!("Locals"), "{scopes}");
    assert_eq!(locals["expensive"], json!(false), "{scopes}");
    let reference = locals["variablesReference"].as_i64().unwrap();
    assert!(reference > 0, "{scopes}");
    assert_ne!(reference, top["id"].as_i64().unwrap());
    let vars = c
        .ok(
            "get_variables",
            json!({"sessionId": id, "scope": reference}),
        )
        .await;
    assert_eq!(vars["variablesReference"], json!(reference));
    for (name, value) in [("a", "10"), ("b", "20")] {
        let v = var(&vars, name);
        assert_eq!(
            (
                &v["value"],
                &v["type"],
                &v["variablesReference"],
                &v["expandable"]
            ),
            (&json!(value), &json!("int"), &json!(0), &json!(false)),
            "{vars}"
        );
    }
    // The caller's frame, by its id.
    let main_scopes = c
        .ok(
            "get_scopes",
            json!({"sessionId": id, "frameId": stack["stackFrames"][1]["id"]}),
        )
        .await;
    let main_vars = c
        .ok(
            "get_variables",
            json!({"sessionId": id, "scope": main_scopes["scopes"][0]["variablesReference"]}),
        )
        .await;
    assert_eq!(var(&main_vars, "x")["value"], json!("10"), "{main_vars}");
    let stale = c
        .fails("get_variables", json!({"sessionId": id, "scope": 987654}))
        .await;
    assert!(
        stale["error"].as_str().unwrap().contains("Invalid scope"),
        "{stale}"
    );

    for (expression, result, kind) in [("a", "10", "int"), ("a + b", "30", "int")] {
        let e = c
            .ok(
                "evaluate_expression",
                json!({"sessionId": id, "expression": expression}),
            )
            .await;
        assert_eq!(
            (&e["result"], &e["type"], &e["variablesReference"]),
            (&json!(result), &json!(kind), &json!(0)),
            "{e}"
        );
    }
    let list = c
        .ok(
            "evaluate_expression",
            json!({"sessionId": id, "expression": "[i*2 for i in range(5)]"}),
        )
        .await;
    assert_eq!(
        (&list["result"], &list["type"]),
        (&json!("[0, 2, 4, 6, 8]"), &json!("list")),
        "{list}"
    );
    let elements = c
        .ok(
            "get_variables",
            json!({"sessionId": id, "scope": list["variablesReference"]}),
        )
        .await;
    assert_eq!(var(&elements, "4")["value"], json!("8"), "{elements}");
    let undefined = c
        .fails(
            "evaluate_expression",
            json!({"sessionId": id, "expression": "undefined_variable"}),
        )
        .await;
    assert!(
        undefined["error"]
            .as_str()
            .unwrap()
            .contains("undefined_variable"),
        "{undefined}"
    );

    let over = c.ok("step_over", json!({"sessionId": id})).await;
    assert_eq!(
        (&over["state"], &over["message"]),
        (&json!("paused"), &json!("Stepped over"))
    );
    let locals = c
        .ok(
            "get_local_variables",
            json!({"sessionId": id, "includeSpecial": false}),
        )
        .await;
    assert_eq!(var(&locals, "a")["value"], json!("20"), "{locals}");
    assert_eq!(locals["scopeName"], json!("Locals"));
    assert_eq!(
        (&locals["frame"]["name"], &locals["frame"]["line"]),
        (&json!("swap_variables"), &json!(4)),
        "{locals}"
    );
    assert_eq!(
        locals["count"].as_u64().unwrap() as usize,
        locals["variables"].as_array().unwrap().len()
    );

    let out = c.ok("step_out", json!({"sessionId": id})).await;
    assert_eq!(
        (&out["state"], &out["message"]),
        (&json!("paused"), &json!("Stepped out"))
    );
    let stack = c.ok("get_stack_trace", json!({"sessionId": id})).await;
    assert_eq!(top_frame(&stack)["name"], json!("main"), "{stack}");

    // Once running, a breakpoint is set in the program at once.
    let bp = c
        .ok(
            "set_breakpoint",
            json!({"sessionId": id, "file": "swap_vars.py", "line": 13}),
        )
        .await;
    assert_eq!(bp["verified"], json!(true), "{bp}");
    let cont = c.ok("continue_execution", json!({"sessionId": id})).await;
    assert_eq!(
        (&cont["state"], &cont["message"]),
        (&json!("paused"), &json!("Continued execution")),
        "{cont}"
    );
    let locals = c.ok("get_local_variables", json!({"sessionId": id})).await;
    assert_eq!(locals["frame"]["line"], json!(13), "{locals}");
    let items = var(&locals, "items");
    assert_eq!(items["expandable"], json!(true), "{locals}");
    let children = c
        .ok(
            "get_variables",
            json!({"sessionId": id, "scope": items["variablesReference"]}),
        )
        .await;
    assert_eq!(var(&children, "0")["value"], json!("20"), "{children}");
    assert_eq!(var(&children, "2")["value"], json!("3"), "{children}");

    let paused = c.ok("pause_execution", json!({"sessionId": id})).await;
    assert_eq!(paused["message"], json!("Already paused"), "{paused}");
    let threads = c.ok("list_threads", json!({"sessionId": id})).await;
    assert!(threads["count"].as_u64().unwrap() >= 1, "{threads}");

    let ended = c.ok("continue_execution", json!({"sessionId": id})).await;
    assert_eq!(ended["state"], json!("stopped"), "{ended}");
    let closed = c.ok("close_debug_session", json!({"sessionId": id})).await;
    assert_eq!(
        closed["message"],
        json!(format!("Closed debug session: {id}"))
    );
    let listed = c.ok("list_debug_sessions", json!({})).await;
    assert_eq!(listed["count"], json!(0), "{listed}");
    c.fails("close_debug_session", json!({"sessionId": id}))
        .await;
    let gone = c.fails("step_over", json!({"sessionId": id})).await;
    assert!(
        gone["error"].as_str().unwrap().contains("not found"),
        "{gone}"
    );
    c.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn pause_stops_a_running_program_and_bad_input_names_its_field() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("spin.py", SPIN)]);
    let c = profile_in(ws.path(), &[]).await;

    let bad = c
        .fails("create_debug_session", json!({"language": "cobol"}))
        .await;
    assert!(bad["error"].as_str().unwrap().contains("cobol"), "{bad}");
    let created = c
        .ok("create_debug_session", json!({"language": "python"}))
        .await;
    let id = created["sessionId"].as_str().unwrap().to_string();
    // The default name is the reference's.
    let listed = c.ok("list_debug_sessions", json!({})).await;
    assert_eq!(
        listed["sessions"][0]["name"],
        json!(format!("session-{}", &id[..8])),
        "{listed}"
    );
    let typo = c
        .fails(
            "start_debugging",
            json!({"sessionId": id, "scriptPth": "spin.py"}),
        )
        .await;
    assert!(
        typo["error"].as_str().unwrap().contains("scriptPth"),
        "{typo}"
    );

    let missing = c.fails("start_debugging", json!({"sessionId": id})).await;
    assert!(
        missing["error"].as_str().unwrap().contains("scriptPath"),
        "{missing}"
    );
    // A start with no stop answers once its short wait is over.
    let started = c
        .ok(
            "start_debugging",
            json!({"sessionId": id, "scriptPath": "spin.py"}),
        )
        .await;
    assert_eq!(started["state"], json!("running"), "{started}");
    let early = c.fails("get_stack_trace", json!({"sessionId": id})).await;
    assert_eq!(early["error"], json!("Session is not paused"), "{early}");

    // mcp-debugger's threadId 0 pauses every thread, as pairdbg's pause does.
    let paused = c
        .ok("pause_execution", json!({"sessionId": id, "threadId": 0}))
        .await;
    assert_eq!(paused["state"], json!("paused"), "{paused}");
    assert_eq!(paused["data"]["message"], json!("Execution paused"));
    let stack = c.ok("get_stack_trace", json!({"sessionId": id})).await;
    assert_eq!(top_frame(&stack)["name"], json!("<module>"), "{stack}");
    let n = c
        .ok(
            "evaluate_expression",
            json!({"sessionId": id, "expression": "n > 0"}),
        )
        .await;
    assert_eq!(n["result"], json!("True"), "{n}");
    // Secrets are masked as the default tools mask them.
    let locals = c.ok("get_local_variables", json!({"sessionId": id})).await;
    let password = var(&locals, "password")["value"].as_str().unwrap();
    assert!(!password.contains("hunter2"), "{locals}");

    c.ok("close_debug_session", json!({"sessionId": id})).await;
    let left = common::wait_gone("spin.py", Duration::from_secs(10)).await;
    assert!(
        left.is_empty(),
        "the program outlived its session: {left:?}"
    );
    c.close().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_of_the_reference_debugs_c_on_lldb() {
    if !common::native::lldb_available() {
        return;
    }
    let ws = common::workspace(&[("sum.c", SUM_C)]);
    common::native::build_c(&ws.path().join("sum.c"), &ws.path().join("sum"));
    let c = profile_in(ws.path(), &[]).await;
    let id = c.ok("create_debug_session", json!({"language": "c"})).await["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    c.ok(
        "set_breakpoint",
        json!({"sessionId": id, "file": "sum.c", "line": 5}),
    )
    .await;
    let started = c
        .ok(
            "start_debugging",
            json!({"sessionId": id, "scriptPath": "sum"}),
        )
        .await;
    assert_eq!(started["state"], json!("paused"), "{started}");
    let locals = c.ok("get_local_variables", json!({"sessionId": id})).await;
    assert_eq!(locals["frame"]["name"], json!("main"), "{locals}");
    assert_eq!(var(&locals, "total")["value"], json!("0"), "{locals}");
    assert_eq!(var(&locals, "total")["type"], json!("int"), "{locals}");
    let over = c.ok("step_over", json!({"sessionId": id})).await;
    assert_eq!(over["state"], json!("paused"), "{over}");
    let stack = c.ok("get_stack_trace", json!({"sessionId": id})).await;
    assert_eq!(top_frame(&stack)["line"], json!(6), "{stack}");
    let scopes = c
        .ok(
            "get_scopes",
            json!({"sessionId": id, "frameId": top_frame(&stack)["id"]}),
        )
        .await;
    let vars = c
        .ok(
            "get_variables",
            json!({"sessionId": id, "scope": scopes["scopes"][0]["variablesReference"]}),
        )
        .await;
    assert_eq!(var(&vars, "total")["value"], json!("7"), "{vars}");
    let into = c.ok("step_into", json!({"sessionId": id})).await;
    assert_eq!(into["state"], json!("paused"), "{into}");
    let stack = c.ok("get_stack_trace", json!({"sessionId": id})).await;
    assert_eq!(top_frame(&stack)["name"], json!("twice"), "{stack}");
    c.ok("close_debug_session", json!({"sessionId": id})).await;
    c.close().await;
}

/// A C program: `total` is 0 at line 5 and 7 after it.
const SUM_C: &str = r#"static int twice(int n) { return n * 2; }

int main(void) {
    int total = 0;
    total += 7;
    total = twice(total);
    return total == 14 ? 0 : 1;
}
"#;

#[tokio::test(flavor = "multi_thread")]
async fn a_session_made_through_the_profile_runs_in_the_host_beside_the_default_tools() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("swap_vars.py", SWAP)]);
    let runtime = tempfile::tempdir().unwrap();
    let runtime_dir = runtime.path().to_str().unwrap().to_string();
    let mut host = tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(["serve"])
        .current_dir(ws.path())
        .env("XDG_RUNTIME_DIR", &runtime_dir)
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn pairdbg serve");
    use tokio::io::AsyncBufReadExt;
    let mut lines = tokio::io::BufReader::new(host.stderr.take().unwrap()).lines();
    let first = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
        .await
        .expect("pairdbg serve said nothing within 20 s")
        .unwrap()
        .unwrap_or_default();
    assert!(first.contains("serving"), "{first}");

    let env = [("XDG_RUNTIME_DIR", runtime_dir.as_str())];
    let c = profile_in(ws.path(), &env).await;
    let id = c
        .ok("create_debug_session", json!({"language": "python"}))
        .await["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    c.ok(
        "set_breakpoint",
        json!({"sessionId": id, "file": "swap_vars.py", "line": 3}),
    )
    .await;
    let started = c
        .ok(
            "start_debugging",
            json!({"sessionId": id, "scriptPath": "swap_vars.py"}),
        )
        .await;
    assert_eq!(started["state"], json!("paused"), "{started}");

    // The default tools of the same host see the session, stopped where the
    // profile's client left it, and may move it.
    let agent = common::listener::listen_in(ws.path(), &env).await;
    let sessions = agent.ok("debug_sessions", json!({})).await;
    assert!(
        sessions.contains("swap_vars.py") && sessions.contains("stopped"),
        "{sessions}"
    );
    let viewport = agent.ok("debug_step", json!({"kind": "over"})).await;
    assert_eq!(common::stopped_line(&viewport), Some(4), "{viewport}");
    let locals = c.ok("get_local_variables", json!({"sessionId": id})).await;
    assert_eq!(locals["frame"]["line"], json!(4), "{locals}");
    assert_eq!(var(&locals, "a")["value"], json!("20"), "{locals}");

    // The person sees each call, named by the profile, in the activity log.
    let log = agent.ok("debug_action_log", json!({})).await;
    assert!(log.contains("mcp-debugger get_local_variables"), "{log}");

    // A second client of the profile lists it too.
    let other = profile_in(ws.path(), &env).await;
    let listed = other.ok("list_debug_sessions", json!({})).await;
    assert!(
        listed["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == json!(id) && s["state"] == "paused"),
        "{listed}"
    );
    other.close().await;

    c.ok("close_debug_session", json!({"sessionId": id})).await;
    let sessions = agent.ok("debug_sessions", json!({})).await;
    assert!(!sessions.contains("swap_vars.py"), "{sessions}");
    agent.close().await;
    c.close().await;
    // SIGTERM: the host ends its sessions and exits.
    if let Some(pid) = host.id() {
        unsafe { libc::kill(pid as i32, libc::SIGTERM) };
    }
    let status = tokio::time::timeout(Duration::from_secs(20), host.wait())
        .await
        .expect("pairdbg serve did not stop on SIGTERM")
        .unwrap();
    assert!(status.success(), "{status}");
}

/// The status of an `initialize` POSTed to `path` with `headers`.
fn post(addr: std::net::SocketAddr, path: &str, headers: &[(&str, &str)]) -> u16 {
    use std::io::{Read, Write};
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let mut req = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        addr.port(),
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.write_all(req.as_bytes()).expect("write");
    let mut resp = String::new();
    let _ = s.read_to_string(&mut resp);
    resp.split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_profile_beside_mcp_is_guarded_as_mcp_is() {
    let dir = tempfile::tempdir().unwrap();
    let ws = pairdbg::session::validate::Workspace::new(dir.path(), false);
    let ep = pairdbg::mcp::http::serve(Default::default(), Default::default(), ws, None)
        .await
        .expect("serve");
    let addr = ep.addr;
    let bearer = format!("Bearer {}", ep.token);
    let codes = tokio::task::spawn_blocking(move || {
        let path = "/mcp-debugger";
        (
            post(addr, path, &[]),
            post(
                addr,
                path,
                &[
                    ("Authorization", &bearer),
                    ("Origin", "http://evil.example"),
                ],
            ),
            post(addr, path, &[("Authorization", &bearer)]),
        )
    })
    .await
    .unwrap();
    assert_eq!(codes, (401, 403, 200), "no token, a web page, the client");
}

/// mcp-debugger 0.24.2's tools, as its server lists them.
const TOOLS_0_24_2: [&str; 28] = [
    "create_debug_session",
    "list_supported_languages",
    "list_debug_sessions",
    "set_breakpoint",
    "list_breakpoints",
    "remove_breakpoint",
    "clear_breakpoints",
    "start_debugging",
    "restart_debugging",
    "attach_to_process",
    "detach_from_process",
    "expose_session",
    "unexpose_session",
    "close_debug_session",
    "step_over",
    "step_into",
    "step_out",
    "continue_execution",
    "pause_execution",
    "list_threads",
    "get_variables",
    "get_local_variables",
    "get_stack_trace",
    "get_scopes",
    "evaluate_expression",
    "get_source_context",
    "get_output",
    "redefine_classes",
];

#[tokio::test(flavor = "multi_thread")]
async fn the_profile_lists_every_tool_of_mcp_debugger_0_24_2() {
    let ws = common::workspace(&[]);
    let c = profile_in(ws.path(), &[]).await;
    let names = c.tool_names().await;
    let missing: Vec<&str> = TOOLS_0_24_2
        .iter()
        .copied()
        .filter(|t| !names.iter().any(|n| n == t))
        .collect();
    assert!(missing.is_empty(), "missing {missing:?} from {names:?}");
    c.close().await;
}

/// Raises and catches one exception, then raises one nobody catches.
const RISKY: &str = r#"def risky(n):
    try:
        raise KeyError("caught one")
    except KeyError:
        pass
    return 10 / n


risky(0)
"#;

/// Starts RISKY with `mode` for breakOnExceptions; the start's answer.
async fn start_risky(c: &common::profile::Client, mode: &str) -> (String, serde_json::Value) {
    let created = c
        .ok("create_debug_session", json!({"language": "python"}))
        .await;
    let id = created["sessionId"].as_str().unwrap().to_string();
    let started = c
        .ok(
            "start_debugging",
            json!({"sessionId": id, "scriptPath": "risky.py", "breakOnExceptions": mode}),
        )
        .await;
    (id, started)
}

#[tokio::test(flavor = "multi_thread")]
async fn break_on_exceptions_picks_the_filters_and_the_stop_tells_what_was_thrown() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("risky.py", RISKY)]);
    let c = profile_in(ws.path(), &[]).await;

    let created = c
        .ok("create_debug_session", json!({"language": "python"}))
        .await;
    let id = created["sessionId"].as_str().unwrap();
    let bad = c
        .fails(
            "start_debugging",
            json!({"sessionId": id, "scriptPath": "risky.py", "breakOnExceptions": "sometimes"}),
        )
        .await;
    let error = bad["error"].as_str().unwrap();
    for word in [
        "breakOnExceptions",
        "'uncaught'",
        "'all'",
        "'none'",
        "sometimes",
    ] {
        assert!(error.contains(word), "{word} not named: {bad}");
    }

    // uncaught: the caught KeyError runs past; the ZeroDivisionError stops.
    let (id, started) = start_risky(&c, "uncaught").await;
    assert_eq!(started["state"], json!("paused"), "{started}");
    let stack = c.ok("get_stack_trace", json!({"sessionId": id})).await;
    assert_eq!(stack["stopReason"], json!("exception"), "{stack}");
    let stop = &stack["lastStop"];
    assert_eq!(stop["reason"], json!("exception"), "{stack}");
    let info = &stop["exceptionInfo"];
    assert!(
        info["exceptionId"]
            .as_str()
            .unwrap()
            .contains("ZeroDivisionError"),
        "{stack}"
    );
    assert_eq!(
        info["details"]["typeName"],
        json!("ZeroDivisionError"),
        "{stack}"
    );
    assert_eq!(
        info["details"]["message"],
        json!("division by zero"),
        "{stack}"
    );
    assert_eq!(info["description"], json!("division by zero"), "{stack}");
    let locals = c
        .ok(
            "get_local_variables",
            json!({"sessionId": id, "names": ["n", "missing"]}),
        )
        .await;
    assert_eq!(var(&locals, "n")["value"], json!("0"), "{locals}");
    assert_eq!(locals["count"], json!(1), "{locals}");
    assert_eq!(locals["notFound"], json!(["missing"]), "{locals}");
    let late = c
        .fails(
            "evaluate_expression",
            json!({"sessionId": id, "expression": "n", "timeout": 0}),
        )
        .await;
    assert!(
        late["error"]
            .as_str()
            .unwrap()
            .starts_with("timeout: 0 is out of range"),
        "{late}"
    );
    let n = c
        .ok(
            "evaluate_expression",
            json!({"sessionId": id, "expression": "n + 1", "timeout": 30000}),
        )
        .await;
    assert_eq!(n["result"], json!("1"), "{n}");
    let listed = c.ok("list_debug_sessions", json!({})).await;
    let row = listed["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == json!(id))
        .unwrap_or_else(|| panic!("{id} not listed: {listed}"));
    assert_eq!(row["lastStop"]["exceptionInfo"], *info, "{listed}");
    c.ok("close_debug_session", json!({"sessionId": id})).await;

    // all: the caught KeyError stops where it is raised, then the other.
    let (id, started) = start_risky(&c, "all").await;
    assert_eq!(started["state"], json!("paused"), "{started}");
    let stack = c.ok("get_stack_trace", json!({"sessionId": id})).await;
    let info = &stack["lastStop"]["exceptionInfo"];
    assert_eq!(info["details"]["typeName"], json!("KeyError"), "{stack}");
    assert!(
        info["details"]["message"]
            .as_str()
            .unwrap()
            .contains("caught one"),
        "{stack}"
    );
    assert_eq!(top_frame(&stack)["line"], json!(3), "{stack}");
    let next = c.ok("continue_execution", json!({"sessionId": id})).await;
    assert_eq!(next["state"], json!("paused"), "{next}");
    let stack = c.ok("get_stack_trace", json!({"sessionId": id})).await;
    assert_eq!(
        stack["lastStop"]["exceptionInfo"]["details"]["typeName"],
        json!("ZeroDivisionError"),
        "{stack}"
    );
    c.ok("close_debug_session", json!({"sessionId": id})).await;

    // none, given inside dapLaunchArgs as scripts sometimes do: honoured
    // with a warning; the program dies of its exception without stopping.
    let created = c
        .ok("create_debug_session", json!({"language": "python"}))
        .await;
    let id = created["sessionId"].as_str().unwrap();
    let started = c
        .ok(
            "start_debugging",
            json!({"sessionId": id, "scriptPath": "risky.py", "dapLaunchArgs": {"breakOnExceptions": "none"}}),
        )
        .await;
    assert_eq!(started["state"], json!("stopped"), "{started}");
    assert!(
        started["warning"]
            .as_str()
            .unwrap()
            .contains("honored as 'none'"),
        "{started}"
    );
    c.ok("close_debug_session", json!({"sessionId": id})).await;

    let left = common::wait_gone("risky.py", Duration::from_secs(10)).await;
    assert!(
        left.is_empty(),
        "the program outlived its session: {left:?}"
    );
    c.close().await;
}

/// Prints, then adds up; a line a breakpoint can stop on each.
const SUM: &str = r#"print("start")
a = 1
b = 2
c = 3
print("sum", a + b + c)
"#;

fn ids(listed: &serde_json::Value) -> Vec<String> {
    listed["breakpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn breakpoints_are_listed_and_removed_output_read_and_a_run_restarted() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("sum.py", SUM)]);
    let c = profile_in(ws.path(), &[]).await;
    let created = c
        .ok("create_debug_session", json!({"language": "python"}))
        .await;
    let id = created["sessionId"].as_str().unwrap().to_string();

    // Before the start: kept for the launch, listed unverified.
    let mut set = vec![];
    for line in [2, 3, 4] {
        let bp = c
            .ok(
                "set_breakpoint",
                json!({"sessionId": id, "file": "sum.py", "line": line}),
            )
            .await;
        set.push(bp["breakpointId"].as_str().unwrap().to_string());
    }
    let listed = c.ok("list_breakpoints", json!({"sessionId": id})).await;
    assert_eq!(listed["count"], json!(3), "{listed}");
    assert_eq!(ids(&listed), set, "{listed}");
    assert_eq!(
        listed["breakpoints"][0]["verified"],
        json!(false),
        "{listed}"
    );
    let removed = c
        .ok(
            "remove_breakpoint",
            json!({"sessionId": id, "breakpointId": set[2]}),
        )
        .await;
    assert_eq!(
        removed["message"],
        json!("Removed 1 breakpoint(s)"),
        "{removed}"
    );
    assert_eq!(removed["removed"][0]["line"], json!(4), "{removed}");
    let nope = c
        .fails(
            "remove_breakpoint",
            json!({"sessionId": id, "breakpointId": "nope"}),
        )
        .await;
    assert_eq!(
        nope["error"],
        json!("No breakpoint found with id nope"),
        "{nope}"
    );
    let nothing = c.fails("remove_breakpoint", json!({"sessionId": id})).await;
    assert!(
        nothing["error"].as_str().unwrap().contains("breakpointId"),
        "{nothing}"
    );
    let before = c.ok("get_output", json!({"sessionId": id})).await;
    assert_eq!(before["entries"], json!([]), "{before}");

    // After the start the same ids name the engine's breakpoints.
    let started = c
        .ok(
            "start_debugging",
            json!({"sessionId": id, "scriptPath": "sum.py"}),
        )
        .await;
    assert_eq!(started["state"], json!("paused"), "{started}");
    let listed = c.ok("list_breakpoints", json!({"sessionId": id})).await;
    assert_eq!(ids(&listed), set[..2].to_vec(), "{listed}");
    assert_eq!(
        listed["breakpoints"][0]["verified"],
        json!(true),
        "{listed}"
    );
    assert_eq!(listed["functionBreakpoints"], json!([]), "{listed}");
    let (text, read) = c.output_containing(&id, 0, "start\n").await;
    assert_eq!(text, "start\n", "{read}");
    assert_eq!(read["entries"][0]["category"], json!("stdout"), "{read}");
    let last = read["entries"].as_array().unwrap().last().unwrap();
    assert_eq!(read["nextSince"], last["seq"], "{read}");

    // A restart runs afresh: its output alone, the breakpoints kept.
    let again = c.ok("restart_debugging", json!({"sessionId": id})).await;
    assert_eq!(again["state"], json!("paused"), "{again}");
    assert_eq!(again["data"]["breakpointsReapplied"], json!(2), "{again}");
    assert_eq!(again["data"]["outputReset"], json!(true), "{again}");
    let stack = c.ok("get_stack_trace", json!({"sessionId": id})).await;
    assert_eq!(top_frame(&stack)["line"], json!(2), "{stack}");
    let (text, read) = c.output_containing(&id, 0, "start\n").await;
    assert_eq!(text, "start\n", "{read}");
    let since = read["nextSince"].as_u64().unwrap();

    let new = c
        .ok(
            "set_breakpoint",
            json!({"sessionId": id, "file": "sum.py", "line": 4}),
        )
        .await;
    let new_id = new["breakpointId"].as_str().unwrap().to_string();
    assert!(is_uuid(&new_id), "{new}");
    let listed = c.ok("list_breakpoints", json!({"sessionId": id})).await;
    assert_eq!(
        ids(&listed),
        vec![set[0].clone(), set[1].clone(), new_id],
        "{listed}"
    );
    let removed = c
        .ok(
            "remove_breakpoint",
            json!({"sessionId": id, "file": "sum.py", "line": 3}),
        )
        .await;
    assert_eq!(removed["removed"][0]["id"], json!(set[1]), "{removed}");
    let cleared = c
        .ok(
            "clear_breakpoints",
            json!({"sessionId": id, "file": "sum.py"}),
        )
        .await;
    assert_eq!(cleared["cleared"], json!(2), "{cleared}");
    assert!(
        cleared["files"][0].as_str().unwrap().ends_with("sum.py"),
        "{cleared}"
    );
    let listed = c.ok("list_breakpoints", json!({"sessionId": id})).await;
    assert_eq!(listed["count"], json!(0), "{listed}");

    let ended = c.ok("continue_execution", json!({"sessionId": id})).await;
    assert_eq!(ended["state"], json!("stopped"), "{ended}");
    let (text, read) = c.output_containing(&id, since, "sum 6").await;
    assert_eq!(text, "sum 6\n", "{read}");

    // What pairdbg does not do is refused in mcp-debugger's shape.
    let exposed = c.fails("expose_session", json!({"sessionId": id})).await;
    assert!(
        exposed["error"].as_str().unwrap().contains("DAP mirror"),
        "{exposed}"
    );
    let unexposed = c.ok("unexpose_session", json!({"sessionId": id})).await;
    assert_eq!(unexposed["wasExposed"], json!(false), "{unexposed}");
    let fresh = c
        .ok("create_debug_session", json!({"language": "python"}))
        .await;
    let never = c
        .fails(
            "restart_debugging",
            json!({"sessionId": fresh["sessionId"]}),
        )
        .await;
    assert!(
        never["error"]
            .as_str()
            .unwrap()
            .starts_with("Nothing to restart"),
        "{never}"
    );

    c.ok("close_debug_session", json!({"sessionId": id})).await;
    let left = common::wait_gone("sum.py", Duration::from_secs(10)).await;
    assert!(
        left.is_empty(),
        "the program outlived its session: {left:?}"
    );
    c.close().await;
}
