//! Command-line entry points: argument parsing and hand-off, no logic.

/// `println!`, except that a reader who has gone (`| head`) ends the
/// printing quietly instead of the process.
macro_rules! say {
    ($($t:tt)*) => { crate::shell::output::say(&format!($($t)*)) };
}

mod adapters;
mod ctl;
mod ctl_call;
mod demo;
mod journal;
mod launch_flags;
mod logging;
mod mcp;
mod run;
mod serve;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

const EXAMPLES: &str = "\
Examples:
  pairdbg
      Open the terminal UI on the bundled demo.
  pairdbg --break app.py:10 -- app.py --verbose
      Debug app.py in the terminal UI; it runs to the breakpoint.
  pairdbg --break main.go:20 -- ./cmd/server
      Debug a Go package (C, C++ and Rust binaries work the same way).
  pairdbg --attach 4242 --break worker.c:31
      Attach the terminal UI to a running process; quitting leaves it running.
  pairdbg --attach 127.0.0.1:5678 --language python --map .=/app
      Attach to a debug server (a container's, or a host's through ssh -L).
  pairdbg --config app --theme light
      Launch a configuration of .vscode/launch.json, in the light theme.
  pairdbg run --break assets/demo/order.py:44 -- assets/demo/order.py
      Run to the first stop and print the viewport.
  pairdbg run --json --break app.py:10 -- app.py --verbose
      The same, as JSON; arguments after the program go to it.
  pairdbg mcp
      Serve MCP on stdio, for an AI agent to debug with.
  pairdbg mcp --profile mcp-debugger
      The same with mcp-debugger's tool names, for clients written for it.
  pairdbg serve
      Serve the workspace's sessions headless; `pairdbg mcp` joins them.
  pairdbg serve --http 127.0.0.1:8080
      The same at a fixed address, with the REST API; prints its token.
  pairdbg ctl launch app.py --break app.py:3
      From a shell: launch into the workspace's live session (a TUI's, or a
      background host's); then `pairdbg ctl step`, `pairdbg ctl eval x`, ...
  pairdbg journal export --out handoff.md
      Write the last session's hand-off card: its stops, notes and breakpoints.
  pairdbg adapters
      List the debug adapters: versions and capabilities, or how to install them.
  pairdbg adapters install python
      Install the Python adapter for the Python that pairdbg would use.";

#[derive(Debug, Parser)]
#[command(
    name = "pairdbg",
    version,
    about = "A terminal debugger that a person and an AI agent drive together.",
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// A breakpoint, as FILE:LINE (repeatable).
    #[arg(long = "break", value_name = "FILE:LINE")]
    pub breaks: Vec<String>,
    /// Launch the configuration NAME from .vscode/launch.json (`pairdbg`
    /// alone uses its first Python configuration when there is one).
    #[arg(long, value_name = "NAME")]
    pub config: Option<String>,
    /// The TUI's colour theme: dark, light, high-contrast, gruvbox, or one of
    /// yours in ~/.config/pairdbg/themes/ (default: `theme` in
    /// ~/.config/pairdbg/config.toml, else dark).
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    #[command(flatten)]
    pub launch: launch_flags::LaunchFlags,
    /// The program to debug and its arguments (default: the bundled demo).
    #[arg(last = true, value_name = "PROGRAM [ARGS]")]
    pub program: Vec<String>,
    /// The workspace root: paths resolve inside it (default: the current directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// Allow programs and breakpoints outside the workspace.
    #[arg(long, global = true)]
    pub allow_outside_workspace: bool,
    /// Show the agent values that look like secrets (masked by default).
    #[arg(long, global = true)]
    pub no_redact: bool,
    /// Ask the person before an agent's side effect runs (A toggles).
    #[arg(long)]
    pub approve_side_effects: bool,
    #[command(subcommand)]
    pub command: Option<Cmd>,
}

#[derive(Debug, Subcommand)]
pub enum Cmd {
    /// Serve the Model Context Protocol on stdio.
    Mcp(mcp::McpArgs),
    /// Serve the workspace's sessions without a terminal UI, for agents
    /// over HTTP (found as a TUI is).
    Serve(serve::ServeArgs),
    /// Run a program to its first stop and print the viewport.
    Run(Box<run::RunArgs>),
    /// Drive the workspace's live session from a shell, one command at a
    /// time (exit codes: 0 stopped, 1 error, 2 usage, 3 exited, 4 running).
    Ctl(ctl::CtlArgs),
    /// List debug adapters, or install one.
    Adapters {
        #[command(subcommand)]
        action: Option<adapters::AdaptersCmd>,
    },
    /// The session journals: list, search, show and compare past sessions,
    /// or export one as a hand-off card.
    Journal {
        #[command(subcommand)]
        action: journal::JournalCmd,
    },
    /// Runs an adapter so that nothing it starts outlives pairdbg (started
    /// by pairdbg itself, not by people).
    #[command(name = crate::dap::keeper::SUBCOMMAND, hide = true)]
    Keeper {
        #[arg(last = true, required = true, value_name = "ADAPTER [ARGS]")]
        argv: Vec<std::ffi::OsString>,
    },
}

