//! Breakpoint tools.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

use crate::mcp::format::{breakpoint_line, err, exception_line, ok};
use crate::mcp::params::*;
use crate::mcp::server::{PairdbgServer, ToolResult, to_breakpoint_request};
use crate::session::types::TraceLimits;
use crate::session::{
    AnyBreakpoint, BreakpointRequest, BreakpointSelector, ExceptionTypeRequest, SessionError,
};

/// The most a tracepoint's limits may be.
const MAX_TRACE_LIMIT: u64 = 1_000_000_000;

#[tool_router(router = breakpoints_router, vis = "pub(crate)")]
impl PairdbgServer {
    #[tool(description = "Break at a line, statement or function.")]
    async fn breakpoint_set(&self, Parameters(p): Parameters<BreakpointSetParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let b = &p.breakpoint;
        if b.function.is_none() && (b.file.is_none() || (b.line.is_none() && b.statement.is_none()))
        {
            return Ok(err(
                Some(&s.snapshot()),
                &SessionError::invalid("file", "give file and line (or statement), or function"),
            ));
        }
        let res = s
            .set_breakpoint(self.agent.origin, to_breakpoint_request(p.breakpoint))
            .await;
        match Self::checked(&s, res) {
            Ok(b) => {
                let snap = s.snapshot();
                Ok(ok(
                    &self.views,
                    &snap,
                    format!("Breakpoint {}", breakpoint_line(&snap, &b)),
                ))
            }
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "Log at a line, no stop.")]
    async fn tracepoint_set(&self, Parameters(p): Parameters<TracepointParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        for (field, v) in [
            ("hit_count_multiple", p.hit_count_multiple),
            ("max_notifications", p.max_notifications),
        ] {
            if v.is_some_and(|v| v > MAX_TRACE_LIMIT) {
                return Ok(err(
                    Some(&s.snapshot()),
                    &SessionError::invalid(
                        field,
                        format!(
                            "{} is out of range; use 0 to {MAX_TRACE_LIMIT}",
                            v.unwrap_or(0)
                        ),
                    ),
                ));
            }
        }
        let request = BreakpointRequest {
            file: p.file,
            line: p.line,
            log_message: Some(p.log_message.unwrap_or_default()),
            trace: Some(TraceLimits {
                every: p.hit_count_multiple.unwrap_or(0),
                max_records: p.max_notifications.unwrap_or(0),
                records: 0,
            }),
            ..Default::default()
        };
        match Self::checked(&s, s.set_breakpoint(self.agent.origin, request).await) {
            Ok(b) => {
                let snap = s.snapshot();
                Ok(ok(
                    &self.views,
                    &snap,
                    match s.log_message_note() {
                        Some(n) => format!("Tracepoint {}\nNote: {n}", breakpoint_line(&snap, &b)),
                        None => format!("Tracepoint {}", breakpoint_line(&snap, &b)),
                    },
                ))
            }
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "Remove by id, or file and line.")]
    async fn breakpoint_remove(
        &self,
        Parameters(p): Parameters<BreakpointRemoveParams>,
    ) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let sel = match (p.id, p.file, p.line) {
            (Some(id), _, _) => BreakpointSelector::Id(id),
            (None, Some(file), Some(line)) => BreakpointSelector::Location { file, line },
            _ => {
                return Ok(err(
                    Some(&s.snapshot()),
                    &SessionError::invalid("id", "give id, or file and line"),
                ));
            }
        };
        match Self::checked(&s, s.remove_breakpoint(self.agent.origin, sel).await) {
            Ok((bs, xs)) => {
                let snap = s.snapshot();
                let body = bs
                    .iter()
                    .map(|b| format!("Removed {}", breakpoint_line(&snap, b)))
                    .chain(xs.iter().map(|x| format!("Removed {}", exception_line(x))))
                    .collect::<Vec<_>>()
                    .join("\n");
                Ok(ok(&self.views, &snap, body))
            }
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "Turn a breakpoint on or off.")]
    async fn breakpoint_enable(
        &self,
        Parameters(p): Parameters<BreakpointEnableParams>,
    ) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let res = s
            .enable_breakpoint(self.agent.origin, p.id, p.enabled.unwrap_or(true))
            .await;
        match Self::checked(&s, res) {
            Ok(b) => {
                let snap = s.snapshot();
                let line = match &b {
                    AnyBreakpoint::Line(b) => breakpoint_line(&snap, b),
                    AnyBreakpoint::Exception(x) => exception_line(x),
                };
                Ok(ok(&self.views, &snap, format!("Breakpoint {line}")))
            }
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "Breakpoints, state, hits.")]
    async fn breakpoint_list(&self, Parameters(p): Parameters<SessionParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let snap = s.snapshot();
        let mut body = String::from("Breakpoints:\n");
        for b in snap.breakpoints.iter().filter(|b| !b.temporary) {
            body.push_str(&format!("  {}\n", breakpoint_line(&snap, b)));
        }
        for x in &snap.exception_types {
            body.push_str(&format!("  {}\n", exception_line(x)));
        }
        if snap.breakpoints.iter().all(|b| b.temporary) && snap.exception_types.is_empty() {
            body.push_str("  (none)\n");
        }
        body.push_str(&format!(
            "Exception filters: {:?}\n",
            snap.exception_filters
        ));
        Ok(ok(&self.views, &snap, body))
    }

    #[tool(description = "Break on exceptions by type or filters.")]
    async fn breakpoint_set_exception(
        &self,
        Parameters(p): Parameters<ExceptionParams>,
    ) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let mut said = vec![];
        if p.filters.is_none() && p.exception_type.is_none() {
            return Ok(err(
                Some(&s.snapshot()),
                &SessionError::invalid("exception_type", "give exception_type or filters"),
            ));
        }
        if let Some(filters) = p.filters {
            let res = s.set_exception_filters(self.agent.origin, filters).await;
            if let Err(e) = Self::checked(&s, res) {
                return Ok(e);
            }
        }
        if let Some(t) = p.exception_type {
            let request = ExceptionTypeRequest {
                exception_type: t,
                first_chance: p.break_on_first_chance.unwrap_or(true),
                second_chance: p.break_on_second_chance.unwrap_or(true),
                include_subtypes: p.include_subtypes.unwrap_or(true),
            };
            match Self::checked(&s, s.set_exception_type(self.agent.origin, request).await) {
                Ok(x) => said.push(format!("Breakpoint {}", exception_line(&x))),
                Err(e) => return Ok(e),
            }
        }
        let snap = s.snapshot();
        let avail: Vec<String> = snap
            .available_exception_filters
            .iter()
            .map(|(f, l)| format!("{f} ({l})"))
            .collect();
        said.push(format!(
            "Exception filters: {:?}\nAvailable: {}",
            snap.exception_filters,
            avail.join(", ")
        ));
        Ok(ok(&self.views, &snap, said.join("\n")))
    }
}
