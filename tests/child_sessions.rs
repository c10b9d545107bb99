//! Child sessions against a scripted adapter over TCP, shaped like the
//! recorded js-debug run: the root connection only launches and asks, with
//! `startDebugging`, for a child connection (a second socket to the same
//! port) that carries the program's stops. Also: a child that closes while
//! it starts, a grandchild asked for on a child's connection, and a
//! breakpoint set while running that reaches every connection, and a
//! child's stop read late, after another child took the focus and stopped.

mod common;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::BytesMut;
use futures::StreamExt;
use futures::future::BoxFuture;
use pairdbg::adapters::{
    Adapter, AdapterError, ChildContext, ChildStart, Found, Language, LaunchSpec, Quirks,
};
use pairdbg::dap::codec::{DapCodec, frame};
use pairdbg::session::connector::{Connector, Spawned, Transport};
use pairdbg::session::handle::WaitOutcome;
use pairdbg::session::validate::Workspace;
use pairdbg::session::{
    BreakpointRequest, LaunchRequest, Origin, RunState, SessionError, SessionHandle, Snapshot,
};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::Notify;
use tokio_util::codec::FramedRead;

/// What the scripted children do.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// The js-debug run: the child stops at once, and the program's end
    /// comes as the root's `terminated`, with no `exited`.
    Replay,
    /// The child's socket closes before it answers `initialize`.
    CloseMidStart,
    /// The child asks for a grandchild, which stops.
    Grandchild,
    /// The child runs without stopping.
    Running,
    /// Two children: the first stops at once and its stack is answered
    /// only when the test says; the second is configured once that stack
    /// was asked for, and stops when the test says.
    Siblings,
}

/// The fake adapter: debugpy's language, js-debug's shape.
struct FakeAdapter;

static QUIRKS: Quirks = Quirks {
    program_on_child: true,
    ..Quirks::DEFAULT
};

impl Adapter for FakeAdapter {
    fn name(&self) -> &'static str {
        "fake"
    }
    fn languages(&self) -> &'static [&'static str] {
        &["python"]
    }
    fn launch_json_types(&self) -> &'static [&'static str] {
        &[]
    }
    fn probe(&self, _spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        Box::pin(async {
            Ok(Found {
                version: "1".into(),
                path: "fake".into(),
                warning: None,
            })
        })
    }
    fn install_command(&self, _spec: &LaunchSpec) -> String {
        String::new()
    }
    fn install(&self, spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        self.probe(spec)
    }
    fn spawn(&self, _spec: &LaunchSpec) -> Result<Spawned, AdapterError> {
        Err(AdapterError::NotFound("the test connects".into()))
    }
    fn default_exception_filters(&self) -> &'static [&'static str] {
        &[]
    }
    fn quirks(&self) -> &'static Quirks {
        &QUIRKS
    }
    fn language(&self) -> &'static dyn Language {
        pairdbg::adapters::debugpy::Debugpy.language()
    }
    /// As js-debug: the same host and port as the parent, and the request
    /// the arguments name with their configuration verbatim.
    fn child_connection(
        &self,
        ctx: &ChildContext<'_>,
        arguments: &Value,
    ) -> Result<ChildStart, AdapterError> {
        let addr = ctx
            .parent_addr
            .ok_or_else(|| AdapterError::Unsupported("no parent address".into()))?;
        let request = match arguments["request"].as_str() {
            Some("attach") => "attach",
            _ => "launch",
        };
        Ok(ChildStart {
            transport: Transport::Tcp(addr),
            start: (request, arguments["configuration"].clone()),
            name: arguments["configuration"]["name"]
                .as_str()
                .unwrap_or_default()
                .into(),
        })
    }
}

static FAKE: FakeAdapter = FakeAdapter;

/// Every request each connection received, as "role:command".
type Log = Arc<Mutex<Vec<String>>>;

struct Fake {
    mode: Mode,
    log: Log,
    program: String,
    /// The child's launch arguments, as received.
    child_launch: Arc<Mutex<Vec<Value>>>,
    exit_file: PathBuf,
    gates: Gates,
}

/// What the test and the scripted connections wait on (`Mode::Siblings`).
#[derive(Clone, Default)]
struct Gates {
    /// The first child's stack was asked for.
    first_asked: Arc<Notify>,
    /// The test lets the second child stop.
    second_stops: Arc<Notify>,
    /// The test lets the first child's stack be answered.
    first_answers: Arc<Notify>,
}

