//! What an agent pays, for docs/benchmarks.md: tokens per stop in normal,
//! diff and budgeted modes, the tool list's size, `exception_get_context`
//! against the calls it replaces, and the rate of tracepoint hits that reach
//! an MCP client. Run with `cargo bench --bench economy` (add `-- tokens`,
//! `tools`, `context` or `trace` for one figure). Sides that are compared
//! are alternated call by call; every figure is a median.

mod common;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, ClientConfig, CustomNotification, ProtocolVersion};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::sync::watch;

use common::{median, root};

const DEMO: &str = "assets/demo/order.py";
const BREAK_LINE: u64 = 41;
const STEPS: usize = 8;
const ROUNDS: usize = 5;
/// The budget of the budgeted mode, in tokens.
const BUDGET: usize = 150;

/// Counts `debugger/breakpointHit` notifications as they arrive.
#[derive(Clone)]
struct Hits {
    got: Arc<Mutex<Vec<(Value, Instant)>>>,
    count: Arc<watch::Sender<usize>>,
}

impl Default for Hits {
    fn default() -> Self {
        Hits {
            got: Default::default(),
            count: Arc::new(watch::Sender::new(0)),
        }
    }
}

impl ClientHandler for Hits {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::default().with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }

    async fn on_custom_notification(
        &self,
        n: CustomNotification,
        _context: NotificationContext<RoleClient>,
    ) {
        if n.method == "debugger/breakpointHit" {
            let mut g = self.got.lock().unwrap();
            g.push((n.params.unwrap_or(Value::Null), Instant::now()));
            let len = g.len();
            drop(g);
            self.count.send_replace(len);
        }
    }
}

async fn client_in<H: ClientHandler>(ws: &Path, handler: H) -> RunningService<RoleClient, H> {
    let transport = TokioChildProcess::new(
        tokio::process::Command::new(env!("CARGO_BIN_EXE_pairdbg")).configure(|cmd| {
            cmd.arg("mcp").current_dir(ws);
        }),
    )
    .expect("spawn pairdbg mcp");
    handler.serve(transport).await.expect("initialize")
}

