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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_java_server_speaks_dap_in_order() {
    if !java_available() {
        return;
    }
    let ws = workspace(&[("Counter.java", COUNTER)]);
    let file = ws.path().join("Counter.java");
    let mut spec = LaunchSpec::for_workspace(ws.path());
    spec.target = Target::Program(file.clone());
    let adapter = pairdbg::adapters::by_name("jdi").expect("the Java adapter");
    let spawned = adapter.spawn(&spec).expect("spawn");
    let mut process = spawned.process.expect("a process");
    let server = process.pid().expect("a pid");
    let Transport::Stdio { reader, writer } = spawned.transport else {
        panic!("the server speaks over stdio");
    };
    let mut w = Wire {
        reader: FramedRead::new(reader, DapCodec::default()),
        writer,
        seq: 0,
        seen: vec![],
    };

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
    let (command, arguments) = spawned.start;
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
