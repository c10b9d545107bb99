//! `pairdbg serve`'s flags.

use std::time::Duration;

use clap::Args;

use crate::host::serve::{self, ServeOptions};
use crate::session::validate::Workspace;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Stop after SECS with no session (default: serve until stopped).
    #[arg(long, value_name = "SECS")]
    pub idle_exit: Option<u64>,
}

pub async fn run(ws: Workspace, args: ServeArgs, redact: bool) -> u8 {
    serve::run(
        ws,
        ServeOptions {
            redact,
            idle_exit: args.idle_exit.map(Duration::from_secs),
        },
    )
    .await
}
