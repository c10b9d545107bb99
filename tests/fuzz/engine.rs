//! The engine's handling of adapter messages: a scripted adapter answers
//! each request with the next response of its command from the input (a
//! DAP message a line, as the recorded transcripts have them), sends the
//! input's events after the response they follow, and the rest of them
//! once the configuration is done; the adapter's reverse requests
//! (runInTerminal, startDebugging) go out where the input has them. Then it
//! stops the program for certain, and ends it at the first resume: the
//! session must reach that stop (or an end the input caused), answer reads,
//! and end when told, every time. runInTerminal is refused here (the
//! session has no terminal), so nothing the input names is run; a child
//! session (debugpy's kind, over TCP) meets the same script, less its
//! reverse requests (see `reverse`).

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use futures::StreamExt;
use pairdbg::dap::codec::{DapCodec, frame};
use pairdbg::session::connector::{Connector, Spawned, Transport};
use pairdbg::session::handle::WaitOutcome;
use pairdbg::session::{
    LaunchConfig, LaunchRequest, Origin, SessionError, SessionHandle, StepKind,
};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;
use tokio_util::codec::FramedRead;

use super::workspace;

/// How long a read waits for the scripted adapter before it is given up.
const REQUEST_TIMEOUT: Duration = Duration::from_millis(300);
/// Past this, a wait is a hang of the engine: the script always stops the
/// program and always ends it. Long enough for a debug build on a busy
/// machine.
const WAIT: Duration = if cfg!(debug_assertions) {
    Duration::from_secs(20)
} else {
    Duration::from_secs(5)
};

/// A message of the input, numbered in the input's order.
type Sent = (usize, Vec<u8>);

/// The input, cut into what answers requests and what comes unasked.
#[derive(Default, Clone)]
struct Script {
    /// Per command, its responses in order, each with the messages that
    /// followed it in the input.
    responses: BTreeMap<String, VecDeque<(Value, Vec<Sent>)>>,
    /// What came before any response.
    opening: Vec<Sent>,
    /// The adapter sends `initialized` with its answer to `launch`.
    says_initialized: bool,
}

/// The input's script; a child's (`child_port` None) leaves out the
/// reverse requests, or each child would ask for another without end.
fn script(data: &[u8], child_port: Option<u16>) -> Script {
    let mut s = Script {
        says_initialized: !data.len().is_multiple_of(4),
        ..Script::default()
    };
    let mut last: Option<String> = None;
    for (i, line) in data.split(|b| *b == b'\n').enumerate() {
        let raw: Value = match serde_json::from_slice::<Value>(line) {
            // A recorded line keeps the message under `msg`.
            Ok(v) => v.get("msg").cloned().unwrap_or(v),
            // Not JSON: sent as it is, a body the engine must refuse.
            Err(_) => {
                if !line.is_empty() {
                    follow(&mut s, &last, (i, line.to_vec()));
                }
                continue;
            }
        };
        match raw.get("type").and_then(Value::as_str) {
            // The adapter's reverse requests (runInTerminal, startDebugging,
            // any other), sent where they came, as events are.
            Some("request") => {
                if let Some(port) = child_port {
                    let sent = reverse(raw, port).to_string().into_bytes();
                    follow(&mut s, &last, (i, sent));
                }
            }
            Some("response") => {
                let command = raw
                    .get("command")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                s.responses
                    .entry(command.clone())
                    .or_default()
                    .push_back((raw, vec![]));
                last = Some(command);
            }
            _ => follow(&mut s, &last, (i, raw.to_string().into_bytes())),
        }
    }
    s
}

/// A child session connects to `port`, where the input's script plays the
/// child: a mutated port would reach whatever runs on this machine.
fn reverse(mut raw: Value, port: u16) -> Value {
    if let Some(p) = raw.pointer_mut("/arguments/configuration/connect/port")
        && p.is_u64()
    {
        *p = json!(port);
    }
    raw
}

