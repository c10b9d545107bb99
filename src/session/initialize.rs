//! The `initialize` request: what pairdbg tells every adapter it can do,
//! and asking an adapter what it can do without debugging anything.

use std::time::Duration;

use serde_json::{Value, json};

use crate::adapters::{AdapterRef, LaunchSpec, Transport};
use crate::dap::DapClient;
use crate::dap::announced::connect_announced;
use crate::dap::client::default_reverse_handler;
use crate::dap::transport::connect_with_retry;

pub fn initialize_arguments(adapter_id: &str) -> Value {
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
        "supportsRunInTerminalRequest": true,
        "supportsStartDebuggingRequest": true,
        "supportsProgressReporting": false,
        "supportsInvalidatedEvent": false,
        "supportsMemoryReferences": false
    })
}

/// The adapter's answer to `initialize`: spawned, asked, and ended.
pub async fn capabilities(
    adapter: AdapterRef,
    spec: &LaunchSpec,
    timeout: Duration,
) -> Result<Value, String> {
    let spawned = adapter.spawn(spec).map_err(|e| e.to_string())?;
    let process = spawned.process;
    let (client, _events) = match spawned.transport {
        Transport::Stdio { reader, writer } => {
            DapClient::start(reader, writer, timeout, default_reverse_handler())
        }
        Transport::Tcp(addr) => {
            let stream = connect_with_retry(addr, timeout)
                .await
                .map_err(|e| e.to_string())?;
            let (r, w) = crate::dap::quick_ack::split(stream);
            DapClient::start(r, w, timeout, default_reverse_handler())
        }
        Transport::Announced { stdout, parse, who } => {
            let (_, stream) = connect_announced(stdout, parse, who, timeout)
                .await
                .map_err(|e| e.to_string())?;
            let (r, w) = crate::dap::quick_ack::split(stream);
            DapClient::start(r, w, timeout, default_reverse_handler())
        }
    };
    let caps = client
        .request("initialize", Some(initialize_arguments(adapter.name())))
        .await
        .map_err(|e| e.to_string())?;
    let _ = client
        .request_with_timeout(
            "disconnect",
            Some(json!({"terminateDebuggee": true})),
            Duration::from_millis(500),
        )
        .await;
    if let Some(mut p) = process {
        p.kill_all();
        p.wait().await;
    }
    Ok(caps)
}

/// The capabilities an adapter claims, by the specification's names less
/// their `supports` prefix, sorted.
pub fn capability_names(caps: &Value) -> Vec<String> {
    let mut names: Vec<String> = caps
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, v)| k.starts_with("supports") && v.as_bool() == Some(true))
        .map(|(k, _)| k.trim_start_matches("supports").to_string())
        .collect();
    names.sort();
    names
}
