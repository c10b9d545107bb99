//! `pairdbg ctl`: one command on the workspace's live session, from a
//! shell. It joins the TUI or `pairdbg serve` host the discovery file names
//! (starting a host when it finds none), makes one MCP call, prints
//! the reply, and exits with a code that tells the session's state.

pub mod client;
pub mod commands;
pub mod daemon;
pub mod exit;
pub mod names;
pub mod output;

use crate::agent::discovery;
use crate::session::validate::Workspace;
use commands::Call;

/// How the command was asked to answer.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub json: bool,
    /// The session the command names, if any.
    pub session: Option<String>,
    pub daemon: daemon::Inherited,
}

/// Runs one call (`None`: stop the headless host) and returns the exit code.
pub async fn run(ws: &Workspace, call: Option<Call>, opts: Options) -> u8 {
    let result = match call {
        Some(call) => act(ws, &call, &opts).await,
        None => stop(ws).await.map(output::Answer::done),
    };
    match result {
        Ok(answer) => answer.print(opts.json),
        Err(message) => output::Answer::failed(message).print(opts.json),
    }
}

async fn act(ws: &Workspace, call: &Call, opts: &Options) -> Result<output::Answer, String> {
    // Any command starts the host, so the commands after it (a breakpoint
    // set before the launch, say) reach the same one.
    let d = match discovery::find(&ws.root) {
        Some(d) => d,
        None => daemon::start(ws, opts.daemon).await?,
    };
    let host = client::connect(&d).await?;
    let reply = host.call(call).await;
    let sessions = host.sessions().await;
    host.close().await;
    let reply = reply?;
    let at = exit::footer(&reply.text);
    let id = opts
        .session
        .clone()
        .or_else(|| at.as_ref().map(|(id, _)| id.clone()));
    let list = sessions?;
    let state = output::state_of(&list, id.as_deref());
    Ok(output::Answer::from_reply(call, reply, state, at))
}

async fn stop(ws: &Workspace) -> Result<String, String> {
    let Some(d) = discovery::find(&ws.root) else {
        return Ok(format!("no pairdbg runs in {}", ws.root.display()));
    };
    if !daemon::is_headless(&d) {
        return Err(format!(
            "the pairdbg in {} is a terminal UI (pid {}); quit it there with q",
            ws.root.display(),
            d.pid
        ));
    }
    daemon::stop(&d).await?;
    Ok(format!(
        "stopped pairdbg serve (pid {}) and its sessions",
        d.pid
    ))
}