impl Connector for Fake {
    fn connect(&self, _config: &pairdbg::session::LaunchConfig) -> Result<Spawned, SessionError> {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        std_listener.set_nonblocking(true).expect("nonblocking");
        let addr = std_listener.local_addr().expect("addr");
        let shared = Shared {
            mode: self.mode,
            log: self.log.clone(),
            program: self.program.clone(),
            child_launch: self.child_launch.clone(),
            child_ended: Arc::new(Notify::new()),
            gates: self.gates.clone(),
        };
        tokio::spawn(async move {
            let l = tokio::net::TcpListener::from_std(std_listener).expect("listener");
            while let Ok((sock, _)) = l.accept().await {
                tokio::spawn(serve(sock, shared.clone()));
            }
        });
        Ok(Spawned {
            process: None,
            transport: Transport::Tcp(addr),
            program_output: None,
            on_terminal: false,
            start: (
                "launch",
                json!({"type": "pwa-node", "program": self.program}),
            ),
            exit_code_file: Some(self.exit_file.clone()),
            notes: vec![],
        })
    }
}

#[derive(Clone)]
struct Shared {
    mode: Mode,
    log: Log,
    program: String,
    child_launch: Arc<Mutex<Vec<Value>>>,
    /// The child ended: the root follows with its output and `terminated`.
    child_ended: Arc<Notify>,
    gates: Gates,
}

struct Out {
    w: tokio::net::tcp::OwnedWriteHalf,
    seq: i64,
}

impl Out {
    async fn send(&mut self, mut msg: Value) {
        self.seq += 1;
        msg["seq"] = json!(self.seq);
        let _ = self.w.write_all(&frame(msg.to_string().as_bytes())).await;
    }
    async fn respond(&mut self, req: &Value, body: Value) {
        self.send(json!({"type":"response","request_seq":req["seq"],"success":true,"command":req["command"],"body":body})).await;
    }
    async fn event(&mut self, name: &str, body: Value) {
        self.send(json!({"type":"event","event":name,"body":body}))
            .await;
    }
    async fn start_debugging(&mut self, name: &str, target: &str) {
        self.send(
            json!({"type": "request", "command": "startDebugging", "arguments": {
            "request": "launch",
            "configuration": {"type": "pwa-node", "name": name, "__pendingTargetId": target}}}),
        )
        .await;
    }
}

