//! Typing into the program: a line of its standard input.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

use crate::mcp::format::{err, ok};
use crate::mcp::params::InputParams;
use crate::mcp::server::{PairdbgServer, ToolResult};
use crate::session::error::SessionError;
use crate::session::terminal::MAX_INPUT_BYTES;

#[tool_router(router = input_router, vis = "pub(crate)")]
impl PairdbgServer {
    #[tool(description = "Type a line to stdin.")]
    async fn debug_input(&self, Parameters(p): Parameters<InputParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        if p.text.len() >= MAX_INPUT_BYTES {
            return Ok(err(
                Some(&s.snapshot()),
                &SessionError::invalid(
                    "text",
                    format!(
                        "{} bytes is over the limit of {MAX_INPUT_BYTES}",
                        p.text.len()
                    ),
                ),
            ));
        }
        let line = format!("{}\n", p.text.strip_suffix('\n').unwrap_or(&p.text));
        let n = line.len();
        if let Err(e) = Self::checked(&s, s.send_input(self.agent.origin, line).await) {
            return Ok(e);
        }
        Ok(ok(
            &self.views,
            &s.snapshot(),
            format!("Typed {n} bytes into the program's stdin; its answer shows in debug_output."),
        ))
    }
}
