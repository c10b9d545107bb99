//! schemathesis against the served OpenAPI document: across its generated
//! cases (examples, coverage, fuzzing, stateful sequences), no server
//! error and no response outside the document's schema.
//!
//! The document lists only 200 answers, so undocumented refusals (422, 404)
//! are expected; and values the schema allows but the validation rules
//! refuse (an empty path) are refused: those two checks are left out.

mod common;

use std::process::Stdio;
use std::time::Duration;

use common::rest::RestHost;

fn schemathesis_available() -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-m", "schemathesis.cli", "--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        if std::env::var_os("CI").is_some() {
            panic!(
                "schemathesis is required in CI: python3 -m pip install schemathesis (scripts/test does)"
            );
        }
        eprintln!(
            "\n!!!!! SKIPPED: schemathesis is not installed (python3 -m pip install schemathesis) !!!!!\n"
        );
    }
    ok
}

/// The files the document's examples name, so its examples debug real code.
const CALCULATOR: &str = "\
def add(x, y):
    result = x + y
    return result














total = add(10, 20)
print(total)








final_result = total / 1.0
print(final_result)
";

#[tokio::test(flavor = "multi_thread")]
async fn schemathesis_finds_no_server_error_and_no_schema_violation() {
    if !schemathesis_available() || !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[
        ("src/main.py", "print('main')\n"),
        ("src/calculator.py", CALCULATOR),
        ("tests/test_script.py", "import sys\nprint(sys.argv)\n"),
    ]);
    let host = RestHost::start(ws.path()).await;
    let scratch = tempfile::tempdir().unwrap();
    // Through python3, as pip installed it, whatever is on PATH.
    let run = tokio::process::Command::new("python3")
        .args(["-m", "schemathesis.cli", "run"])
        .arg(format!("{}/openapi.yaml", host.base))
        .args(["-H", &format!("Authorization: Bearer {}", host.token)])
        .args(["--checks", "all"])
        .args([
            "--exclude-checks",
            "status_code_conformance,positive_data_acceptance",
        ])
        .args(["--max-examples", "20", "--request-timeout", "40"])
        .args(["--generation-database", "none", "--no-color"])
        .current_dir(scratch.path())
        .kill_on_drop(true)
        .output();
    let out = tokio::time::timeout(Duration::from_secs(300), run)
        .await
        .expect("schemathesis ran past 5 minutes")
        .expect("run schemathesis");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("Tested: 5"),
        "every operation is tested:\n{text}"
    );
    assert!(text.contains("passed"), "{text}");
    host.stop().await;
}