/// One connection: the root until a launch names a pending target.
async fn serve(sock: TcpStream, sh: Shared) {
    let (r, w) = sock.into_split();
    let mut out = Out { w, seq: 0 };
    let mut frames = FramedRead::new(r, DapCodec::default());
    let mut role = "?";
    let mut held: Option<Value> = None;
    let mut held_done: Option<Value> = None;
    let mut held_stack: Option<Value> = None;
    loop {
        let next = tokio::select! {
            f = frames.next() => f,
            _ = sh.gates.first_asked.notified(), if held_done.is_some() => {
                let done = held_done.take().unwrap();
                out.respond(&done, Value::Null).await;
                if let Some(l) = held.take() {
                    out.respond(&l, Value::Null).await;
                }
                continue;
            }
            _ = sh.gates.second_stops.notified(), if role == "sibling" => {
                out.event("stopped", json!({"reason": "breakpoint", "threadId": 0})).await;
                continue;
            }
            _ = sh.gates.first_answers.notified(), if held_stack.is_some() => {
                let st = held_stack.take().unwrap();
                out.respond(&st, json!({"stackFrames": [{"id": 1000, "name": role, "line": 2, "column": 1, "source": {"path": sh.program}}], "totalFrames": 1})).await;
                sh.log.lock().unwrap().push(format!("{role}:answered stackTrace"));
                continue;
            }
            _ = sh.child_ended.notified(), if role == "parent" => {
                out.event("output", json!({"category": "stdout", "output": "parent: the program ended\n"})).await;
                out.event("terminated", json!({"restart": false})).await;
                continue;
            }
        };
        let Some(Ok(bytes)) = next else { return };
        let bytes: BytesMut = bytes;
        let msg: Value = serde_json::from_slice(&bytes).expect("JSON");
        if msg["type"] == "response" {
            sh.log.lock().unwrap().push(format!(
                "{role}:answer {} {}",
                msg["command"].as_str().unwrap_or_default(),
                msg["success"]
            ));
            continue;
        }
        let cmd = msg["command"].as_str().unwrap_or_default().to_string();
        if cmd == "initialize"
            && sh.mode == Mode::CloseMidStart
            && sh.log.lock().unwrap().iter().any(|l| l == "parent:launch")
        {
            sh.log.lock().unwrap().push("child:closed".into());
            return;
        }
        if cmd == "launch" {
            role = match msg["arguments"]["__pendingTargetId"].as_str() {
                None => "parent",
                Some("T1") => "child",
                Some("T3") => "sibling",
                Some(_) => "grandchild",
            };
            if role != "parent" {
                sh.child_launch
                    .lock()
                    .unwrap()
                    .push(msg["arguments"].clone());
            }
        }
        sh.log.lock().unwrap().push(format!("{role}:{cmd}"));
        match cmd.as_str() {
            "initialize" => {
                out.respond(&msg, json!({"supportsConfigurationDoneRequest": true, "exceptionBreakpointFilters": [{"filter": "all", "label": "All"}]})).await
            }
            "launch" => {
                out.event("initialized", Value::Null).await;
                held = Some(msg.clone());
            }
            "setBreakpoints" => {
                let verified = role != "parent";
                let bps: Vec<Value> = msg["arguments"]["breakpoints"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .iter()
                    .map(|b| {
                        let mut v = json!({"id": b["line"], "verified": verified, "line": b["line"]});
                        if !verified {
                            v["message"] = json!("breakpoint.provisionalBreakpoint");
                        }
                        v
                    })
                    .collect();
                out.respond(&msg, json!({"breakpoints": bps})).await;
            }
            "setExceptionBreakpoints" => out.respond(&msg, Value::Null).await,
            "configurationDone" if role == "sibling" => held_done = Some(msg.clone()),
            "configurationDone" => {
                out.respond(&msg, Value::Null).await;
                if let Some(l) = held.take() {
                    out.respond(&l, Value::Null).await;
                }
                match role {
                    "parent" => {
                        out.event("output", json!({"category": "stderr", "output": "parent says hi\n"})).await;
                        out.start_debugging("prog.js [18436]", "T1").await;
                        if sh.mode == Mode::Siblings {
                            out.start_debugging("prog.js [18438]", "T3").await;
                        }
                    }
                    "child" if sh.mode == Mode::Grandchild => {
                        out.start_debugging("worker [18437]", "T2").await;
                    }
                    "child" if sh.mode == Mode::Running => {}
                    _ => {
                        // js-debug says `initialized` again, then continued
                        // before the stop, on thread 0.
                        out.event("initialized", Value::Null).await;
                        out.event("thread", json!({"reason": "started", "threadId": 0})).await;
                        out.event("continued", json!({"threadId": 0})).await;
                        out.event("stopped", json!({"reason": "breakpoint", "threadId": 0, "hitBreakpointIds": [2]})).await;
                    }
                }
            }
            "threads" => out.respond(&msg, json!({"threads": [{"id": 0, "name": role}]})).await,
            "stackTrace" if sh.mode == Mode::Siblings && role == "child" => {
                held_stack = Some(msg.clone());
                sh.gates.first_asked.notify_one();
            }
            "stackTrace" => {
                out.respond(&msg, json!({"stackFrames": [{"id": 1000, "name": role, "line": 2, "column": 1, "source": {"path": sh.program}}], "totalFrames": 1})).await
            }
            "scopes" => out.respond(&msg, json!({"scopes": [{"name": "Locals", "variablesReference": 7, "expensive": false}]})).await,
            "variables" => {
                out.respond(&msg, json!({"variables": [{"name": "x", "value": "42", "type": "number", "variablesReference": 0}]})).await
            }
            "continue" => {
                out.respond(&msg, json!({"allThreadsContinued": true})).await;
                out.event("continued", json!({"threadId": 0})).await;
                out.event("thread", json!({"reason": "exited", "threadId": 0})).await;
                out.event("terminated", Value::Null).await;
                sh.child_ended.notify_waiters();
            }
            "disconnect" => {
                out.respond(&msg, Value::Null).await;
                return;
            }
            _ => {
                out.send(json!({"type":"response","request_seq":msg["seq"],"success":false,"command":cmd,"message":"not scripted"})).await;
            }
        }
    }
}

struct Run {
    s: SessionHandle,
    log: Log,
    gates: Gates,
    child_launch: Arc<Mutex<Vec<Value>>>,
    exit_file: PathBuf,
    _ws: tempfile::TempDir,
}

fn start(mode: Mode) -> Run {
    let ws = common::workspace(&[("prog.js", "let x = 41;\nx += 1;\nconsole.log(x);\n")]);
    let workspace = Workspace::new(ws.path(), false);
    let request = LaunchRequest {
        program: Some("prog.js".into()),
        language: Some("python".into()),
        breakpoints: vec![BreakpointRequest {
            file: "prog.js".into(),
            line: 2,
            ..Default::default()
        }],
        ..Default::default()
    };
    let mut config = request
        .validate(&workspace, Duration::from_secs(5))
        .expect("valid launch");
    config.adapter = &FAKE;
    let exit_file = ws.path().join("exit-code");
    std::fs::write(&exit_file, "3\n").expect("exit file");
    let log = Arc::new(Mutex::new(vec![]));
    let child_launch = Arc::new(Mutex::new(vec![]));
    let gates = Gates::default();
    let fake = Fake {
        gates: gates.clone(),
        mode,
        log: log.clone(),
        program: workspace.root.join("prog.js").display().to_string(),
        child_launch: child_launch.clone(),
        exit_file: exit_file.clone(),
    };
    let s = SessionHandle::launch_with("t1".into(), config, Arc::new(fake));
    Run {
        s,
        log,
        gates,
        child_launch,
        exit_file,
        _ws: ws,
    }
}

/// Waits, on the snapshots the session publishes, until `pred` holds.
async fn wait_until(
    s: &SessionHandle,
    what: &str,
    pred: impl Fn(&Snapshot) -> bool,
) -> Arc<Snapshot> {
    let mut rx = s.watch_snapshots();
    let found = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let snap = rx.borrow_and_update().clone();
            if pred(&snap) {
                return snap;
            }
            if rx.changed().await.is_err() {
                return snap;
            }
        }
    })
    .await;
    match found {
        Ok(snap) if pred(&snap) => snap,
        _ => panic!("{what}: not seen; the session is {:?}", s.snapshot()),
    }
}

