//! Start-up: spawn the adapter, initialize, launch, and configure when the
//! adapter says `initialized`, whichever order it says it in.

use std::collections::BTreeSet;
use std::path::PathBuf;

use futures::future::join_all;
use serde_json::{Value, json};

use super::{Apply, Engine};
use crate::dap::DapClient;
use crate::dap::client::default_reverse_handler;
use crate::session::error::SessionError;
use crate::session::types::RunState;

impl Engine {
    pub(super) fn start_adapter(&mut self) {
        if let Err(e) = self.spawn_adapter() {
            self.fail(e.to_string());
        }
    }

    /// Synchronous on purpose: fork and exec at most, so the actor never
    /// waits on the adapter. debugpy's presence was checked before the engine began.
    pub(super) fn spawn_adapter(&mut self) -> Result<(), SessionError> {
        let conn = self.connector.connect(&self.config)?;
        let (client, events) = DapClient::start(
            conn.reader,
            conn.writer,
            self.config.request_timeout,
            default_reverse_handler(),
        );
        self.process = conn.process;
        self.dap_events = Some(events);
        self.client = Some(client.clone());
        self.configured = false;
        self.snap.info = conn.notes;
        let launch_args = conn.launch_arguments;
        let adapter_id = conn.adapter_id;
        self.spawn(async move {
            let init = client
                .request("initialize", Some(initialize_arguments(&adapter_id)))
                .await;
            Box::new(move |e: &mut Engine| match init {
                Err(err) => e.fail(format!("initialize failed: {err}")),
                Ok(caps) => {
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
                                .collect()
                        })
                        .unwrap_or_default();
                    e.dirty = true;
                    // Sent now, answered whenever the adapter likes: debugpy
                    // holds this response until configurationDone.
                    let launch = client.request("launch", Some(launch_args));
                    e.spawn(async move {
                        let res = launch.await;
                        Box::new(move |e: &mut Engine| {
                            if let Err(err) = res {
                                e.fail(format!("launch failed: {err}"));
                            }
                        }) as Apply
                    });
                }
            }) as Apply
        });
        Ok(())
    }

    /// Breakpoints, exception filters, then configurationDone.
    pub(super) fn configure(&mut self) {
        let Some(client) = self.client.clone() else {
            return;
        };
        let files: BTreeSet<PathBuf> = self
            .snap
            .breakpoints
            .iter()
            .map(|b| b.file.clone())
            .collect();
        let bp_futs: Vec<_> = files
            .into_iter()
            .map(|f| {
                let (ids, args) = self.set_breakpoints_args(&f);
                let fut = client.request("setBreakpoints", Some(args));
                async move { (ids, fut.await) }
            })
            .collect();
        let exc = client.request(
            "setExceptionBreakpoints",
            Some(json!({"filters": self.snap.exception_filters})),
        );
        self.spawn(async move {
            let results = join_all(bp_futs).await;
            let exc = exc.await;
            let done = client.request("configurationDone", None).await;
            Box::new(move |e: &mut Engine| {
                for (ids, res) in results {
                    e.apply_breakpoint_result(&ids, res.map_err(|x| x.to_string()));
                }
                if let Err(err) = exc {
                    e.touch(None, format!("exception breakpoints were refused: {err}"));
                }
                match done {
                    Ok(_) => {
                        e.configured = true;
                        if e.snap.state == RunState::Starting {
                            e.snap.state = RunState::Running;
                            e.touch(None, "the program started");
                        }
                    }
                    Err(err) => e.fail(format!("configurationDone failed: {err}")),
                }
            }) as Apply
        });
    }

    // ---- adapter events -------------------------------------------------
}

fn initialize_arguments(adapter_id: &str) -> Value {
    json!({
        "clientID": "pairdbg",
        "clientName": "pairdbg",
        "adapterID": adapter_id,
        "locale": "en-US",
        "linesStartAt1": true,
        "columnsStartAt1": true,
        "pathFormat": "path",
        "supportsVariableType": true,
        "supportsVariablePaging": true,
        "supportsRunInTerminalRequest": false,
        "supportsStartDebuggingRequest": false,
        "supportsProgressReporting": false,
        "supportsInvalidatedEvent": false,
        "supportsMemoryReferences": false
    })
}
