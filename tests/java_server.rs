//! pairdbg's Java debug server alone, spoken to in DAP over its stdio as
//! pairdbg spawns it, with every message read in wire order: deferred
//! breakpoints verified when their class loads, log points, a step's answer
//! before the stop it causes, a parse error in one line, pause, and
//! terminate ending the program with its exit code and leaving nothing.

mod common;

use std::pin::Pin;
use std::time::Duration;

use common::*;
use futures::StreamExt;
use pairdbg::adapters::{LaunchSpec, Target, Transport};
use pairdbg::dap::codec::{DapCodec, frame};
use pairdbg::dap::process::AdapterProcess;
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio_util::codec::FramedRead;

const COUNTER: &str = "public class Counter {
    public static void main(String[] args) throws Exception {
        int total = 0;
        for (int i = 0; i < 5; i++) {
            total += i;
        }
        System.out.println(\"total \" + total);
        while (true) {
            Thread.sleep(10);
        }
    }
}
";

struct Wire {
    reader: FramedRead<Pin<Box<dyn AsyncRead + Send>>, DapCodec>,
    writer: Pin<Box<dyn AsyncWrite + Send>>,
    seq: i64,
    /// Every message read, in wire order.
    seen: Vec<Value>,
}

impl Wire {
    async fn send(&mut self, command: &str, arguments: Value) -> i64 {
        self.seq += 1;
        let body = json!({"seq": self.seq, "type": "request", "command": command,
                          "arguments": arguments});
        let bytes = frame(body.to_string().as_bytes());
        self.writer.write_all(&bytes).await.expect("write");
        self.writer.flush().await.expect("flush");
        self.seq
    }

    /// Reads until a message matches, within a deadline; answers it.
    async fn until(&mut self, what: &str, matches: impl Fn(&Value) -> bool) -> Value {
        loop {
            let next = tokio::time::timeout(Duration::from_secs(60), self.reader.next())
                .await
                .unwrap_or_else(|_| panic!("no {what} in 60 s; read: {:#?}", self.seen));
            let bytes = next
                .unwrap_or_else(|| panic!("the server closed before {what}: {:#?}", self.seen))
                .expect("a frame");
            let m: Value = serde_json::from_slice(&bytes).expect("JSON");
            self.seen.push(m.clone());
            if matches(&m) {
                return m;
            }
        }
    }

    async fn response(&mut self, seq: i64) -> Value {
        self.until("a response", |m| {
            m["type"] == "response" && m["request_seq"] == seq
        })
        .await
    }

    async fn request(&mut self, command: &str, arguments: Value) -> Value {
        let seq = self.send(command, arguments).await;
        self.response(seq).await
    }

    async fn event(&mut self, name: &str) -> Value {
        self.until(name, |m| m["type"] == "event" && m["event"] == name)
            .await
    }

    fn index_of(&self, pred: impl Fn(&Value) -> bool) -> Option<usize> {
        self.seen.iter().position(pred)
    }
}

