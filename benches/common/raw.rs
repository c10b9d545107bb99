//! The raw DAP floor: a minimal client (pairdbg's own codec and client, no
//! session engine) on an adapter started exactly as pairdbg starts it, and
//! the programs the benchmarks stop in.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pairdbg::adapters::{AdapterRef, LaunchSpec, Target, Transport};
use pairdbg::dap::DapClient;
use pairdbg::dap::client::default_reverse_handler;
use pairdbg::dap::envelope::Event;
use pairdbg::dap::process::AdapterProcess;
use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedReceiver;

use super::root;

pub const DEMO: &str = "assets/demo/order.py";
pub const BREAK_LINE: u64 = 41;

/// One DAP request, to be sent as another client sent it.
#[derive(Clone, Debug)]
pub struct Request {
    pub command: String,
    pub arguments: Option<serde_json::Value>,
    /// The body of the answer it got, where the log has it.
    pub answer: Option<serde_json::Value>,
}

/// The commands that resume the program: a replay waits for the stop
/// after each.
pub const RESUMING: &[&str] = &["next", "stepIn", "stepOut", "continue"];

/// A program to measure on: where it is, where it stops, and which locals
/// the viewport reads one level into.
pub struct Demo {
    pub adapter: AdapterRef,
    pub workspace: PathBuf,
    /// Relative to the workspace.
    pub program: String,
    pub source: String,
    pub break_line: u64,
    pub filters: Vec<String>,
    pub extra_reads: &'static [&'static str],
    /// The launch names its adapter: the language has more than one.
    pub choose_adapter: bool,
}

impl Demo {
    pub fn python(adapter: AdapterRef) -> Demo {
        Demo {
            adapter,
            workspace: root(),
            program: DEMO.into(),
            source: DEMO.into(),
            break_line: BREAK_LINE,
            filters: vec!["uncaught".into()],
            extra_reads: &["user"],
            choose_adapter: false,
        }
    }

    /// The Rust demo, built into a scratch workspace.
    pub fn rust(adapter: AdapterRef, ws: &Path) -> Demo {
        let demo = root().join("assets/demo/rust");
        std::fs::create_dir_all(ws.join("src")).expect("mkdir");
        std::fs::copy(demo.join("Cargo.toml"), ws.join("Cargo.toml")).expect("copy");
        std::fs::copy(demo.join("src/main.rs"), ws.join("src/main.rs")).expect("copy");
        let st = std::process::Command::new(env!("CARGO"))
            .args(["build", "--quiet", "--offline"])
            .current_dir(ws)
            .env("CARGO_TARGET_DIR", ws.join("target"))
            .status()
            .expect("cargo");
        assert!(st.success(), "building the Rust demo failed");
        Demo {
            adapter,
            workspace: ws.to_path_buf(),
            program: "target/debug/shop".into(),
            source: "src/main.rs".into(),
            // Inside subtotal's loop: steps go 17 → 16 → 17 ...
            break_line: 17,
            filters: adapter
                .default_exception_filters()
                .iter()
                .map(|s| s.to_string())
                .collect(),
            extra_reads: &["items", "item"],
            choose_adapter: true,
        }
    }

    /// The Maven demo, built by the server at each launch (`mvn -q
    /// compile` into its `target/`).
    pub fn java(adapter: AdapterRef) -> Demo {
        Demo {
            adapter,
            workspace: root(),
            program: "assets/demo/java".into(),
            source: "assets/demo/java/src/main/java/shop/Main.java".into(),
            // Inside main's loop: steps go 24 → 25 → 26 → 23 → 24 ...
            break_line: 24,
            filters: adapter
                .default_exception_filters()
                .iter()
                .map(|s| s.to_string())
                .collect(),
            extra_reads: &["order"],
            choose_adapter: false,
        }
    }
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

pub async fn wait_event(events: &mut UnboundedReceiver<Event>, name: &str) -> Event {
    loop {
        let e = tokio::time::timeout(Duration::from_secs(30), events.recv())
            .await
            .expect("event in time")
            .expect("adapter alive");
        if e.event == name {
            return e;
        }
    }
}

/// A minimal DAP client on debugpy, stopped at the demo's breakpoint.
pub struct RawSession {
    c: DapClient,
    events: UnboundedReceiver<Event>,
    proc: AdapterProcess,
    thread: i64,
    /// Scopes the viewport never reads (registers, globals).
    skipped_scopes: &'static [&'static str],
    /// The replay's frame and variable numbers for the recorded ones.
    ids: std::collections::HashMap<i64, i64>,
    pub startup_ms: f64,
}