fn follow(s: &mut Script, last: &Option<String>, sent: Sent) {
    match last
        .as_ref()
        .and_then(|c| s.responses.get_mut(c)?.back_mut())
    {
        Some((_, after)) => after.push(sent),
        None => s.opening.push(sent),
    }
}

/// Every event not sent yet, in the input's order, cut before the first
/// that ends the program: what comes before it, and it with the rest.
fn rest(script: &mut Script) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let mut all: Vec<Sent> = script
        .responses
        .values_mut()
        .flat_map(|q| q.iter_mut().flat_map(|(_, after)| std::mem::take(after)))
        .collect();
    all.sort_by_key(|(i, _)| *i);
    let mut all: Vec<Vec<u8>> = all.into_iter().map(|(_, b)| b).collect();
    let end = all.iter().position(|b| {
        serde_json::from_slice::<Value>(b).is_ok_and(|v| {
            matches!(
                v.get("event").and_then(Value::as_str),
                Some("terminated" | "exited")
            )
        })
    });
    let later = end.map(|i| all.split_off(i)).unwrap_or_default();
    (all, later)
}

struct Fake {
    script: Script,
    connects: AtomicU32,
}

impl Connector for Fake {
    fn connect(&self, config: &LaunchConfig) -> Result<Spawned, SessionError> {
        // A restart connects again; a loop of them is the engine's to stop.
        if self.connects.fetch_add(1, Ordering::SeqCst) > 4 {
            return Err(SessionError::State(
                "the scripted adapter connects only 5 times".into(),
            ));
        }
        let (ours, theirs) = tokio::io::duplex(256 * 1024);
        let (r, w) = tokio::io::split(ours);
        tokio::spawn(play(theirs, self.script.clone()));
        Ok(Spawned {
            process: None,
            transport: Transport::Stdio {
                reader: Box::pin(r),
                writer: Box::pin(w),
            },
            program_output: None,
            on_terminal: false,
            start: (
                "launch",
                json!({"program": config.program.as_ref().map(|p| p.display().to_string())}),
            ),
            exit_code_file: None,
            notes: vec![],
        })
    }
}

