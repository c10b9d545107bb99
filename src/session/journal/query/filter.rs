//! Which journals a list or a search reads: by workspace, program, date
//! and how the session ended.

use super::dates::{DayEnd, parse};
use super::summary::{Outcome, Summary};

/// How a session ended, as `--outcome` asks for it.
#[derive(Debug, Clone, PartialEq)]
pub enum OutcomeWanted {
    Exited(Option<i64>),
    Crashed,
    Killed,
    Failed,
    Open,
}

pub const OUTCOMES: &str = "exited, exited:N (with code N), crashed, killed, failed or open";

impl OutcomeWanted {
    pub fn parse(arg: &str, text: &str) -> Result<OutcomeWanted, String> {
        let bad = || format!("{arg} {text:?}: expected {OUTCOMES}");
        Ok(match text.trim() {
            "exited" => OutcomeWanted::Exited(None),
            "crashed" => OutcomeWanted::Crashed,
            "killed" => OutcomeWanted::Killed,
            "failed" => OutcomeWanted::Failed,
            "open" => OutcomeWanted::Open,
            t => match t.strip_prefix("exited:") {
                Some(code) => OutcomeWanted::Exited(Some(code.parse().map_err(|_| bad())?)),
                None => return Err(bad()),
            },
        })
    }

    fn matches(&self, o: &Outcome) -> bool {
        match (self, o) {
            (OutcomeWanted::Exited(None), Outcome::Exited { .. }) => true,
            (OutcomeWanted::Exited(Some(c)), Outcome::Exited { code }) => *code == Some(*c),
            (OutcomeWanted::Crashed, Outcome::Crashed { .. })
            | (OutcomeWanted::Killed, Outcome::Killed { .. })
            | (OutcomeWanted::Failed, Outcome::Failed { .. })
            | (OutcomeWanted::Open, Outcome::Open { .. }) => true,
            _ => false,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only this workspace's journals; None for every workspace's.
    pub workspace: Option<String>,
    /// A part of the program's path.
    pub program: Option<String>,
    pub since_ms: Option<u64>,
    pub until_ms: Option<u64>,
    pub outcome: Option<OutcomeWanted>,
}

impl Filter {
    /// A filter from its arguments as given, each checked and refused by
    /// its name.
    pub fn new(
        workspace: Option<String>,
        program: Option<&str>,
        since: Option<&str>,
        until: Option<&str>,
        outcome: Option<&str>,
    ) -> Result<Filter, String> {
        let since_ms = since
            .map(|s| parse("--since", s, DayEnd::Start))
            .transpose()?;
        let until_ms = until
            .map(|s| parse("--until", s, DayEnd::End))
            .transpose()?;
        if let (Some(a), Some(b)) = (since_ms, until_ms)
            && a > b
        {
            return Err(format!(
                "--since {:?} is after --until {:?}: nothing can match",
                since.unwrap_or_default(),
                until.unwrap_or_default()
            ));
        }
        Ok(Filter {
            workspace,
            program: program.map(str::to_string).filter(|p| !p.is_empty()),
            since_ms,
            until_ms,
            outcome: outcome
                .map(|o| OutcomeWanted::parse("--outcome", o))
                .transpose()?,
        })
    }

    pub fn passes(&self, s: &Summary) -> bool {
        self.workspace.as_ref().is_none_or(|w| *w == s.workspace)
            && self
                .program
                .as_ref()
                .is_none_or(|p| s.program.contains(p.as_str()))
            && self.since_ms.is_none_or(|t| s.started_ms >= t)
            && self.until_ms.is_none_or(|t| s.started_ms <= t)
            && self.outcome.as_ref().is_none_or(|o| o.matches(&s.outcome))
    }
}
