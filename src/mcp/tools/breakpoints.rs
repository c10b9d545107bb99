//! Breakpoint tools.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

use crate::mcp::format::{breakpoint_line, err, ok};
use crate::mcp::params::*;
use crate::mcp::server::{PairdbgServer, ToolResult, to_breakpoint_request};
use crate::session::{BreakpointSelector, Origin, SessionError};

#[tool_router(router = breakpoints_router, vis = "pub(crate)")]
impl PairdbgServer {
    #[tool(description = "Set a line breakpoint (condition, hit_count, log_message optional).")]
    async fn breakpoint_set(&self, Parameters(p): Parameters<BreakpointSetParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let res = s
            .set_breakpoint(Origin::Agent, to_breakpoint_request(p.breakpoint))
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

    #[tool(description = "Remove a breakpoint by id, or by file and line.")]
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
        match Self::checked(&s, s.remove_breakpoint(Origin::Agent, sel).await) {
            Ok(bs) => {
                let snap = s.snapshot();
                let body = bs
                    .iter()
                    .map(|b| format!("Removed {}", breakpoint_line(&snap, b)))
                    .collect::<Vec<_>>()
                    .join("\n");
                Ok(ok(&self.views, &snap, body))
            }
            Err(e) => Ok(e),
        }
    }

    #[tool(description = "List breakpoints and exception filters.")]
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
        if snap.breakpoints.is_empty() {
            body.push_str("  (none)\n");
        }
        body.push_str(&format!(
            "Exception filters: {:?}\n",
            snap.exception_filters
        ));
        Ok(ok(&self.views, &snap, body))
    }

    #[tool(
        description = "Choose when exceptions stop the program: filters such as uncaught, raised."
    )]
    async fn breakpoint_set_exception(
        &self,
        Parameters(p): Parameters<ExceptionParams>,
    ) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let res = s.set_exception_filters(Origin::Agent, p.filters).await;
        if let Err(e) = Self::checked(&s, res) {
            return Ok(e);
        }
        let snap = s.snapshot();
        let avail: Vec<String> = snap
            .available_exception_filters
            .iter()
            .map(|(f, l)| format!("{f} ({l})"))
            .collect();
        Ok(ok(
            &self.views,
            &snap,
            format!(
                "Exception filters: {:?}\nAvailable: {}",
                snap.exception_filters,
                avail.join(", ")
            ),
        ))
    }
}
