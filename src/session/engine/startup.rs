//! Start-up: spawn the adapter, initialize, launch, and configure when the
//! adapter says `initialized`, whichever order it says it in.

use crate::sync::Locked;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::pin::Pin;

use futures::future::join_all;
use serde_json::Value;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, BufReader};

use super::connection::ConnState;
use super::opening::{self, Opening};
use super::tree::ConnMsg;
use super::{Apply, Engine};
use crate::dap::{DapClient, Settings};
use crate::session::connector::{ProgramOutput, Transport};
use crate::session::error::SessionError;
use crate::session::initialize::initialize_arguments;
use crate::session::link::Link;
use crate::session::output::Stream;
use crate::session::run_in_terminal::reverse_handler;
use crate::session::types::RunState;

/// The longest wait for a remote debug server to accept the connection.
const REMOTE_CONNECT: std::time::Duration = std::time::Duration::from_secs(10);

impl Engine {
    /// Starts the adapter, after the build step where there is one.
    pub(super) fn start_adapter(&mut self) {
        if self.config.build.is_some() {
            return self.start_build();
        }
        self.spawn_and_report();
    }

    pub(super) fn spawn_and_report(&mut self) {
        if let Err(e) = self.spawn_adapter() {
            self.fail(e.to_string());
        }
    }

    /// Synchronous on purpose: fork and exec at most, so the actor never
    /// waits on the adapter. A TCP adapter is connected to in a task.
    pub(super) fn spawn_adapter(&mut self) -> Result<(), SessionError> {
        self.open_terminal();
        // Inherited by the adapter, and by the program it starts.
        let core_limit = self
            .config
            .keep_core
            .then(crate::session::keep_core::raise_limit)
            .and_then(Result::err);
        let spawned = self.connector.connect(&self.config)?;
        let root = self.tree.root;
        self.conn.process = spawned.process;
        self.conn.on_terminal = spawned.on_terminal;
        self.exit_code_file = spawned.exit_code_file;
        self.crash_dump = self
            .config
            .adapter
            .crash_dump(&self.config.spec())
            .map(|p| (p, std::time::SystemTime::now()));
        self.snap.info = spawned.notes;
        if let Some(tty) = self.config.tty.as_ref().filter(|_| spawned.on_terminal) {
            let note = format!(
                "The program runs on {}: its input and output are there.",
                tty.display()
            );
            self.snap.info.push(note);
        }
        if let Some(note) = self.config.adapter_note {
            self.snap.info.insert(0, note.to_string());
        }
        if let Some(why) = core_limit {
            self.snap.info.push(format!("--keep-core: {why}"));
        }
        if let Some(out) = spawned.program_output {
            self.forward_program_output(out);
        }
        let start = spawned.start;
        let timeout = self.config.start_timeout;
        // The remote server itself, not a local adapter that reaches it.
        let direct = self.config.remote.is_some() && matches!(spawned.transport, Transport::Tcp(_));
        let timeout = if direct {
            timeout.min(REMOTE_CONNECT)
        } else {
            timeout
        };
        let connect = match opening::open(spawned.transport, timeout, direct) {
            Opening::Ready(reader, writer) => {
                self.begin(root, reader, writer, start);
                return Ok(());
            }
            Opening::Later(connect) => connect,
        };
        self.spawn(async move {
            let conn = connect.await;
            Box::new(move |e: &mut Engine| match conn {
                Ok((addr, stream)) => e.begin_connected(root, addr, stream, start),
                // A restart replaced this adapter meanwhile.
                Err(_) if root != e.tree.root => {}
                Err(err) if direct => {
                    let at = e.config.remote.as_ref().map(|r| r.address());
                    e.fail(format!(
                        "cannot reach the debug server at {}: {err} (is it running and listening there?)",
                        at.unwrap_or_default()
                    ))
                }
                Err(err) => e.fail(format!("cannot reach the debug adapter: {err}")),
            }) as Apply
        });
        Ok(())
    }

