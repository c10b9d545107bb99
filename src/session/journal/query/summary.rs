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
    /// No end recorded: the session is still open, or its pairdbg ended
    /// without writing one.
    Open,
}

impl Outcome {
    pub fn text(&self) -> String {
        match self {
            Outcome::Exited { code: Some(c) } => format!("exited with code {c}"),
            Outcome::Exited { code: None } => "exited (code not read)".into(),
            Outcome::Crashed { how } => format!("crashed: {how}"),
            Outcome::Killed { how } => format!("killed: {how}"),
            Outcome::Failed { error } => format!("failed: {error}"),
            Outcome::Open => "open (no end recorded)".into(),
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
            ..
        } => Some((session, workspace, program, args, *at)),
        _ => None,
    });
    let (session, workspace, program, args, at) = match start {
        Some((s, w, p, a, at)) => (s.clone(), w.clone(), p.clone(), a.clone(), at),
        None => Default::default(),
    };
    let outcome = outcome(records);
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

fn outcome(records: &[Record]) -> Outcome {
    let last_stop_exception = || {
        records.iter().rev().find_map(|r| match r {
            Record::Stop(s) => Some(s.exception.clone()),
            _ => None,
        })
    };
    for r in records.iter().rev() {
        match r {
            Record::Exit {
                exit_code,
                summary,
                ..
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
    Outcome::Open
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