async fn call<H: ClientHandler>(
    c: &RunningService<RoleClient, H>,
    tool: &str,
    args: Value,
) -> String {
    let r = c
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

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

// ---- tokens per stop --------------------------------------------------------

async fn tokens_per_stop() {
    let modes: [(&str, Value); 3] = [
        ("normal", json!({"diff_mode": false})),
        ("diff", json!({"diff_mode": true})),
        (
            "budgeted",
            json!({"diff_mode": false, "max_tokens": BUDGET}),
        ),
    ];
    let mut clients = vec![];
    for (_, cfg) in &modes {
        let c = client_in(&root(), ()).await;
        let v = call(
            &c,
            "debug_launch",
            json!({"program": DEMO, "breakpoints": [{"file": DEMO, "line": BREAK_LINE}], "viewport_config": cfg}),
        )
        .await;
        assert!(v.contains("STOPPED"), "{v}");
        clients.push(c);
    }
    let mut tokens: Vec<Vec<f64>> = vec![vec![]; modes.len()];
    for _ in 0..STEPS {
        // Mode by mode at each step: the same stop in each.
        for (i, c) in clients.iter().enumerate() {
            let v = call(c, "debug_step", json!({"kind": "over"})).await;
            tokens[i].push((v.len() / 4) as f64);
        }
    }
    println!("| mode | tokens per stop, median | max | stops |");
    println!("|---|---|---|---|");
    for ((name, _), t) in modes.iter().zip(&tokens) {
        let max = t.iter().cloned().fold(0.0, f64::max);
        println!(
            "| {name} | {:.0} | {max:.0} | {} |",
            median(t.clone()),
            t.len()
        );
    }
    for c in clients {
        let _ = call(&c, "debug_terminate", json!({})).await;
        let _ = c.cancel().await;
    }
}

// ---- the tool list ----------------------------------------------------------

async fn tool_list() {
    let c = client_in(&root(), ()).await;
    let tools = c.list_all_tools().await.expect("tools/list");
    let bytes = serde_json::to_string(&json!({"tools": tools}))
        .map(|s| s.len())
        .unwrap_or(0);
    println!(
        "| tools/list result | {} tools | {bytes} bytes | {} tokens |",
        tools.len(),
        bytes / 4
    );
    let _ = c.cancel().await;
}

// ---- exception_get_context against the calls it replaces --------------------

const CHAINED: &str = "\
def lookup(d):
    return d['qty']


def convert(d):
    try:
        return lookup(d)
    except KeyError:
        return int(None)


def parse(record, strict=True):
    width = 3
    try:
        return convert(record)
    except TypeError as e:
        raise ValueError('bad record') from e


parse({'name': 'x'})
";

async fn context_latency() {
    let ws = tempfile::tempdir().expect("tempdir");
    std::fs::write(ws.path().join("chained.py"), CHAINED).expect("write");
    let c = client_in(ws.path(), ()).await;
    let v = call(&c, "debug_launch", json!({"program": "chained.py"})).await;
    assert!(v.contains("ValueError"), "{v}");
    let one =
        json!({"max_frames": 10, "include_variables_for_frames": 2, "max_inner_exceptions": 5});
    let mut single = vec![];
    let mut replaced = vec![];
    let mut sizes = (0, 0);
    for _ in 0..30 {
        let t = Instant::now();
        let a = call(&c, "exception_get_context", one.clone()).await;
        single.push(ms(t.elapsed()));
        // What an agent does without it: the stop, the chain of causes, and
        // the variables of the top two frames.
        let t = Instant::now();
        let mut b = call(&c, "debug_status", json!({})).await;
        b += &call(
            &c,
            "debug_evaluate",
            json!({"expression": "[repr(x) for x in (__exception__[1], __exception__[1].__cause__, __exception__[1].__cause__.__context__)]"}),
        )
        .await;
        b += &call(&c, "debug_stack", json!({"levels": 10})).await;
        b += &call(&c, "debug_variables", json!({"frame_index": 0})).await;
        b += &call(&c, "debug_variables", json!({"frame_index": 1})).await;
        replaced.push(ms(t.elapsed()));
        sizes = (a.len(), b.len());
    }
    let (a, b) = (median(single.clone()), median(replaced.clone()));
    println!(
        "| exception_get_context | {a:.2} ms | {} tokens | {} |",
        sizes.0 / 4,
        single.len()
    );
    println!(
        "| debug_status + debug_evaluate (causes) + debug_stack + debug_variables ×2 | {b:.2} ms | {} tokens | {} |",
        sizes.1 / 4,
        replaced.len()
    );
    println!("| ratio one call / five | {:.2}× | | |", a / b);
    let _ = c.cancel().await;
}

// ---- tracepoint hits reaching the client ------------------------------------

const LOOP: &str = "\
import sys
n = int(sys.argv[1])
total = 0
for i in range(n):
    total += i
print('done', total)
";

async fn trace_rate() {
    const HITS: usize = 5000;
    let ws = tempfile::tempdir().expect("tempdir");
    std::fs::write(ws.path().join("loop.py"), LOOP).expect("write");
    let mut rates = vec![];
    let mut plain = vec![];
    for round in 0..ROUNDS {
        // The loop's own time without a tracepoint, in the same round.
        let hits = Hits::default();
        let c = client_in(ws.path(), hits.clone()).await;
        let v = call(
            &c,
            "debug_launch",
            json!({"program": "loop.py", "args": [HITS.to_string()], "breakpoints": [{"file": "loop.py", "line": 3}, {"file": "loop.py", "line": 6}]}),
        )
        .await;
        assert!(v.contains("loop.py:3"), "{v}");
        let traced = round % 2 == 0 || round + 1 == ROUNDS;
        if traced {
            call(
                &c,
                "tracepoint_set",
                json!({"file": "loop.py", "line": 5, "log_message": "i={i}"}),
            )
            .await;
        }
        let base = hits.got.lock().unwrap().len();
        let t = Instant::now();
        let v = call(&c, "debug_continue", json!({})).await;
        assert!(v.contains("loop.py:6"), "{v}");
        if !traced {
            plain.push(ms(t.elapsed()));
            let _ = c.cancel().await;
            continue;
        }
        let mut rx = hits.count.subscribe();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
        loop {
            let tracepoint_hits = hits
                .got
                .lock()
                .unwrap()
                .iter()
                .skip(base)
                .filter(|(p, _)| p["type"] == "tracepoint")
                .count();
            if tracepoint_hits >= HITS {
                break;
            }
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                panic!("only {tracepoint_hits} of {HITS} hits arrived");
            }
        }
        let got: Vec<(Value, Instant)> = hits
            .got
            .lock()
            .unwrap()
            .iter()
            .skip(base)
            .filter(|(p, _)| p["type"] == "tracepoint")
            .cloned()
            .collect();
        // rmcp's client runs each notification's handler as its own task,
        // so handlers may see them out of the wire's order: check the set
        // (none lost, none twice), that hit n says i = n - 1, and that the
        // server's timestamps never go back in hit order.
        let mut by_hit: Vec<&Value> = got.iter().map(|(p, _)| p).collect();
        by_hit.sort_by_key(|p| p["hitCount"].as_u64());
        for (n, p) in by_hit.iter().enumerate() {
            assert_eq!(
                p["hitCount"],
                n as u64 + 1,
                "hit {} missing or twice",
                n + 1
            );
            assert_eq!(p["logMessage"], format!("i={n}"), "{p}");
        }
        assert!(
            by_hit
                .windows(2)
                .all(|w| w[0]["timestamp"].as_str() <= w[1]["timestamp"].as_str()),
            "timestamps go back"
        );
        let last = got.last().map(|(_, t)| *t).expect("hits");
        let secs = last.duration_since(t).as_secs_f64();
        rates.push(HITS as f64 / secs);
        let _ = c.cancel().await;
    }
    println!(
        "| tracepoint hits/s reaching the client, {HITS} hits, none lost, in order | {:.0} | {} runs |",
        median(rates.clone()),
        rates.len()
    );
    println!(
        "| the same loop untraced, continue → stop | {:.1} ms | {} runs |",
        median(plain.clone()),
        plain.len()
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let only: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let run = |name: &str| only.as_deref().is_none_or(|o| o == name);
    if run("tools") {
        tool_list().await;
    }
    if run("tokens") {
        tokens_per_stop().await;
    }
    if run("context") {
        context_latency().await;
    }
    if run("trace") {
        trace_rate().await;
    }
}