impl RawSession {
    /// The adapter spawned as pairdbg spawns it, with the same launch
    /// arguments, then driven by hand.
    pub async fn start(demo: &Demo, nodelay: bool) -> RawSession {
        let adapter = demo.adapter;
        let t0 = Instant::now();
        let program = demo.workspace.join(&demo.program);
        let source = demo.workspace.join(&demo.source);
        let spec = LaunchSpec {
            target: Target::Program(program.clone()),
            nodelay,
            ..LaunchSpec::for_workspace(&demo.workspace)
        };
        let spawned = adapter.spawn(&spec).expect("spawn adapter");
        let Transport::Stdio { reader, writer } = spawned.transport else {
            panic!("a stdio adapter")
        };
        let proc = spawned.process.expect("an adapter process");
        let (c, mut events) = DapClient::start(
            reader,
            writer,
            Duration::from_secs(30),
            default_reverse_handler(),
        );
        c.request("initialize", Some(json!({"adapterID": adapter.name(), "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"})))
            .await
            .expect("initialize");
        let (command, args) = spawned.start;
        let launch = c.request(command, Some(args));
        wait_event(&mut events, "initialized").await;
        c.request(
            "setBreakpoints",
            Some(json!({"source": {"path": source}, "breakpoints": [{"line": demo.break_line}]})),
        )
        .await
        .expect("setBreakpoints");
        c.request(
            "setExceptionBreakpoints",
            Some(json!({"filters": demo.filters})),
        )
        .await
        .expect("exc");
        c.request("configurationDone", None)
            .await
            .expect("configurationDone");
        launch.await.expect("launch");
        let stopped = wait_event(&mut events, "stopped").await;
        let thread = stopped
            .body
            .as_ref()
            .and_then(|b| b["threadId"].as_i64())
            .unwrap_or(1);
        c.request(
            "stackTrace",
            Some(json!({"threadId": thread, "levels": 20})),
        )
        .await
        .expect("stack");
        RawSession {
            c,
            events,
            proc,
            thread,
            skipped_scopes: adapter.quirks().skipped_scopes,
            ids: Default::default(),
            startup_ms: ms(t0.elapsed()),
        }
    }

    /// One step read the plain way, one request after another: the time to
    /// the floor's last answer, and to the viewport's extra reads (the
    /// fields of `user`, say).
    pub async fn step(&mut self, extra_reads: &[&str]) -> (f64, f64) {
        let (c, thread) = (&self.c, self.thread);
        let t = Instant::now();
        c.request("next", Some(json!({"threadId": thread})))
            .await
            .expect("next");
        wait_event(&mut self.events, "stopped").await;
        let st = c
            .request(
                "stackTrace",
                Some(json!({"threadId": thread, "startFrame": 0, "levels": 20})),
            )
            .await
            .expect("stack");
        let frame = st["stackFrames"][0]["id"].as_i64().unwrap_or(0);
        let sc = c
            .request("scopes", Some(json!({"frameId": frame})))
            .await
            .expect("scopes");
        let r = sc["scopes"][0]["variablesReference"].as_i64().unwrap_or(0);
        let first = c
            .request("variables", Some(json!({"variablesReference": r})))
            .await
            .expect("variables");
        let floor = ms(t.elapsed());
        // The viewport reads every scope that holds locals (gdb lists a
        // function's arguments apart from its other locals).
        let mut vars: Vec<serde_json::Value> =
            first["variables"].as_array().cloned().unwrap_or_default();
        let skipped = self.skipped_scopes;
        for scope in sc["scopes"].as_array().into_iter().flatten().skip(1) {
            let name = scope["name"].as_str().unwrap_or("");
            let r = scope["variablesReference"].as_i64().unwrap_or(0);
            if r > 0 && !skipped.iter().any(|s| name.starts_with(s)) {
                let more = c
                    .request("variables", Some(json!({"variablesReference": r})))
                    .await
                    .expect("variables");
                vars.extend(more["variables"].as_array().cloned().unwrap_or_default());
            }
        }
        for name in extra_reads {
            let r = vars
                .iter()
                .find(|v| v["name"] == *name)
                .and_then(|v| v["variablesReference"].as_i64())
                .unwrap_or(0);
            if r > 0 {
                c.request("variables", Some(json!({"variablesReference": r})))
                    .await
                    .expect("extra read");
            }
        }
        (floor, ms(t.elapsed()))
    }

