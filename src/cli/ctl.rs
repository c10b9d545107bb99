//! `pairdbg ctl`'s flags and commands; src/shell/ runs them.

use clap::{Args, Subcommand, ValueEnum};

use super::launch_flags::LaunchFlags;

pub const EXIT_CODES: &str = "\
Exit codes:
  0  stopped (at a breakpoint, a step, a pause), or done
  1  error: the call was refused or the input is bad (the message says why)
  2  usage: the command line does not parse
  3  exited: the program ended, or no session is left
  4  running: the wait timed out and the program still runs

With no pairdbg in the workspace, any command but `stop` starts
`pairdbg serve --idle-exit 600` in the background; later commands act on its
session. `stop` ends it.";

#[derive(Debug, Args)]
#[command(after_help = EXIT_CODES)]
pub struct CtlArgs {
    /// Print one JSON object: {ok, state, text, session_id, epoch, exit_code}.
    #[arg(long, global = true)]
    pub json: bool,
    /// The session to act on (default: the current one).
    #[arg(long, global = true, value_name = "ID")]
    pub session: Option<String>,
    /// How long a move or a wait waits for the next stop.
    #[arg(long, global = true, value_name = "MS")]
    pub timeout_ms: Option<u64>,
    #[command(subcommand)]
    pub command: CtlCommand,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum StepKind {
    Over,
    Into,
    Out,
    /// Back over the previous line (after `record on`).
    Back,
    BackInto,
    BackOut,
}

#[derive(Debug, Subcommand)]
pub enum WatchCmd {
    /// Add watch expressions.
    Add {
        #[arg(required = true)]
        expressions: Vec<String>,
    },
    /// Remove watch expressions.
    Remove {
        #[arg(required = true)]
        expressions: Vec<String>,
    },
}

// Parsed once per command: the launch's size costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum CtlCommand {
    /// The current stop's viewport, and the session's state.
    Status,
    /// The sessions, and which one is current.
    Sessions,
    /// Launch a program (or attach with --attach) and run to its first stop.
    Launch {
        /// A breakpoint, as FILE:LINE (repeatable).
        #[arg(long = "break", value_name = "FILE:LINE")]
        breaks: Vec<String>,
        #[command(flatten)]
        launch: Box<LaunchFlags>,
        /// Stop at the first line.
        #[arg(long)]
        stop_on_entry: bool,
        /// The program and its arguments (after `--` when one starts with -).
        #[arg(value_name = "PROGRAM [ARGS]")]
        program: Vec<String>,
    },
    /// Set a breakpoint at FILE:LINE.
    Break {
        #[arg(value_name = "FILE:LINE")]
        location: String,
        /// Stop only when this expression is true.
        #[arg(long)]
        condition: Option<String>,
        /// Log this message instead of stopping (`{expr}` is evaluated).
        #[arg(long)]
        log_message: Option<String>,
    },
    /// The breakpoints and the exception filters.
    Breakpoints,
    /// Continue to the next stop or the exit.
    Continue {
        /// Backwards, to the previous stop (after `record on`).
        #[arg(long)]
        back: bool,
    },
    /// Record the program from this stop (on) so that it can go back, or stop (off).
    Record {
        #[arg(value_parser = ["on", "off"])]
        state: String,
    },
    /// Step over (the default), into or out.
    Step {
        #[arg(value_enum)]
        kind: Option<StepKind>,
        /// Step this many times.
        #[arg(short = 'n', long = "count", value_name = "N")]
        count: Option<u32>,
    },
    /// Run to FILE:LINE.
    RunTo {
        #[arg(value_name = "FILE:LINE")]
        location: String,
    },
    /// Pause the running program.
    Pause,
    /// Evaluate an expression in the selected frame.
    Eval {
        #[arg(required = true, value_name = "EXPR")]
        expression: Vec<String>,
        /// The frame to evaluate in (0 is the top).
        #[arg(long, value_name = "N")]
        frame: Option<usize>,
    },
    /// The variables of a frame, or those inside PATH (`cart.items[0]`).
    Vars {
        #[arg(value_name = "PATH")]
        path: Option<String>,
        /// The frame (0 is the top).
        #[arg(long, value_name = "N")]
        frame: Option<usize>,
        /// From the Nth variable on (0 is the first).
        #[arg(long, value_name = "N")]
        start: Option<usize>,
    },
    /// The call stack.
    Stack,
    /// The program's output.
    Output {
        /// From this cursor on (a previous answer gives it).
        #[arg(long, value_name = "CURSOR")]
        since: Option<u64>,
    },
    /// Add or remove watch expressions.
    Watch {
        #[command(subcommand)]
        action: WatchCmd,
    },
    /// Leave a note for the person in the terminal UI.
    Note {
        #[arg(required = true, value_name = "TEXT")]
        text: Vec<String>,
    },
    /// Wait for the next stop without moving.
    Wait,
    /// End the session (its program ends; an attached one is detached from).
    Terminate,
    /// Stop the background `pairdbg serve` that ctl started.
    Stop,
}

pub async fn run(
    ws: crate::session::validate::Workspace,
    args: CtlArgs,
    daemon: crate::shell::daemon::Inherited,
) -> u8 {
    let call = match args.call() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pairdbg ctl: {e}");
            return crate::shell::exit::USAGE;
        }
    };
    let opts = crate::shell::Options {
        json: args.json,
        session: args.session.clone(),
        daemon,
    };
    crate::shell::run(&ws, call, opts).await
}