fn log_of(log: &Log) -> Vec<String> {
    log.lock().unwrap().clone()
}

#[tokio::test]
async fn a_js_debug_shaped_run_stops_on_the_child_and_ends_with_the_root() {
    let run = start(Mode::Replay);
    let s = &run.s;
    let WaitOutcome::Stopped(snap) = s.wait_for_stop(0, Duration::from_secs(10)).await else {
        panic!("no stop; requests were {:?}", log_of(&run.log));
    };
    let stop = snap.stop.as_ref().expect("stop");
    assert_eq!(stop.thread_id, 0, "thread 0 is a real thread");
    assert_eq!(
        stop.frames[0].name, "child",
        "the stop is read on the child"
    );
    assert_eq!(stop.process.as_deref(), Some("prog.js [18436]"));
    assert_eq!(
        run.child_launch.lock().unwrap().clone(),
        vec![json!({"type": "pwa-node", "name": "prog.js [18436]", "__pendingTargetId": "T1"})],
        "the child's launch is the configuration, verbatim"
    );
    let log = log_of(&run.log);
    assert_eq!(
        log.iter()
            .filter(|l| *l == "child:configurationDone")
            .count(),
        1,
        "a second `initialized` configures nothing: {log:?}"
    );
    assert!(
        log.contains(&"parent:answer startDebugging true".to_string()),
        "{log:?}"
    );
    assert!(
        snap.breakpoints[0].verified,
        "the child bound it: {:?}",
        snap.breakpoints
    );
    assert_eq!(snap.children.len(), 1, "{:?}", snap.children);
    assert_eq!(snap.children[0].name, "prog.js [18436]");

    let seq = s.resume(Origin::Agent).await.expect("continue");
    let WaitOutcome::Exited(snap) = s.wait_for_stop(seq, Duration::from_secs(10)).await else {
        panic!("no exit; requests were {:?}", log_of(&run.log));
    };
    assert_eq!(
        snap.exit.as_ref().and_then(|e| e.exit_code),
        Some(3),
        "the code comes from the exit file"
    );
    assert!(!run.exit_file.exists(), "the exit file is deleted");
    let out = s.read_output(0, 4096).text;
    assert!(
        out.contains("parent says hi"),
        "output from the parent: {out}"
    );
    assert!(out.contains("the program ended"), "{out}");
    // The child is let go before the root.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let pos = |log: &[String], w: &str| log.iter().position(|l| l == w);
    loop {
        let log = log_of(&run.log);
        if let (Some(c), Some(p)) = (
            pos(&log, "child:disconnect"),
            pos(&log, "parent:disconnect"),
        ) {
            assert!(c < p, "the child is disconnected first: {log:?}");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no disconnects: {log:?}"
        );
        tokio::task::yield_now().await;
        let _ = tokio::time::timeout(Duration::from_millis(20), std::future::pending::<()>()).await;
    }
}