pub fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    if let Some(Cmd::Keeper { argv }) = &cli.command {
        // Before logging and the runtime: the keeper is one thread that
        // only waits.
        let code = crate::dap::keeper::run(argv);
        return std::process::ExitCode::from(u8::try_from(code).unwrap_or(1));
    }
    crate::dap::keeper::enable();
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
    if let Err(e) = apply_settings() {
        eprintln!("pairdbg: {e}");
        return std::process::ExitCode::from(2);
    }
    crate::session::journal::set_stop_renderer(journal_viewport);
    crate::session::journal::set_value_renderer(journal_value);
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
            Some(Cmd::Mcp(args)) => {
                crate::host::stdio::serve(ws, !cli.no_redact, args.profile.into()).await
            }
            Some(Cmd::Run(args)) => run::run(ws, *args).await,
            Some(Cmd::Ctl(args)) => {
                let inherited = crate::shell::daemon::Inherited {
                    no_redact: cli.no_redact,
                    allow_outside_workspace: cli.allow_outside_workspace,
                };
                ctl::run(ws, args, inherited).await
            }
            Some(Cmd::Serve(args)) => serve::run(ws, args, !cli.no_redact).await,
            Some(Cmd::Adapters { action }) => adapters::run(&ws, action).await,
            Some(Cmd::Journal { action }) => journal::run(&ws, action),
            Some(Cmd::Keeper { .. }) => 2,
            None => match target_request(&ws, &cli)
                .and_then(|r| Ok((r, ui_settings(cli.theme.as_deref())?)))
                .and_then(|((w, r), ui)| {
                    let ws = w.unwrap_or(ws);
                    // Checked here to name the flags; the TUI checks again.
                    r.validate(&ws, crate::session::REQUEST_TIMEOUT)
                        .map_err(|e| launch_flags::describe(&e, &cli.breaks))?;
                    needs_terminal()?;
                    Ok((ws, r, ui))
                }) {
                Ok((ws, request, (theme, keymap))) => {
                    let policy = crate::tui::AgentPolicy {
                        redact: !cli.no_redact,
                        approve_side_effects: cli.approve_side_effects,
                    };
                    crate::tui::run(ws, request, theme, keymap, policy).await
                }
                Err(e) => {
                    eprintln!("pairdbg: {e}");
                    1
                }
            },
        }
    });
    // Do not wait for lingering adapter I/O tasks; sessions were ended above.
    rt.shutdown_timeout(std::time::Duration::from_millis(200));
    std::process::ExitCode::from(code)
}

/// A stop as the journal keeps it: the agent's default viewport, notes
/// left out (the journal records them on their own).
fn journal_viewport(snap: &crate::session::Snapshot) -> String {
    let extras = crate::viewport::Extras {
        previous: None,
        notes_after_epoch: u64::MAX,
        more: Some(&crate::mcp::names::MCP.more),
    };
    // The journal on disk holds what an agent may read.
    let masked = crate::viewport::redact::snapshot(snap);
    crate::viewport::render_text(&masked, &Default::default(), extras)
}

fn journal_value(v: &crate::session::types::Var) -> String {
    // More of a collection than a viewport shows: two runs compared later
    // differ as often in the sixth item as in the first.
    let cfg = crate::viewport::ViewportConfig {
        collection_preview_items: 20,
        string_truncate_length: 200,
        ..Default::default()
    };
    crate::viewport::value::render(v, &cfg, 0)
}

/// The launch the TUI starts with: a launch.json configuration, the given
/// program, or the bundled demo. It stops at its first breakpoint, or on
/// entry when it has none.
fn tui_request(
    ws: &crate::session::validate::Workspace,
    breaks: &[String],
    program: Vec<String>,
    config: Option<&str>,
) -> Result<
    (
        Option<crate::session::validate::Workspace>,
        crate::session::LaunchRequest,
    ),
    String,
