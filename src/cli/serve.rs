//! `pairdbg serve`'s flags.

use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;

use crate::host::serve::{self, ServeOptions};
use crate::session::validate::Workspace;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Stop after SECS with no session (default: serve until stopped).
    #[arg(long, value_name = "SECS")]
    pub idle_exit: Option<u64>,
    /// Serve MCP and the REST API at ADDR, such as 127.0.0.1:8080
    /// (default: a free loopback port).
    #[arg(long, value_name = "ADDR")]
    pub http: Option<SocketAddr>,
    /// Allow an --http address other than loopback.
    #[arg(long)]
    pub allow_remote: bool,
}

pub async fn run(ws: Workspace, args: ServeArgs, redact: bool) -> u8 {
    serve::run(
        ws,
        ServeOptions {
            redact,
            idle_exit: args.idle_exit.map(Duration::from_secs),
            http: args.http,
            allow_remote: args.allow_remote,
        },
    )
    .await
}