#[tokio::test]
async fn a_child_that_closes_while_it_starts_ends_only_itself() {
    let run = start(Mode::CloseMidStart);
    let s = &run.s;
    let snap = wait_until(s, "the child's end", |snap| {
        snap.children.iter().any(|c| c.state == "ended")
    })
    .await;
    assert_eq!(
        snap.state,
        RunState::Running,
        "the session runs on: {:?}",
        snap.error
    );
    assert!(snap.error.is_none(), "{:?}", snap.error);
    assert!(
        snap.changes
            .iter()
            .any(|c| c.what.contains("prog.js [18436]")),
        "the person and the agent are told: {:?}",
        snap.changes
    );
    s.terminate(Origin::Agent).await.expect("terminate");
}

#[tokio::test]
async fn a_grandchild_asked_for_on_a_childs_connection_starts_and_stops() {
    let run = start(Mode::Grandchild);
    let s = &run.s;
    let WaitOutcome::Stopped(snap) = s.wait_for_stop(0, Duration::from_secs(10)).await else {
        panic!("no stop; requests were {:?}", log_of(&run.log));
    };
    let stop = snap.stop.as_ref().expect("stop");
    assert_eq!(stop.frames[0].name, "grandchild");
    assert_eq!(stop.process.as_deref(), Some("worker [18437]"));
    let names: Vec<&str> = snap.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["prog.js [18436]", "worker [18437]"]);
    let log = log_of(&run.log);
    assert!(
        log.contains(&"child:answer startDebugging true".to_string()),
        "{log:?}"
    );
    let threads = s.threads(Origin::Agent).await.expect("threads");
    let processes: Vec<Option<&str>> = threads.iter().map(|t| t.process.as_deref()).collect();
    assert_eq!(
        processes,
        [
            Some("main"),
            Some("prog.js [18436]"),
            Some("worker [18437]")
        ],
        "every live connection's threads, by process"
    );
    s.terminate(Origin::Agent).await.expect("terminate");
}

#[tokio::test]
async fn a_breakpoint_set_while_running_reaches_every_connection_and_the_child_verifies_it() {
    let run = start(Mode::Running);
    let s = &run.s;
    wait_until(s, "the child running", |snap| {
        snap.children.iter().any(|c| c.state == "running")
    })
    .await;
    let bp = s
        .set_breakpoint(
            Origin::Agent,
            BreakpointRequest {
                file: "prog.js".into(),
                line: 3,
                ..Default::default()
            },
        )
        .await
        .expect("set");
    assert!(bp.verified, "the child's verification wins: {bp:?}");
    let log = log_of(&run.log);
    let sets = |role: &str| {
        log.iter()
            .filter(|l| *l == &format!("{role}:setBreakpoints"))
            .count()
    };
    assert_eq!(sets("parent"), 2, "{log:?}");
    assert_eq!(sets("child"), 2, "{log:?}");
    s.terminate(Origin::Agent).await.expect("terminate");
}

fn top_frame(snap: &Snapshot) -> Option<&str> {
    snap.stop.as_ref()?.frames.first().map(|f| f.name.as_str())
}

#[tokio::test]
async fn a_childs_stop_read_late_does_not_land_on_the_child_that_took_the_focus() {
    let run = start(Mode::Siblings);
    let s = &run.s;
    // The first child stopped and its stack is still being read when the
    // second child is configured (and takes the focus) and stops.
    wait_until(s, "the second child running", |snap| {
        snap.children
            .iter()
            .any(|c| c.name == "prog.js [18438]" && c.state == "running")
    })
    .await;
    run.gates.second_stops.notify_one();
    let snap = wait_until(s, "the second child's stop", |snap| {
        top_frame(snap) == Some("sibling")
    })
    .await;
    let second = snap.stop.as_ref().and_then(|st| st.child);
    assert_eq!(
        snap.stop.as_ref().unwrap().process.as_deref(),
        Some("prog.js [18438]")
    );

    // Now the first child's stack answer comes, and the reads after it.
    run.gates.first_answers.notify_one();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !log_of(&run.log)
        .iter()
        .any(|l| l == "child:answered stackTrace")
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{:?}",
            log_of(&run.log)
        );
        tokio::task::yield_now().await;
    }
    // A request to every connection answered after the first child's
    // reads, then one more turn of the session: their result has landed.
    s.threads(Origin::Agent).await.expect("threads");
    s.threads(Origin::Agent).await.expect("threads");

    let snap = s.snapshot();
    assert_eq!(
        top_frame(&snap),
        Some("sibling"),
        "the viewport shows the second child's frame: {:?}",
        snap.stop
    );
    let stop = snap.stop.as_ref().unwrap();
    assert_eq!(stop.child, second);
    assert_eq!(stop.process.as_deref(), Some("prog.js [18438]"));
    s.terminate(Origin::Agent).await.expect("terminate");
}
