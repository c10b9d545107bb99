//! One journal in a line: what ran, when, how it ended, how much it holds.

use serde::Serialize;

use super::super::record::Record;

/// How a recorded session ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// The program exited with `code`, where it was read.
    Exited { code: Option<i64> },
    /// A fatal signal ended the program, or it exited after stopping on
    /// an uncaught exception.
    Crashed { how: String },
    /// Ended on request: a signal such as SIGKILL, or its session ended.
    Killed { how: String },
    /// The session failed (its adapter, not the program).
    Failed { error: String },
    /// No end recorded: the session is still open (its pairdbg runs), or
    /// its pairdbg ended without writing one.
    /// `pairdbg_running` is left out where it could not be read.
    Open {
        #[serde(skip_serializing_if = "Option::is_none")]
        pairdbg_running: Option<bool>,
    },
}

impl Outcome {
    pub fn text(&self) -> String {
        match self {
            Outcome::Exited { code: Some(c) } => format!("exited with code {c}"),
            Outcome::Exited { code: None } => "exited (code not read)".into(),
            Outcome::Crashed { how } => format!("crashed: {how}"),
            Outcome::Killed { how } => format!("killed: {how}"),
            Outcome::Failed { error } => format!("failed: {error}"),
            Outcome::Open {
                pairdbg_running: Some(true),
            } => "open (no end recorded yet: its pairdbg still runs)".into(),
            Outcome::Open {
                pairdbg_running: Some(false),
            } => "ended without an end recorded (its pairdbg is gone)".into(),
            Outcome::Open {
                pairdbg_running: None,
            } => "open or ended without an end recorded".into(),
        }
    }
}

/// Signals a person or a tool sends to end a program, not a fault of its own.
const ENDING_SIGNALS: &[&str] = &["SIGKILL", "SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"];

#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The journal's id: its file name without `.jsonl`.
    pub id: String,
    pub session: String,
    pub workspace: String,
    pub program: String,
    pub args: Vec<String>,
    /// Milliseconds since 1970, UTC.
    pub started_ms: u64,
    pub started: String,
    #[serde(flatten)]
    pub outcome: Outcome,
    pub outcome_text: String,
    pub stops: usize,
    pub notes: usize,
}

pub fn summarize(id: &str, records: &[Record]) -> Summary {
    let start = records.iter().find_map(|r| match r {
        Record::Start {
            session,
            workspace,
            program,
            args,
            at,
            pid,
        } => Some((session, workspace, program, args, *at, *pid)),
        _ => None,
    });
    let (session, workspace, program, args, at, pid) = match start {
        Some((s, w, p, a, at, pid)) => (s.clone(), w.clone(), p.clone(), a.clone(), at, pid),
        None => Default::default(),
    };
    let outcome = outcome(records, pid);
    Summary {
        id: id.to_string(),
        session,
        workspace,
        program,
        args,
        started_ms: at,
        started: super::dates::utc(at),
        outcome_text: outcome.text(),
        outcome,
        stops: records
            .iter()
            .filter(|r| matches!(r, Record::Stop(_)))
            .count(),
        notes: records
            .iter()
            .filter(|r| matches!(r, Record::Note { .. }))
            .count(),
    }
}

fn outcome(records: &[Record], pid: u32) -> Outcome {
    let last_stop_exception = || {
        records.iter().rev().find_map(|r| match r {
            Record::Stop(s) => Some(s.exception.clone()),
            _ => None,
        })
    };
    for r in records.iter().rev() {
        match r {
            Record::Exit {
                exit_code, summary, ..
            } => {
                if let Some(signal) = killed_by(summary) {
                    return if ENDING_SIGNALS.contains(&signal.as_str()) {
                        Outcome::Killed {
                            how: format!("by {signal}"),
                        }
                    } else {
                        Outcome::Crashed {
                            how: format!("killed by {signal}"),
                        }
                    };
                }
                if summary.contains("was terminated at") {
                    return Outcome::Killed {
                        how: "its session was ended".into(),
                    };
                }
                if let (Some(c), Some(Some(x))) = (exit_code, last_stop_exception())
                    && *c != 0
                {
                    return Outcome::Crashed {
                        how: format!("{x}, exited with code {c}"),
                    };
                }
                return Outcome::Exited { code: *exit_code };
            }
            Record::Failed { error, .. } => {
                return Outcome::Failed {
                    error: error.clone(),
                };
            }
            _ => {}
        }
    }
    Outcome::Open {
        pairdbg_running: running(pid),
    }
}

/// Whether the pairdbg that wrote a journal still runs: its process is
/// there and is a pairdbg (a pid may have been reused since). None where
/// that cannot be read (no /proc).
fn running(pid: u32) -> Option<bool> {
    if pid == std::process::id() {
        return Some(true);
    }
    if !std::path::Path::new("/proc/self/comm").exists() {
        return None;
    }
    Some(
        std::fs::read_to_string(format!("/proc/{pid}/comm"))
            .is_ok_and(|name| name.trim() == env!("CARGO_PKG_NAME")),
    )
}

/// `SIGSEGV` from "The program was killed by SIGSEGV."
fn killed_by(summary: &str) -> Option<String> {
    let rest = summary.split("was killed by ").nth(1)?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == ' ')
        .collect();
    let name = name.trim();
    (!name.is_empty()).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::journal::StopRecord;

    fn start(pid: u32) -> Record {
        Record::Start {
            session: "s1".into(),
            workspace: "/ws".into(),
            program: "p.py".into(),
            args: vec![],
            pid,
            at: 0,
        }
    }

    fn exit(code: Option<i64>, summary: &str) -> Record {
        Record::Exit {
            at: 1,
            epoch: 1,
            exit_code: code,
            summary: summary.into(),
        }
    }

    fn stop(exception: Option<&str>) -> Record {
        Record::Stop(Box::new(StopRecord {
            at: 1,
            epoch: 1,
            seq: 1,
            reason: "exception".into(),
            description: None,
            exception: exception.map(str::to_string),
            frames: vec![],
            locals: vec![],
            viewport: String::new(),
        }))
    }

    fn of(records: Vec<Record>) -> String {
        summarize("j", &records).outcome_text
    }

    #[test]
    fn how_a_session_ended_is_read_from_its_last_records() {
        let me = std::process::id();
        assert_eq!(
            of(vec![
                start(me),
                exit(Some(3), "The program exited with code 3.")
            ]),
            "exited with code 3"
        );
        assert_eq!(
            of(vec![
                start(me),
                exit(None, "The program was killed by SIGSEGV.")
            ]),
            "crashed: killed by SIGSEGV"
        );
        assert_eq!(
            of(vec![
                start(me),
                exit(None, "The program was killed by SIGKILL.")
            ]),
            "killed: by SIGKILL"
        );
        assert_eq!(
            of(vec![
                start(me),
                exit(None, "The program was terminated at the agent's request.")
            ]),
            "killed: its session was ended"
        );
        assert_eq!(
            of(vec![
                start(me),
                stop(Some("ValueError: bad")),
                exit(Some(1), "The program exited with code 1.")
            ]),
            "crashed: ValueError: bad, exited with code 1"
        );
        assert_eq!(
            of(vec![start(me), stop(None)]),
            "open (no end recorded yet: its pairdbg still runs)"
        );
        // A pid no process has.
        assert_eq!(
            of(vec![start(u32::MAX - 7), stop(None)]),
            "ended without an end recorded (its pairdbg is gone)"
        );
    }
}
