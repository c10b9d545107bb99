//! Where a js-debug step's time goes, with no pairdbg engine: a raw DAP
//! client on both of js-debug's connections (the launch connection, and the
//! child one the program runs on) times `next` → `stopped` and the reads a
//! stop needs. Run with `cargo bench --bench js_debug_steps` after
//! `pairdbg adapters install node`; `-- plain`, `-- nodelay`, `-- inspector` or `-- both` runs
//! one of the set-ups docs/benchmarks.md compares; by default all four.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use pairdbg::adapters::js_debug::{self, install};
use pairdbg::dap::DapClient;
use pairdbg::dap::announced::connect_announced;
use pairdbg::dap::envelope::{Event, Request};
use serde_json::{Value, json};
use tokio::sync::mpsc;

const STEPS: usize = 20;
const TIMEOUT: Duration = Duration::from_secs(20);

#[derive(Default)]
struct Figures {
    step_answer: Vec<f64>,
    step_stopped: Vec<f64>,
    stack: Vec<f64>,
    scopes: Vec<f64>,
    variables: Vec<f64>,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

async fn wait_event(events: &mut mpsc::UnboundedReceiver<Event>, name: &str) -> Event {
    tokio::time::timeout(TIMEOUT, async {
        loop {
            let e = events.recv().await.expect("events end");
            if e.event == name {
                return e;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no {name} event"))
}

async fn run(
    entry: &Path,
    program: &Path,
    nodelay: bool,
    program_preload: Option<&Path>,
) -> Figures {
    let mut cmd = tokio::process::Command::new("node");
    if nodelay {
        let preload =
            pairdbg::paths::install_file("node", "nodelay.cjs", js_debug::NODELAY).unwrap();
        cmd.arg("--require").arg(preload);
    }
    cmd.arg(entry)
        .args(["0", "127.0.0.1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    let mut server = cmd.spawn().expect("node runs js-debug");
    let stdout = server.stdout.take().unwrap();
    let (addr, parent_sock) = connect_announced(
        Box::pin(stdout),
        js_debug::listening_at,
        "js-debug",
        TIMEOUT,
    )
    .await
    .expect("js-debug listens");
    let _ = parent_sock.set_nodelay(true);

    let (child_tx, mut child_rx) = mpsc::unbounded_channel::<Value>();
    let reverse = Arc::new(move |req: &Request| {
        if req.command == "startDebugging" {
            let _ = child_tx.send(req.arguments.clone().unwrap_or_default());
            return Ok(json!({}));
        }
        Err(format!("not answered: {}", req.command))
    });
    let (r, w) = parent_sock.into_split();
    let (parent, mut parent_events) = DapClient::start(r, w, TIMEOUT, reverse);
    let init = json!({"clientID": "bench", "adapterID": "pwa-node", "linesStartAt1": true,
        "columnsStartAt1": true, "pathFormat": "path", "supportsVariableType": true,
        "supportsStartDebuggingRequest": true});
    parent
        .request("initialize", Some(init.clone()))
        .await
        .unwrap();
    let dir = program.parent().unwrap();
    let mut args = json!({"type": "pwa-node", "request": "launch", "name": "bench",
        "program": program, "cwd": dir, "console": "internalConsole",
        "outputCapture": "std", "__workspaceFolder": dir,
        "skipFiles": ["<node_internals>/**"]});
    if let Some(preload) = program_preload {
        args["env"] = json!({"NODE_OPTIONS": format!("--require {}", preload.display())});
    }
    // js-debug's own log, with a timestamp on every DAP and CDP message.
    if let Some(log) = std::env::var_os("JS_DEBUG_TRACE") {
        args["trace"] = json!({"logFile": log, "stdio": false});
    }
    let launch = parent.request("launch", Some(args));
    wait_event(&mut parent_events, "initialized").await;
    parent.request("configurationDone", None).await.unwrap();
    let child_args = tokio::time::timeout(TIMEOUT, child_rx.recv())
        .await
        .expect("startDebugging")
        .unwrap();

    let child_sock = tokio::net::TcpStream::connect(addr).await.unwrap();
    let _ = child_sock.set_nodelay(true);
    let (r, w) = child_sock.into_split();
    let reverse = Arc::new(|req: &Request| Err(format!("not answered: {}", req.command)));
    let (child, mut events) = DapClient::start(r, w, TIMEOUT, reverse);
    child.request("initialize", Some(init)).await.unwrap();
    let command = child_args["request"]
        .as_str()
        .unwrap_or("launch")
        .to_string();
    let child_launch = child.request(&command, Some(child_args["configuration"].clone()));
    wait_event(&mut events, "initialized").await;
    child
        .request(
            "setBreakpoints",
            Some(json!({"source": {"path": program}, "breakpoints": [{"line": 14}]})),
        )
        .await
        .unwrap();
    child.request("configurationDone", None).await.unwrap();
    wait_event(&mut events, "stopped").await;

    let mut f = Figures::default();
    for _ in 0..STEPS {
        let t = Instant::now();
        child
            .request("next", Some(json!({"threadId": 0})))
            .await
            .unwrap();
        f.step_answer.push(ms(t));
        wait_event(&mut events, "stopped").await;
        f.step_stopped.push(ms(t));

        let t = Instant::now();
        let st = child
            .request("stackTrace", Some(json!({"threadId": 0, "levels": 1})))
            .await
            .unwrap();
        f.stack.push(ms(t));
        let frame = st["stackFrames"][0]["id"].as_i64().unwrap_or(0);
        let t = Instant::now();
        let sc = child
            .request("scopes", Some(json!({"frameId": frame})))
            .await
            .unwrap();
        f.scopes.push(ms(t));
        let reference = sc["scopes"]
            .as_array()
            .and_then(|s| {
                s.iter()
                    .find(|s| s["name"].as_str().is_some_and(|n| n.starts_with("Local")))
            })
            .and_then(|s| s["variablesReference"].as_i64())
            .unwrap_or(0);
        let t = Instant::now();
        child
            .request("variables", Some(json!({"variablesReference": reference})))
            .await
            .unwrap();
        f.variables.push(ms(t));
    }
    // The program then runs to its end, as it does without the preloads.
    child
        .request(
            "setBreakpoints",
            Some(json!({"source": {"path": program}, "breakpoints": []})),
        )
        .await
        .unwrap();
    child
        .request("continue", Some(json!({"threadId": 0})))
        .await
        .unwrap();
    wait_event(&mut events, "terminated").await;
    wait_event(&mut parent_events, "terminated").await;
    let _ = child
        .request_with_timeout(
            "disconnect",
            Some(json!({"terminateDebuggee": true})),
            Duration::from_secs(2),
        )
        .await;
    let _ = parent
        .request_with_timeout(
            "disconnect",
            Some(json!({"terminateDebuggee": true})),
            Duration::from_secs(2),
        )
        .await;
    drop((launch, child_launch));
    let _ = server.kill().await;
    f
}

fn report(label: &str, mut f: Figures) {
    println!(
        "{label:<25} next answered {:>5.1} ms | next→stopped {:>5.1} ms | stackTrace {:>5.1} ms | scopes {:>5.1} ms | variables {:>5.1} ms",
        median(&mut f.step_answer),
        median(&mut f.step_stopped),
        median(&mut f.stack),
        median(&mut f.scopes),
        median(&mut f.variables),
    );
}

#[tokio::main]
async fn main() {
    let mode = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .unwrap_or_else(|| "all".into());
    let Some(installed) = install::adapters_dir()
        .ok()
        .and_then(|d| install::find_installed(&d))
    else {
        eprintln!("js-debug is not installed: run `pairdbg adapters install node`");
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let program = root.join("assets/demo/node/prog.js");
    println!(
        "js-debug {} on {}, {STEPS} steps each, medians",
        installed.version,
        node_version()
    );
    if mode == "plain" || mode == "all" {
        let f = run(&installed.entry, &program, false, None).await;
        report("js-debug as shipped", f);
    }
    if mode == "nodelay" || mode == "all" {
        let f = run(&installed.entry, &program, true, None).await;
        report("NODELAY in js-debug", f);
    }
    let shim = pairdbg::paths::install_file("node", "program.cjs", js_debug::PROGRAM_PRELOAD)
        .expect("runtime directory");
    if mode == "inspector" || mode == "all" {
        let f = run(&installed.entry, &program, false, Some(&shim)).await;
        report("NODELAY in the inspector", f);
    }
    if mode == "both" || mode == "all" {
        let f = run(&installed.entry, &program, true, Some(&shim)).await;
        report("NODELAY in both", f);
    }
}

fn node_version() -> String {
    std::process::Command::new("node")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}