/// The server as pairdbg spawns it for `program`, and its launch request.
fn open(
    ws: &std::path::Path,
    program: &std::path::Path,
) -> (Wire, AdapterProcess, (&'static str, Value)) {
    let mut spec = LaunchSpec::for_workspace(ws);
    spec.target = Target::Program(program.to_path_buf());
    let adapter = pairdbg::adapters::by_name("jdi").expect("the Java adapter");
    let spawned = adapter.spawn(&spec).expect("spawn");
    let process = spawned.process.expect("a process");
    let Transport::Stdio { reader, writer } = spawned.transport else {
        panic!("the server speaks over stdio");
    };
    let w = Wire {
        reader: FramedRead::new(reader, DapCodec::default()),
        writer,
        seq: 0,
        seen: vec![],
    };
    (w, process, spawned.start)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_java_server_speaks_dap_in_order() {
    if !java_available() {
        return;
    }
    let ws = workspace(&[("Counter.java", COUNTER)]);
    let file = ws.path().join("Counter.java");
    let (mut w, mut process, start) = open(ws.path(), &file);
    let server = process.pid().expect("a pid");

    let init = w.request("initialize", json!({"adapterID": "java"})).await;
    let caps = &init["body"];
    for cap in [
        "supportsConfigurationDoneRequest",
        "supportsConditionalBreakpoints",
        "supportsHitConditionalBreakpoints",
        "supportsLogPoints",
        "supportsFunctionBreakpoints",
        "supportsSetVariable",
        "supportsExceptionInfoRequest",
        "supportsExceptionOptions",
        "supportsTerminateRequest",
    ] {
        assert_eq!(caps[cap], true, "{cap}: {caps}");
    }
    assert_eq!(caps["supportsStepBack"], false);
    let (command, arguments) = start;
    let launch = w.request(command, arguments).await;
    assert_eq!(launch["success"], true, "{launch}");
    w.event("initialized").await;

    let set = w
        .request(
            "setBreakpoints",
            json!({"source": {"path": file}, "breakpoints": [
                {"line": 5, "logMessage": "i={i} total={total}"},
                {"line": 6, "hitCondition": "1"},
                {"line": 7}]}),
        )
        .await;
    let bps = set["body"]["breakpoints"]
        .as_array()
        .expect("breakpoints")
        .clone();
    assert_eq!(bps.len(), 3, "{set}");
    assert!(
        bps.iter().all(|b| b["verified"] == false),
        "not loaded yet: {set}"
    );
    w.request("configurationDone", json!({})).await;

    // The class loads: each breakpoint is verified, the one on the loop's
    // closing brace (no code) at the next line with some.
    let stop = w.event("stopped").await;
    let verified: Vec<(i64, i64)> = w
        .seen
        .iter()
        .filter(|m| m["event"] == "breakpoint")
        .map(|m| {
            let b = &m["body"]["breakpoint"];
            assert_eq!(b["verified"], true, "{m}");
            (
                b["id"].as_i64().unwrap_or(0),
                b["line"].as_i64().unwrap_or(0),
            )
        })
        .collect();
    let ids: Vec<i64> = bps.iter().map(|b| b["id"].as_i64().unwrap_or(-1)).collect();
    assert!(verified.contains(&(ids[0], 5)), "{verified:?}");
    assert!(verified.contains(&(ids[2], 7)), "{verified:?}");
    assert!(
        verified.iter().any(|(id, line)| *id == ids[1] && *line > 6),
        "{verified:?}"
    );
    let logged: String = w
        .seen
        .iter()
        .filter(|m| m["event"] == "output" && m["body"]["category"] == "console")
        .filter_map(|m| m["body"]["output"].as_str())
        .collect();
    assert_eq!(
        logged,
        "i=0 total=0\ni=1 total=0\ni=2 total=1\ni=3 total=3\ni=4 total=6\n"
    );
    assert_eq!(stop["body"]["reason"], "breakpoint", "{stop}");
    let thread = stop["body"]["threadId"].clone();

    // A step's answer comes before the stop it causes.
    let next = w.send("next", json!({"threadId": thread})).await;
    w.event("stopped").await;
    let answered = w
        .index_of(|m| m["type"] == "response" && m["request_seq"] == next)
        .expect("the step was answered");
    let stopped = w.seen.len() - 1;
    assert!(
        answered < stopped,
        "{:#?}",
        &w.seen[answered.min(stopped)..]
    );
    let frames = w
        .request("stackTrace", json!({"threadId": thread, "levels": 1}))
        .await;
    let top = &frames["body"]["stackFrames"][0];
    // `while (true)` leaves no code on its own line: the step lands in its body.
    assert_eq!(top["line"], 9, "{frames}");
    assert_eq!(top["name"], "Counter.main", "{frames}");
    assert_eq!(
        top["source"]["path"].as_str(),
        file.canonicalize().ok().as_deref().and_then(|p| p.to_str()),
        "{frames}"
    );

    let bad = w
        .request(
            "evaluate",
            json!({"expression": "total +", "frameId": top["id"], "context": "repl"}),
        )
        .await;
    assert_eq!(bad["success"], false, "{bad}");
    let message = bad["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("cannot parse") && !message.contains('\n'),
        "{message}"
    );
    let ok = w
        .request(
            "evaluate",
            json!({"expression": "total * 2 + 1", "frameId": top["id"]}),
        )
        .await;
    assert_eq!(ok["body"]["result"], "21", "{ok}");

    // Running, then paused where it loops.
    w.request("continue", json!({"threadId": thread})).await;
    w.request("pause", json!({"threadId": thread})).await;
    let paused = w.event("stopped").await;
    assert_eq!(paused["body"]["reason"], "pause", "{paused}");

    // terminate ends the JVM: its exit code, then the end.
    let jvms: Vec<u32> = descendants(server)
        .into_iter()
        .filter(|p| comm(*p).as_deref() == Some("java"))
        .collect();
    assert_eq!(jvms.len(), 1, "the program's JVM under the server");
    w.request("terminate", json!({})).await;
    let exited = w.event("exited").await;
    assert!(exited["body"]["exitCode"].is_i64(), "{exited}");
    w.event("terminated").await;
    let left = wait_dead(&jvms, Duration::from_secs(10)).await;
    assert!(left.is_empty(), "the program's JVM outlived terminate");
    w.request("disconnect", json!({})).await;
    let left = wait_dead(&[server], Duration::from_secs(10)).await;
    assert!(left.is_empty(), "the server outlived disconnect");
    process.kill_all();
}

const FAILS: &str = "public class Fails {
    String label = \"start\";

    void check(int n) {
        String note = \"n is \" + n;
        try {
            Integer.parseInt(note);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(\"check failed: \" + label, e);
        }
    }

    public static void main(String[] args) {
        new Fails().check(4);
    }
}
";

/// An uncaught exception stops where it is thrown; exceptionInfo gives its
/// type, message and cause; a String local and a field take new values.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_java_server_tells_an_exception_and_its_cause() {
    if !java_available() {
        return;
    }
    let ws = workspace(&[("Fails.java", FAILS)]);
    let file = ws.path().join("Fails.java");
    let (mut w, mut process, (command, arguments)) = open(ws.path(), &file);
    w.request("initialize", json!({"adapterID": "java"})).await;
    w.request(command, arguments).await;
    w.event("initialized").await;
    w.request(
        "setBreakpoints",
        json!({"source": {"path": file}, "breakpoints": [{"line": 7}]}),
    )
    .await;
    w.request("setExceptionBreakpoints", json!({"filters": ["uncaught"]}))
        .await;
    w.request("configurationDone", json!({})).await;
    let stop = w.event("stopped").await;
    let thread = stop["body"]["threadId"].clone();
    let frames = w
        .request("stackTrace", json!({"threadId": thread, "levels": 1}))
        .await;
    let frame = frames["body"]["stackFrames"][0]["id"].clone();
    let scopes = w.request("scopes", json!({"frameId": frame})).await;
    let locals = scopes["body"]["scopes"][0]["variablesReference"].clone();
    let set = w
        .request(
            "setVariable",
            json!({"variablesReference": locals, "name": "note", "value": "\"7\""}),
        )
        .await;
    assert_eq!(set["body"]["value"], "\"7\"", "{set}");
    let vars = w
        .request("variables", json!({"variablesReference": locals}))
        .await;
    let this = vars["body"]["variables"]
        .as_array()
        .and_then(|v| v.iter().find(|x| x["name"] == "this"))
        .map(|x| x["variablesReference"].clone())
        .unwrap_or_else(|| panic!("this: {vars}"));
    let bad = w
        .request(
            "setVariable",
            json!({"variablesReference": this, "name": "label", "value": "3"}),
        )
        .await;
    assert_eq!(bad["success"], false, "{bad}");
    assert!(
        bad["message"]
            .as_str()
            .unwrap_or_default()
            .contains("label is a String"),
        "{bad}"
    );
    w.request(
        "setVariable",
        json!({"variablesReference": this, "name": "label", "value": "\"edited\""}),
    )
    .await;
    // "7" parses: no exception, and the program ends with 0.
    w.request("continue", json!({"threadId": thread})).await;
    let exited = w.event("exited").await;
    assert_eq!(exited["body"]["exitCode"], 0, "{exited}");
    w.event("terminated").await;
    w.request("disconnect", json!({})).await;
    process.kill_all();

    // Again, untouched: the exception, where it is thrown.
    let (mut w, mut process, (command, arguments)) = open(ws.path(), &file);
    w.request("initialize", json!({"adapterID": "java"})).await;
    w.request(command, arguments).await;
    w.event("initialized").await;
    // Caught or not, this class only: the NumberFormatException before it
    // does not stop.
    w.request(
        "setExceptionBreakpoints",
        json!({"filters": [], "filterOptions": [
            {"filterId": "caught", "condition": "java.lang.IllegalStateException"}]}),
    )
    .await;
    w.request("configurationDone", json!({})).await;
    let stop = w.event("stopped").await;
    assert_eq!(stop["body"]["reason"], "exception", "{stop}");
    let thread = stop["body"]["threadId"].clone();
    let frames = w
        .request("stackTrace", json!({"threadId": thread, "levels": 1}))
        .await;
    assert_eq!(frames["body"]["stackFrames"][0]["line"], 9, "{frames}");
    let info = w
        .request("exceptionInfo", json!({"threadId": thread}))
        .await;
    let body = &info["body"];
    assert_eq!(
        body["exceptionId"], "java.lang.IllegalStateException",
        "{info}"
    );
    assert_eq!(body["description"], "check failed: start", "{info}");
    assert_eq!(body["breakMode"], "unhandled", "nothing catches it: {info}");
    let cause = &body["details"]["innerException"][0];
    assert_eq!(
        cause["fullTypeName"], "java.lang.NumberFormatException",
        "{info}"
    );
    assert_eq!(cause["message"], "For input string: \"n is 4\"", "{info}");
    w.request("continue", json!({"threadId": thread})).await;
    let exited = w.event("exited").await;
    assert_eq!(exited["body"]["exitCode"], 1, "{exited}");
    w.request("disconnect", json!({})).await;
    process.kill_all();
}
