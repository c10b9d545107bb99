//! `pairdbg ctl`'s flags and commands; src/shell/ runs them.

use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Map, Value, json};

use super::launch_flags::LaunchFlags;
use crate::shell::commands::{Call, location};

pub const EXIT_CODES: &str = "\
Exit codes:
  0  stopped (at a breakpoint, a step, a pause), or done
  1  error: the call was refused or the input is bad (the message says why)
  2  usage: the command line does not parse
  3  exited: the program ended, or no session is left
  4  running: the wait timed out and the program still runs

With no pairdbg in the workspace, `launch` starts `pairdbg serve --idle-exit 600`
in the background; later commands act on its session. `stop` ends it.";

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
        launch: LaunchFlags,
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
    Continue,
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
    /// Stop the background `pairdbg serve` that `launch` started.
    Stop,
}

impl CtlArgs {
    /// The tool call the command makes; `None` for `stop`, which makes none.
    pub fn call(&self) -> Result<Option<Call>, String> {
        let mut a = Map::new();
        let tool = match &self.command {
            CtlCommand::Stop => return Ok(None),
            CtlCommand::Status => {
                if self.json {
                    a.insert("format".into(), json!("json"));
                }
                "debug_status"
            }
            CtlCommand::Sessions => "debug_sessions",
            CtlCommand::Launch {
                breaks,
                launch,
                stop_on_entry,
                program,
            } => {
                let breakpoints = breaks
                    .iter()
                    .map(|b| location("--break", b).map(|(f, l)| json!({"file": f, "line": l})))
                    .collect::<Result<Vec<_>, _>>()?;
                if !breakpoints.is_empty() {
                    a.insert("breakpoints".into(), Value::Array(breakpoints));
                }
                if let Some(pid) = launch.attach {
                    a.insert("pid".into(), json!(pid));
                    put(&mut a, "language", launch.language.clone());
                    "debug_attach"
                } else {
                    let mut rest = program.iter().cloned();
                    match &launch.module {
                        Some(m) => {
                            a.insert("module".into(), json!(m));
                        }
                        None => {
                            let p = rest.next().ok_or(
                                "launch: give the PROGRAM to debug (or -m MODULE, or --attach PID)",
                            )?;
                            a.insert("program".into(), json!(p));
                        }
                    }
                    let args: Vec<String> = rest.collect();
                    if !args.is_empty() {
                        a.insert("args".into(), json!(args));
                    }
                    put(&mut a, "python", launch.python.clone());
                    put(&mut a, "language", launch.language.clone());
                    put(&mut a, "cwd", launch.cwd.clone());
                    if !launch.env.is_empty() {
                        let env: Map<String, Value> = launch
                            .env
                            .iter()
                            .map(|(k, v)| (k.clone(), json!(v)))
                            .collect();
                        a.insert("env".into(), Value::Object(env));
                    }
                    if *stop_on_entry {
                        a.insert("stop_on_entry".into(), json!(true));
                    }
                    "debug_launch"
                }
            }
            CtlCommand::Break {
                location: at,
                condition,
                log_message,
            } => {
                let (file, line) = location("FILE:LINE", at)?;
                a.insert("file".into(), json!(file));
                a.insert("line".into(), json!(line));
                put(&mut a, "condition", condition.clone());
                put(&mut a, "log_message", log_message.clone());
                "breakpoint_set"
            }
            CtlCommand::Breakpoints => "breakpoint_list",
            CtlCommand::Continue => "debug_continue",
            CtlCommand::Step { kind, count } => {
                if let Some(k) = kind {
                    let k = match k {
                        StepKind::Over => "over",
                        StepKind::Into => "into",
                        StepKind::Out => "out",
                    };
                    a.insert("kind".into(), json!(k));
                }
                put(&mut a, "count", *count);
                "debug_step"
            }
            CtlCommand::RunTo { location: at } => {
                let (file, line) = location("FILE:LINE", at)?;
                a.insert("file".into(), json!(file));
                a.insert("line".into(), json!(line));
                "debug_run_to"
            }
            CtlCommand::Pause => "debug_pause",
            CtlCommand::Eval { expression, frame } => {
                a.insert("expression".into(), json!(expression.join(" ")));
                put(&mut a, "frame_index", *frame);
                "debug_evaluate"
            }
            CtlCommand::Vars { path, frame } => {
                put(&mut a, "expand", path.clone());
                put(&mut a, "frame_index", *frame);
                "debug_variables"
            }
            CtlCommand::Stack => "debug_stack",
            CtlCommand::Output { since } => {
                put(&mut a, "since", *since);
                "debug_output"
            }
            CtlCommand::Watch { action } => {
                let (field, exprs) = match action {
                    WatchCmd::Add { expressions } => ("add", expressions),
                    WatchCmd::Remove { expressions } => ("remove", expressions),
                };
                a.insert(field.into(), json!(exprs));
                "debug_watch"
            }
            CtlCommand::Note { text } => {
                a.insert("text".into(), json!(text.join(" ")));
                "debug_note"
            }
            CtlCommand::Wait => "debug_wait",
            CtlCommand::Terminate => "debug_terminate",
        };
        if crate::shell::commands::WAITS.contains(&tool) {
            put(&mut a, "timeout_ms", self.timeout_ms);
        }
        if !crate::shell::commands::SESSIONLESS.contains(&tool) {
            put(&mut a, "session_id", self.session.clone());
        }
        Ok(Some(Call { tool, arguments: a }))
    }
}

fn put<T: Into<Value>>(a: &mut Map<String, Value>, field: &str, value: Option<T>) {
    if let Some(v) = value {
        a.insert(field.into(), v.into());
    }
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
