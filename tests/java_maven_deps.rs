//! A Maven project with a real dependency (gson from Maven Central): the
//! server builds it and runs it on the classpath Maven resolves, a
//! breakpoint in the user's code stops, and a value of gson's types reads.

mod common;

use common::java::copy_dir;
use common::*;
use serde_json::json;

const MAIN: &str = "src/main/java/inventory/Main.java";

/// Whether Maven resolves the fixture's dependencies: in CI it must; on a
/// machine that cannot reach Maven Central the test is skipped, saying so.
fn dependencies_resolve(project: &std::path::Path) -> bool {
    let out = std::process::Command::new("mvn")
        .args(["-q", "-B", "dependency:resolve"])
        .current_dir(project)
        .output()
        .expect("mvn");
    if out.status.success() {
        return true;
    }
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if std::env::var_os("CI").is_some() {
        panic!("Maven cannot resolve gson 2.13.1 in CI: {said}");
    }
    eprintln!("\n!!!!! SKIPPED: Maven cannot resolve gson 2.13.1: {said} !!!!!\n");
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_maven_project_with_gson_stops_and_reads_gson_values() {
    if !java_available() {
        return;
    }
    let ws = tempfile::tempdir().expect("tempdir");
    copy_dir(&repo_root().join("tests/fixtures/java-gson"), ws.path());
    if !dependencies_resolve(ws.path()) {
        return;
    }
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": ".", "timeout_ms": 120000,
                   "breakpoints": [{"file": MAIN, "line": 12}]}),
        )
        .await;
    assert!(
        v.contains("── STOPPED at src/main/java/inventory/Main.java:12 (Main.main) ──"),
        "{v}"
    );
    // gson's own toString(): the object as JSON.
    assert_eq!(
        local(&v, "item").as_deref(),
        Some(r#"{"name":"widget","count":4}"#),
        "{v}"
    );
    assert_eq!(local(&v, "count").as_deref(), Some("4"), "{v}");
    let vars = mcp.ok("debug_variables", json!({"expand": "gson"})).await;
    // A gson object opens to its fields, enums by their names.
    for field in [
        "serializeNulls = false  (boolean)",
        "htmlSafe = true  (boolean)",
        "fieldNamingStrategy = IDENTITY  (com.google.gson.FieldNamingPolicy$1)",
    ] {
        assert!(vars.contains(field), "{field}: {vars}");
    }
    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "item.size()", "allow_side_effects": true}),
        )
        .await;
    assert!(e.contains("= 2"), "{e}");

    mcp.ok("breakpoint_remove", json!({"file": MAIN, "line": 12}))
        .await;
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("── EXITED with code 0 ──"), "{v}");
    let out = mcp.output_containing("widget").await;
    assert!(out.contains(r#"{"name":"widget","count":4} 4"#), "{out}");
    mcp.close().await;
}