> {
    use crate::session::{BreakpointRequest, LaunchRequest, launch_json};
    let mut breakpoints = breaks
        .iter()
        .map(|b| run::parse_break(b))
        .collect::<Result<Vec<_>, _>>()?;
    let from_launch_json = match (config, program.is_empty()) {
        (Some(name), _) => {
            launch_json::load(&ws.root, Some(name), program.first().map(String::as_str))?
        }
        (None, true) => launch_json::load(&ws.root, None, None)?,
        (None, false) => None,
    };
    let mut new_ws = None;
    let mut request = match from_launch_json {
        Some(r) => r,
        None => {
            let mut args = program.into_iter();
            let program = match args.next() {
                Some(p) => p,
                None => {
                    let (dir, file) = demo::locate()?;
                    new_ws = dir.map(|d| crate::session::validate::Workspace::new(&d, false));
                    if breakpoints.is_empty() {
                        breakpoints.push(BreakpointRequest {
                            file: file.clone(),
                            line: demo::BREAK_LINE,
                            ..Default::default()
                        });
                    }
                    file
                }
            };
            LaunchRequest {
                program: Some(program),
                args: args.collect(),
                ..Default::default()
            }
        }
    };
    request.stop_on_entry |= breakpoints.is_empty();
    request.breakpoints = breakpoints;
    Ok((new_ws, request))
}

/// What the TUI starts with: an attach by `--attach`, or a launch; either
/// in `--language` when given.
fn target_request(
    ws: &crate::session::validate::Workspace,
    cli: &Cli,
) -> Result<
    (
        Option<crate::session::validate::Workspace>,
        crate::session::LaunchRequest,
    ),
    String,
> {
    if cli.launch.attach.is_some() && cli.config.is_some() {
        return Err("--attach: give --attach or --config, not both".into());
    }
    let (new_ws, mut request) = match cli.launch.attach {
        // An attached program runs on until a breakpoint or a pause; a
        // remote one's PROGRAM is its local binary.
        Some(_) => (
            None,
            crate::session::LaunchRequest {
                program: cli.program.first().cloned(),
                breakpoints: cli
                    .breaks
                    .iter()
                    .map(|b| run::parse_break(b))
                    .collect::<Result<Vec<_>, _>>()?,
                ..Default::default()
            },
        ),
        // A core's PROGRAM is the binary that wrote it; nothing runs, so
        // nothing stops at the entry.
        None if cli.launch.core.is_some() => (
            None,
            crate::session::LaunchRequest {
                program: cli.program.first().cloned(),
                ..Default::default()
            },
        ),
        None if cli.launch.module.is_some() && cli.config.is_none() => (
            None,
            // A module's arguments are what follows `--`.
            crate::session::LaunchRequest {
                args: cli.program.clone(),
                stop_on_entry: cli.breaks.is_empty(),
                breakpoints: cli
                    .breaks
                    .iter()
                    .map(|b| run::parse_break(b))
                    .collect::<Result<Vec<_>, _>>()?,
                ..Default::default()
            },
        ),
        None => tui_request(ws, &cli.breaks, cli.program.clone(), cli.config.as_deref())?,
    };
    cli.launch.apply(&mut request);
    Ok((new_ws, request))
}

/// The terminal UI draws on a terminal; without one it says where to go
/// instead of printing escape sequences into a pipe.
fn needs_terminal() -> Result<(), String> {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        return Ok(());
    }
    Err(
        "the terminal UI needs a terminal (stdin and stdout are not one here). \
         Without one, `pairdbg run -- PROGRAM` prints the first stop, and \
         `pairdbg mcp` serves an AI agent over stdio."
            .into(),
    )
}

/// The theme (flag, then config file, then dark) and the keymap.
fn ui_settings(
    flag: Option<&str>,
) -> Result<(crate::tui::theme::Theme, crate::tui::action::Keymap), String> {
    let name = match flag {
        Some(n) => n.to_string(),
        None => config_value("theme").unwrap_or_else(|| "dark".into()),
    };
    let theme = crate::tui::theme::Theme::load(&name).map_err(|e| format!("--theme: {e}"))?;
    Ok((theme, crate::tui::action::Keymap::load()?))
}

/// A string setting from ~/.config/pairdbg/config.toml.
fn config_value(key: &str) -> Option<String> {
    crate::paths::config_table()?
        .get(key)?
        .as_str()
        .map(str::to_string)
}

/// config.toml's `max_sessions`, if set; a value that is no count is refused
/// with its name.
pub fn max_sessions_setting(table: &toml::Table) -> Result<Option<usize>, String> {
    let Some(n) = table.get("max_sessions") else {
        return Ok(None);
    };
    n.as_integer()
        .and_then(|n| usize::try_from(n).ok())
        .map(Some)
        .ok_or_else(|| format!("config.toml: max_sessions: {n} is not a count"))
}

/// The process-wide settings of config.toml; a wrong one stops the start
/// with its name and range.
fn apply_settings() -> Result<(), String> {
    let Some(n) = crate::paths::config_table()
        .map(max_sessions_setting)
        .transpose()?
        .flatten()
    else {
        return Ok(());
    };
    crate::session::registry::set_max_sessions(n).map_err(|e| format!("config.toml: {e}"))
}