async fn play<S>(io: S, mut script: Script)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite,
{
    let (r, mut w) = tokio::io::split(io);
    let mut frames = FramedRead::new(r, DapCodec::default());
    let mut seq = 1_000_000;
    let mut opened = false;
    let mut ending: Vec<Vec<u8>> = vec![];
    while let Some(Ok(bytes)) = frames.next().await {
        let Ok(req) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        if req.get("type").and_then(Value::as_str) != Some("request") {
            continue;
        }
        let command = req["command"].as_str().unwrap_or_default().to_string();
        let mut out: Vec<Vec<u8>> = vec![];
        let scripted = script
            .responses
            .get_mut(&command)
            .and_then(VecDeque::pop_front);
        match scripted {
            Some((mut response, after)) => {
                response["request_seq"] = req["seq"].clone();
                out.push(response.to_string().into_bytes());
                out.extend(after.into_iter().map(|(_, b)| b));
            }
            None => {
                seq += 1;
                let body = match command.as_str() {
                    "initialize" => json!({"supportsConfigurationDoneRequest": true}),
                    _ => json!({}),
                };
                out.push(
                    json!({"seq": seq, "type": "response", "request_seq": req["seq"], "success": true, "command": command, "body": body})
                        .to_string()
                        .into_bytes(),
                );
            }
        }
        // The engine configures only once told `initialized`: most inputs
        // get it, so that they reach a stop; a quarter are left to say it
        // themselves or not, which the engine's deadline for it ends.
        if matches!(command.as_str(), "launch" | "attach") && script.says_initialized {
            out.push(br#"{"seq":1,"type":"event","event":"initialized"}"#.to_vec());
        }
        if !opened {
            opened = true;
            let opening = std::mem::take(&mut script.opening);
            out.splice(1..1, opening.into_iter().map(|(_, b)| b));
        }
        if command == "configurationDone" {
            let (now, later) = rest(&mut script);
            out.extend(now);
            ending = later;
            out.push(br#"{"seq":2,"type":"event","event":"stopped","body":{"reason":"pause","threadId":1,"allThreadsStopped":true}}"#.to_vec());
        } else if matches!(command.as_str(), "continue" | "next" | "stepIn" | "stepOut") {
            // Configured or not: an input that never says `initialized`
            // may still stop the program, and the step from that stop
            // must end it too.
            out.append(&mut ending);
            out.push(
                br#"{"seq":3,"type":"event","event":"exited","body":{"exitCode":0}}"#.to_vec(),
            );
            out.push(br#"{"seq":4,"type":"event","event":"terminated"}"#.to_vec());
        }
        for body in out {
            if w.write_all(&frame(&body)).await.is_err() {
                return;
            }
        }
        if command == "disconnect" {
            return;
        }
    }
}

/// The languages whose launch of the workspace's programs validates here.
fn launches() -> &'static [LaunchConfig] {
    static ALL: OnceLock<Vec<LaunchConfig>> = OnceLock::new();
    ALL.get_or_init(|| {
        let ws = workspace::workspace();
        [
            ("python", "prog.py"),
            ("c", "prog.c"),
            ("javascript", "prog.js"),
        ]
        .iter()
        .filter_map(|(language, program)| {
            LaunchRequest {
                program: Some(program.to_string()),
                language: Some(language.to_string()),
                ..Default::default()
            }
            .validate(&ws, REQUEST_TIMEOUT)
            .ok()
        })
        .collect()
    })
}

pub fn run(data: &[u8]) {
    let configs = launches();
    assert!(
        !configs.is_empty(),
        "no language launches in the fuzz workspace"
    );
    let config = configs[data.len() % configs.len()].clone();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let children = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback listener");
        let port = children.local_addr().expect("its address").port();
        let child = script(data, None);
        // Ends with the runtime, after this input.
        tokio::spawn(async move {
            while let Ok((sock, _)) = children.accept().await {
                tokio::spawn(play(sock, child.clone()));
            }
        });
        let fake = Arc::new(Fake {
            script: script(data, Some(port)),
            connects: AtomicU32::new(0),
        });
        let s = SessionHandle::launch_with("f1".into(), config, fake);
        let snap = match s.wait_for_stop(0, WAIT).await {
            WaitOutcome::Stopped(snap) => Some(snap),
            WaitOutcome::TimedOut(snap) | WaitOutcome::Running(snap) => panic!(
                "the session neither stopped nor ended within {WAIT:?}: {:?}",
                snap.state
            ),
            WaitOutcome::Exited(_) | WaitOutcome::Failed(_) => None,
        };
        if let Some(snap) = snap {
            let reads = async {
                let _ = s.stack(Origin::Agent, 20).await;
                let _ = s.threads(Origin::Agent).await;
                let _ = s.scopes(Origin::Agent, 0).await;
                let _ = s.evaluate(Origin::Agent, "x".into(), 0).await;
                // The step ends the program: the script ends it at a resume.
                if s.step(Origin::Agent, StepKind::Over, 1).await.is_ok() {
                    let after = s.wait_for_stop(snap.stop_seq, WAIT).await;
                    assert!(
                        !matches!(after, WaitOutcome::TimedOut(_)),
                        "the program's end after the step was not seen within {WAIT:?}"
                    );
                }
            };
            tokio::time::timeout(WAIT * 2, reads)
                .await
                .unwrap_or_else(|_| panic!("reads at a stop took over {:?}", WAIT * 2));
        }
        tokio::time::timeout(WAIT, s.terminate(Origin::Agent))
            .await
            .unwrap_or_else(|_| panic!("ending the session took over {WAIT:?}"))
            .ok();
    });
}
