//! pairdbg as agents built on the official MCP SDKs meet it: a whole
//! session through the Python SDK logs no warning (it logs one for each
//! notification it does not know), and the TypeScript SDK is sent
//! pairdbg's own notifications only once it asks for them.

mod common;

use std::ffi::OsStr;
use std::time::Duration;

use common::*;

const PROG: &str = "\
def total(xs):
    s = 0
    for x in xs:
        s += x
    return s


print(total([1, 2, 3]))
";

fn client(name: &str) -> std::path::PathBuf {
    repo_root().join("tests/clients").join(name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_session_under_the_python_sdk_logs_no_warning() {
    let Some(python) = sdk::python_sdk() else {
        return;
    };
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let script = client("python_sdk_session.py");
    let out = sdk::run_client(
        &python,
        &[
            script.as_os_str(),
            OsStr::new(env!("CARGO_BIN_EXE_pairdbg")),
            ws.path().as_os_str(),
        ],
        Duration::from_secs(180),
    )
    .await;
    let texts: Vec<&str> = out["texts"]
        .as_array()
        .expect("texts")
        .iter()
        .map(|t| t.as_str().unwrap_or_default())
        .collect();
    assert!(
        texts[0].contains("── STOPPED at prog.py:4 (total) ──"),
        "{}",
        texts[0]
    );
    assert!(
        texts[1].contains('1'),
        "s + x at the first hit: {}",
        texts[1]
    );
    assert!(
        texts.iter().any(|t| t.contains("exited with code 0")),
        "{texts:#?}"
    );
    assert_eq!(out["warnings"], "", "the SDK logged warnings");
    // What our own notifications would have told comes as the standard
    // update of the subscribed session resource.
    let updated = out["updated"].as_array().expect("updated");
    assert!(
        updated.iter().any(|u| u == "debugger://session/s1"),
        "{updated:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_typescript_sdk_is_sent_our_notifications_only_when_it_asks() {
    let Some(sdk_dir) = sdk::typescript_sdk() else {
        return;
    };
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("prog.py", PROG)]);
    let script = client("typescript_sdk_session.cjs");
    let out = sdk::run_client(
        std::path::Path::new("node"),
        &[
            script.as_os_str(),
            sdk_dir.as_os_str(),
            OsStr::new(env!("CARGO_BIN_EXE_pairdbg")),
            ws.path().as_os_str(),
        ],
        Duration::from_secs(180),
    )
    .await;
    for who in ["plain", "asking", "subscribed"] {
        let launched = out[who]["launched"].as_str().unwrap_or_default();
        assert!(
            launched.contains("── STOPPED at prog.py:4"),
            "{who}: {launched}"
        );
        assert_eq!(out[who]["errors"], serde_json::json!([]), "{who}");
    }
    let ours = |who: &str| -> Vec<String> {
        out[who]["seen"]
            .as_array()
            .expect("seen")
            .iter()
            .filter_map(|m| m.as_str())
            .filter(|m| m.starts_with("debugger/"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(ours("plain"), Vec::<String>::new(), "{out}");
    let asking = ours("asking");
    assert!(
        asking
            .iter()
            .filter(|m| *m == "debugger/breakpointHit")
            .count()
            >= 2,
        "both hits: {asking:?}"
    );
    assert!(
        asking.iter().any(|m| m == "debugger/sessionStateChanged"),
        "{asking:?}"
    );
}
