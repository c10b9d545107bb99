//! Each `pairdbg ctl` command as the tool call it makes: flags become the
//! tool's fields, under the tool's own names.

use serde_json::{Map, Value, json};

use super::ctl::{CtlArgs, CtlCommand, StepKind, WatchCmd};
use super::launch_flags::AttachTo;
use crate::shell::commands::{Call, location};

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
                if let Some(to) = &launch.attach {
                    match to {
                        AttachTo::Pid(pid) => {
                            a.insert("pid".into(), json!(pid));
                        }
                        AttachTo::Server { host, port } => {
                            a.insert("host".into(), json!(host));
                            a.insert("port".into(), json!(port));
                            let maps: Vec<Value> = launch
                                .maps
                                .iter()
                                .map(|(l, r)| json!({"local": l, "remote": r}))
                                .collect();
                            if !maps.is_empty() {
                                a.insert("path_mappings".into(), Value::Array(maps));
                            }
                            put(&mut a, "program", program.first().cloned());
                        }
                    }
                    put(&mut a, "language", launch.language.clone());
                    put(&mut a, "adapter", launch.adapter.clone());
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
                    put(&mut a, "adapter", launch.adapter.clone());
                    put(&mut a, "cwd", launch.cwd.clone());
                    put(&mut a, "build", launch.build.clone());
                    put(&mut a, "core", launch.core.clone());
                    if launch.keep_core {
                        return Err(
                            "launch: --keep-core raises the core limit of a program pairdbg itself starts: give it to `pairdbg` or `pairdbg run`".into(),
                        );
                    }
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
            CtlCommand::Continue { back } => {
                if *back {
                    a.insert("direction".into(), json!("back"));
                }
                "debug_continue"
            }
            CtlCommand::Record { state } => {
                a.insert("on".into(), json!(state == "on"));
                "debug_record"
            }
            CtlCommand::Step { kind, count } => {
                if let Some(k) = kind {
                    let k = match k {
                        StepKind::Over => "over",
                        StepKind::Into => "into",
                        StepKind::Out => "out",
                        StepKind::Back => "back",
                        StepKind::BackInto => "back_into",
                        StepKind::BackOut => "back_out",
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
            CtlCommand::Vars { path, frame, start } => {
                put(&mut a, "expand", path.clone());
                put(&mut a, "frame_index", *frame);
                put(&mut a, "start", *start);
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
