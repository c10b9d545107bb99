//! Going back on gdb, through `pairdbg mcp` behind a real MCP client: a
//! step back to its viewport, and what recording costs a forward
//! `continue` over a loop of 10^5 iterations (on and off). Run with
//! `cargo bench --profile dev --bench reverse` (a debug build of pairdbg)
//! after `pairdbg adapters install gdb`; `-- steps` or `-- loop` runs one part.

use std::path::Path;
use std::time::Instant;

use rmcp::model::CallToolRequestParams;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};

type Client = rmcp::service::RunningService<RoleClient, ()>;

/// Steps forward, then as many back, each back step timed.
const STEPS: usize = 20;
/// Forward continues over the loop without recording.
const PLAIN_RUNS: usize = 3;

const PROGRAM: &str = r#"int step(int v) {
    return v + 1;
}

int main(void) {
    int v = 0;
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    v = step(v);
    long total = 0;
    for (long i = 0; i < 100000; i++) {
        total += i;
    }
    return total == v;
}
"#;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn line_of(needle: &str) -> u64 {
    PROGRAM
        .lines()
        .position(|l| l.contains(needle))
        .map(|i| i as u64 + 1)
        .expect("the line is in the program")
}

async fn call(client: &Client, tool: &str, args: Value) -> String {
    let r = client
        .call_tool(
            CallToolRequestParams::new(tool.to_string())
                .with_arguments(args.as_object().cloned().unwrap_or_default()),
        )
        .await
        .expect("tool call");
    let text = r
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(!r.is_error.unwrap_or(false), "{tool} failed: {text}");
    text
}

async fn session(ws: &Path, breakpoints: Value) -> Client {
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg")).configure(|cmd| {
            cmd.arg("mcp").current_dir(ws);
        }),
    )
    .expect("spawn pairdbg mcp");
    let client = ().serve(transport).await.expect("initialize");
    let v = call(
        &client,
        "debug_launch",
        json!({"program": "prog", "adapter": "gdb", "breakpoints": breakpoints}),
    )
    .await;
    assert!(v.contains("STOPPED"), "{v}");
    client
}

async fn end(client: Client) {
    let _ = call(&client, "debug_terminate", json!({})).await;
    let _ = client.cancel().await;
}

async fn steps(ws: &Path) {
    let first = line_of("v = step(v);");
    let client = session(ws, json!([{"file": "prog.c", "line": first}])).await;
    call(&client, "debug_record", json!({"on": true})).await;
    let mut forward = vec![];
    for _ in 0..STEPS {
        let t = Instant::now();
        call(&client, "debug_step", json!({})).await;
        forward.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let mut back = vec![];
    let mut bytes = 0;
    for _ in 0..STEPS {
        let t = Instant::now();
        let v = call(&client, "debug_step", json!({"kind": "back"})).await;
        back.push(t.elapsed().as_secs_f64() * 1000.0);
        bytes = v.len();
    }
    let v = call(&client, "debug_status", json!({})).await;
    assert!(
        v.contains(&format!("prog.c:{first}")),
        "back where it began: {v}"
    );
    println!(
        "step over while recording: median {:.1} ms over {STEPS}",
        median(forward)
    );
    println!(
        "step back → viewport: median {:.1} ms over {STEPS} (the last {bytes} bytes, in diff mode)",
        median(back)
    );
    end(client).await;
}

async fn looped(ws: &Path) {
    let before = line_of("long total = 0;");
    let after = line_of("return total == v;");
    let breakpoints =
        json!([{"file": "prog.c", "line": before}, {"file": "prog.c", "line": after}]);
    let wait = json!({"timeout_ms": 600_000});
    let mut plain = vec![];
    for _ in 0..PLAIN_RUNS {
        let client = session(ws, breakpoints.clone()).await;
        let t = Instant::now();
        let v = call(&client, "debug_continue", wait.clone()).await;
        plain.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(v.contains(&format!("prog.c:{after}")), "{v}");
        end(client).await;
    }
    println!(
        "continue over 10^5 iterations, not recording: median {:.1} ms over {PLAIN_RUNS}",
        median(plain)
    );
    let client = session(ws, breakpoints).await;
    call(&client, "debug_record", json!({"on": true})).await;
    let t = Instant::now();
    let v = call(&client, "debug_continue", wait).await;
    let recorded = t.elapsed().as_secs_f64() * 1000.0;
    assert!(v.contains(&format!("prog.c:{after}")), "{v}");
    let status = call(&client, "debug_status", json!({})).await;
    let held = status
        .lines()
        .find(|l| l.starts_with("REC"))
        .unwrap_or("REC (not read)")
        .to_string();
    println!("continue over 10^5 iterations, recording: {recorded:.1} ms (one run)");
    println!("  {held}");
    end(client).await;
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let only = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let ws = tempfile::tempdir().expect("tempdir");
    std::fs::write(ws.path().join("prog.c"), PROGRAM).expect("write prog.c");
    let st = std::process::Command::new("cc")
        .args(["-g", "-O0", "-o", "prog", "prog.c"])
        .current_dir(ws.path())
        .status()
        .expect("run cc");
    assert!(st.success(), "cc failed");
    if only.as_deref().is_none_or(|o| o == "steps") {
        steps(ws.path()).await;
    }
    if only.as_deref().is_none_or(|o| o == "loop") {
        looped(ws.path()).await;
    }
}