    /// The requests pairdbg sent for one step, sent again one after
    /// another: the step's time with exactly the reads the viewport made.
    pub async fn replay(&mut self, requests: &[Request]) -> f64 {
        let t = Instant::now();
        for r in requests {
            // The one id that differs between two runs of one program: the
            // system's thread id, which lldb-dap uses.
            let mut arguments = r.arguments.clone();
            if let Some(a) = arguments.as_mut().and_then(|a| a.as_object_mut())
                && a.contains_key("threadId")
            {
                a.insert("threadId".into(), json!(self.thread));
            }
            if let Some(a) = arguments.as_mut() {
                renumber(a, &self.ids);
            }
            let answer = match self.c.request(&r.command, arguments).await {
                Ok(a) => a,
                Err(e) => panic!("replayed `{}` failed: {e}", r.command),
            };
            if let Some(recorded) = &r.answer {
                learn_ids(recorded, &answer, &mut self.ids);
            }
            if RESUMING.contains(&r.command.as_str()) {
                wait_event(&mut self.events, "stopped").await;
            }
        }
        ms(t.elapsed())
    }

    pub async fn end(mut self) {
        let _ = self
            .c
            .request_with_timeout(
                "disconnect",
                Some(json!({"terminateDebuggee": true})),
                Duration::from_secs(2),
            )
            .await;
        self.proc.kill_all();
        self.proc.wait().await;
    }
}

/// The keys whose numbers name a frame or a variable container; `id` only
/// in a stack trace's frames (elsewhere it is a thread's, or a
/// breakpoint's).
const IDS: &[&str] = &["frameId", "variablesReference"];

/// Pairs the numbers at the same places of a recorded answer and the
/// replay's answer to the same request.
pub fn learn_ids(recorded: &Value, got: &Value, ids: &mut std::collections::HashMap<i64, i64>) {
    learn(recorded, got, ids, false);
}

fn learn(
    recorded: &Value,
    got: &Value,
    ids: &mut std::collections::HashMap<i64, i64>,
    frame: bool,
) {
    match (recorded, got) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                let Some(w) = b.get(k) else { continue };
                let names = IDS.contains(&k.as_str()) || (frame && k == "id");
                match (names, v.as_i64(), w.as_i64()) {
                    (true, Some(x), Some(y)) if x > 0 => {
                        ids.insert(x, y);
                    }
                    _ => learn(v, w, ids, k == "stackFrames"),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (v, w) in a.iter().zip(b) {
                learn(v, w, ids, frame);
            }
        }
        _ => {}
    }
}

/// A recorded request's arguments with the numbers the replay learned.
pub fn renumber(arguments: &mut Value, ids: &std::collections::HashMap<i64, i64>) {
    let Some(a) = arguments.as_object_mut() else {
        return;
    };
    for k in IDS {
        if let Some(v) = a.get_mut(*k)
            && let Some(n) = v.as_i64()
            && let Some(m) = ids.get(&n)
        {
            *v = json!(m);
        }
    }
}
