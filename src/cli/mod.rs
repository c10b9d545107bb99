//! Command-line entry points: argument parsing and hand-off, no logic.

mod adapters;
mod logging;
mod run;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  pairdbg run --break assets/demo/order.py:44 -- assets/demo/order.py
      Run to the first stop and print the viewport.
  pairdbg run --json --break app.py:10 -- app.py --verbose
      The same, as JSON; arguments after the program go to it.
  pairdbg mcp
      Serve MCP on stdio, for an AI agent to debug with.
  pairdbg adapters
      List the debug adapters found, with their versions.
  pairdbg adapters install python
      Install debugpy for the Python that pairdbg would use.";

#[derive(Debug, Parser)]
#[command(name = "pairdbg", version, about = "A terminal debugger that a person and an AI agent drive together.", after_help = EXAMPLES)]
pub struct Cli {
    /// The workspace root: paths resolve inside it (default: the current directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// Allow programs and breakpoints outside the workspace.
    #[arg(long, global = true)]
    pub allow_outside_workspace: bool,
    #[command(subcommand)]
    pub command: Option<Cmd>,
}

#[derive(Debug, Subcommand)]
pub enum Cmd {
    /// Serve the Model Context Protocol on stdio.
    Mcp,
    /// Run a program to its first stop and print the viewport.
    Run(run::RunArgs),
    /// List debug adapters, or install one.
    Adapters {
        #[command(subcommand)]
        action: Option<adapters::AdaptersCmd>,
    },
}

pub fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let workspace = match cli
        .workspace
        .clone()
        .map(Ok)
        .unwrap_or_else(std::env::current_dir)
    {
        Ok(w) => w,
        Err(e) => {
            eprintln!("pairdbg: cannot read the current directory: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    logging::init();
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("pairdbg: cannot start the runtime: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let ws = crate::session::validate::Workspace::new(&workspace, cli.allow_outside_workspace);
    let code = rt.block_on(async move {
        match cli.command {
            Some(Cmd::Mcp) => crate::mcp::serve_stdio(ws).await,
            Some(Cmd::Run(args)) => run::run(ws, args).await,
            Some(Cmd::Adapters { action }) => adapters::run(&ws, action).await,
            None => {
                use clap::CommandFactory;
                let _ = Cli::command().print_help();
                0
            }
        }
    });
    // Do not wait for lingering adapter I/O tasks; sessions were ended above.
    rt.shutdown_timeout(std::time::Duration::from_millis(200));
    std::process::ExitCode::from(code)
}