    /// initialize, then launch (or attach) on connection `id`; configure
    /// comes with `initialized`.
    pub(super) fn begin(
        &mut self,
        id: u32,
        reader: Pin<Box<dyn AsyncRead + Send>>,
        writer: Pin<Box<dyn AsyncWrite + Send>>,
        (start_command, start_args): (&'static str, Value),
    ) {
        let root = self.tree.root;
        let tracker = self
            .conn_by_id(root)
            .and_then(|c| c.process.as_ref())
            .map(|p| p.tracker());
        let apply_tx = self.apply_tx.clone();
        // Answered at once: the adapter may wait on nothing, and the child
        // starts through the actor like any other change.
        let start_debugging = std::sync::Arc::new(move |args: Value| {
            let apply: Apply = Box::new(move |e: &mut Engine| e.start_child(id, args));
            apply_tx
                .send(apply)
                .map_err(|_| "the session has ended".to_string())
        });
        let taint = self.snap.taint.clone();
        let settings = Settings {
            timeout: self.config.request_timeout,
            reverse: reverse_handler(self.config.stdio.clone(), tracker, Some(start_debugging)),
            trace_mask: Some(std::sync::Arc::new(move |s: &str| {
                crate::session::secrets::text(s, &taint)
            })),
        };
        let client = DapClient::start_tagged(
            reader,
            writer,
            settings,
            self.conn_tx.clone(),
            move |ev| (id, ConnMsg::Event(ev)),
            Some((id, ConnMsg::Closed)),
        );
        let program = self
            .config
            .program
            .as_ref()
            .map(|p| self.config.cwd.join(p));
        let client = Link::new(client, self.config.adapter, program);
        // What the program's file declares is read while it starts, not
        // at its first stop: a large program's debug information takes a
        // while.
        let warm = client.clone();
        tokio::spawn(async move {
            let _ = warm.declared_types().await;
        });
        let Some(conn) = self.conn_by_id_mut(id) else {
            return;
        };
        conn.client = Some(client.clone());
        conn.configured = false;
        conn.configuring = false;
        let adapter_id = self.config.adapter.name();
        let start_timeout = self.config.start_timeout;
        self.spawn(async move {
            let init = client
                .request_with_timeout(
                    "initialize",
                    Some(initialize_arguments(adapter_id)),
                    start_timeout,
                )
                .await;
            Box::new(move |e: &mut Engine| match init {
                Err(err) => e.conn_failed(id, format!("initialize failed: {err}")),
                Ok(caps) => {
                    if e.conn_by_id(id).is_none() {
                        return;
                    }
                    if id == e.tree.root {
                        e.snap.available_exception_filters = caps
                            .get("exceptionBreakpointFilters")
                            .and_then(Value::as_array)
                            .map(|a| {
                                a.iter()
                                    .filter_map(|f| {
                                        Some((
                                            f.get("filter")?.as_str()?.to_string(),
                                            f.get("label")?.as_str()?.to_string(),
                                        ))
                                    })
                                    .filter(|(f, _)| {
                                        !client
                                            .quirks()
                                            .foreign_exception_filters
                                            .contains(&f.as_str())
                                    })
                                    .collect()
                            })
                            .unwrap_or_default();
                        e.snap.native =
                            crate::session::native::NativeSupport::from_capabilities(&caps);
                        e.snap.recording.steps_back = caps
                            .get("supportsStepBack")
                            .and_then(Value::as_bool)
                            .unwrap_or(false);
                        e.dirty = true;
                    }
                    client.set_capabilities(&caps);
                    if let Some(c) = e.conn_by_id_mut(id) {
                        // Known from now on, even when the answer had none.
                        c.capabilities = if caps.is_null() {
                            Value::Object(Default::default())
                        } else {
                            caps
                        };
                    }
                    // Sent now, answered whenever the adapter likes: some
                    // adapters hold this response until configurationDone.
                    let launch =
                        client.request_with_timeout(start_command, Some(start_args), start_timeout);
                    if e.conn_by_id(id).is_some_and(|c| c.initialized_early) {
                        e.with_conn(id, |e| e.configure());
                    }
                    e.spawn(async move {
                        let res = launch.await;
                        Box::new(move |e: &mut Engine| {
                            let err = match res {
                                Ok(_) => return e.expect_initialized(id),
                                Err(err) => err,
                            };
                            if id != e.tree.root {
                                return e.conn_failed(id, format!("{start_command} failed: {err}"));
                            }
                            let detail = e.start_error_detail();
                            // A build the adapter ran: the person and
                            // the agent are told where it broke.
                            e.snap.compile_error = e.build_error();
                            let sentence = e.compile_error_sentence();
                            e.fail(format!("{start_command} failed: {err}{sentence}{detail}"));
                        }) as Apply
                    });
                }
            }) as Apply
        });
    }

    /// What the adapter wrote on stderr before a failed start, for adapters
    /// whose failure response only points there (a compiler's errors).
    fn start_error_detail(&mut self) -> String {
        if !self.config.adapter.quirks().start_error_in_output {
            return String::new();
        }
        self.drain_events();
        self.drain_terminal();
        let out = self.output.locked();
        let said = out.debugger().read(0, 16 * 1024, false).text;
        let wrote = out.read(0, 16 * 1024, false).text;
        let text = format!("{said}{wrote}");
        drop(out);
        if let Some(summary) = self.config.adapter.start_error_summary(&text) {
            return format!("\n{summary}");
        }
        let text = text.trim();
        if text.is_empty() {
            String::new()
        } else {
            format!("\n{text}")
        }
    }

    /// The program's output that comes through the adapter's own stdout and
    /// stderr, line by line into the output buffer.
    fn forward_program_output(&mut self, out: ProgramOutput) {
        let adapter = self.config.adapter;
        for (reader, stream) in [(out.stdout, Stream::Stdout), (out.stderr, Stream::Stderr)] {
            let tx = self.apply_tx.clone();
            tokio::spawn(async move {
                let mut lines = BufReader::new(reader);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match lines.read_until(b'\n', &mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let text = String::from_utf8_lossy(&buf).into_owned();
                            let own = adapter.is_own_output(&text);
                            let apply: Apply = Box::new(move |e: &mut Engine| {
                                if own {
                                    e.push_debugger(&text);
                                } else {
                                    e.push_output(stream, &text);
                                }
                            });
                            if tx.send(apply).is_err() {
                                break;
                            }
                        }
                    }
                }
            });
        }
    }

    /// Breakpoints, exception filters, then configurationDone, on the
    /// focused connection, once however often it says `initialized`.
    pub(super) fn configure(&mut self) {
        let Some(client) = self.conn.client.clone() else {
            return;
        };
        // Breakpoints are sent by what the adapter can do: an adapter may
        // say `initialized` before its answer to `initialize` is read.
        if self.conn.capabilities.is_null() {
            self.conn.initialized_early = true;
            return;
        }
        if std::mem::replace(&mut self.conn.configuring, true) {
            return;
        }
        if let Some(bad) = self.unknown_launch_filter() {
            return self.fail(bad);
        }
        let id = self.conn.id;
        self.place_pending_functions();
        let files: BTreeSet<PathBuf> = self
            .snap
            .breakpoints
            .iter()
            .filter(|b| b.is_source())
            .map(|b| b.file.clone())
            .collect();
        for f in &files {
            self.refresh_statements(f);
        }
        let bp_futs: Vec<_> = files
            .into_iter()
            .map(|f| {
                let (ids, args) = self.set_breakpoints_args(&f);
                let fut = client.request("setBreakpoints", Some(args));
                async move { (ids, fut.await) }
            })
            .collect();
        let exc = client.request("setExceptionBreakpoints", Some(self.exception_arguments()));
        let fn_bps = self.function_request();
        self.spawn(async move {
            let results = join_all(bp_futs).await;
            let exc = exc.await;
            let fn_bps = match fn_bps {
                Some(f) => Some((
                    f.exception_functions,
                    f.ids,
                    f.fut.await.map_err(|x| x.to_string()),
                )),
                None => None,
            };
            // Applied before configurationDone goes out: the program may
            // stop on one of these the moment it runs, and that stop must
            // know which breakpoint (or the entry) it was.
            Box::new(move |e: &mut Engine| {
                // A connection a restart or its end removed meanwhile is left be.
                if e.with_conn(id, move |e| e.apply_configuration(results, exc, fn_bps))
                    .is_some()
                {
                    e.send_configuration_done(id, &client);
                }
            }) as Apply
        });
    }

    fn apply_configuration(
        &mut self,
        results: Vec<(Vec<u64>, Result<Value, crate::dap::DapError>)>,
        exc: Result<Value, crate::dap::DapError>,
        fn_bps: Option<(usize, Vec<u64>, Result<Value, String>)>,
    ) {
        for (ids, res) in results {
            self.apply_breakpoint_result(&ids, res.map_err(|x| x.to_string()));
        }
        match exc {
            Err(err) => self.touch(None, format!("exception breakpoints were refused: {err}")),
            Ok(_) => {
                for t in self.snap.exception_types.iter_mut() {
                    t.verified = t.enabled;
                }
            }
        }
        if let Some((n, ids, res)) = fn_bps {
            self.apply_function_result(n, &ids, res);
        }
    }

    fn send_configuration_done(&mut self, id: u32, client: &Link) {
        let done = client.request("configurationDone", None);
        self.spawn(async move {
            let done = done.await;
            Box::new(move |e: &mut Engine| {
                // What the adapter said before its answer is heard first: a
                // busy engine could otherwise take an attach's halt, sent
                // before the answer, for a stop of the running program.
                e.drain_events();
                let failed = e.with_conn(id, move |e| e.configured(done));
                match failed.flatten() {
                    Some(message) => e.conn_failed(id, message),
                    None => e.focus_configured_child(id),
                }
            }) as Apply
        });
    }

    fn configured(&mut self, done: Result<Value, crate::dap::DapError>) -> Option<String> {
        if let Err(err) = done {
            return Some(format!("configurationDone failed: {err}"));
        }
        self.conn.configured = true;
        if self.conn.state == ConnState::Starting {
            self.conn.state = ConnState::Running;
        }
        self.publish_children();
        if self.snap.state == RunState::Starting {
            self.snap.state = RunState::Running;
            self.touch(None, "the program started");
        }
        None
    }

    /// Where the root only launches, the program is on the newest child.
    fn focus_configured_child(&mut self, id: u32) {
        if id == self.tree.root || self.snap.state == RunState::Stopped {
            return;
        }
        let to = super::tree::focus_on_configured(
            self.config.adapter.quirks().program_on_child,
            self.snap.stop_seq > 0,
            self.conn.id,
            id,
        );
        self.focus(to);
    }

    // ---- adapter events -------------------------------------------------
}
