//! An adapter that stops where a breakpoint condition failed may tell of
//! the failure as output sent after the stop, from another thread: under
//! load every read of the stop can be answered before it comes. Running
//! the condition again in the stopped frame tells the failure with the
//! stop itself.

use std::path::PathBuf;

use super::Engine;
use crate::adapters::Language;
use crate::dap::DapError;
use crate::session::link::Link;
use crate::session::reads;
use crate::session::types::StopInfo;

/// The conditions that could have failed at a stop, taken before its reads.
pub(super) struct ConditionProbe {
    conditions: Vec<(PathBuf, u64, String)>,
    language: &'static dyn Language,
}

impl Engine {
    /// None unless the adapter stops where a condition fails and some
    /// breakpoint has a condition that is safe to run again.
    pub(super) fn condition_probe(&self) -> Option<ConditionProbe> {
        let adapter = self.config.adapter;
        if !adapter.quirks().condition_error_stops {
            return None;
        }
        let language = adapter.language();
        let conditions: Vec<_> = self
            .snap
            .breakpoints
            .iter()
            .filter(|b| b.enabled && b.is_source())
            .filter_map(|b| {
                let condition = b.condition.as_deref()?.trim();
                language.side_effect(condition).is_none().then(|| {
                    let line = b.bound_line.unwrap_or(b.line);
                    (b.file.clone(), line, condition.to_string())
                })
            })
            .collect();
        (!conditions.is_empty()).then_some(ConditionProbe {
            conditions,
            language,
        })
    }
}

impl ConditionProbe {
    /// The condition of the breakpoint the program stopped at, with its
    /// error, when running it there fails. A condition that runs (or an
    /// answer that never comes) leaves the stop a hit.
    pub async fn failed(self, client: &Link, stop: &StopInfo) -> Option<(String, String)> {
        if stop.reason != "breakpoint" {
            return None;
        }
        let top = stop.frames.first()?;
        let file = top.file.as_deref()?;
        let (_, _, condition) = self
            .conditions
            .into_iter()
            .find(|(f, line, _)| f == file && *line == top.line)?;
        let context = client.quirks().evaluate_context;
        match reads::evaluate(client, &condition, Some(top.id), context).await {
            Err(DapError::Failed { message, .. }) => {
                let error = self.language.evaluation_error(&message);
                Some((condition, error))
            }
            _ => None,
        }
    }
}
