//! debug_run_until: run until a watched expression changes or becomes true.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

use crate::agent::side_effects::Gate;
use crate::mcp::format::{self, err};
use crate::mcp::params::{RunUntilParams, UntilParam};
use crate::mcp::server::{DEFAULT_WAIT_MS, PairdbgServer, ToolResult};
use crate::session::run_until::{self, Until, UntilEnd};
use crate::session::validate;

const DEFAULT_STEPS: u32 = 1_000;

#[tool_router(router = run_until_router, vis = "pub(crate)")]
impl PairdbgServer {
    #[tool(description = "Step until a value changes or is true.")]
    async fn debug_run_until(&self, Parameters(p): Parameters<RunUntilParams>) -> ToolResult {
        let s = match self.session(p.session_id.as_deref()) {
            Ok(s) => s,
            Err(e) => return Ok(e),
        };
        let timeout = match validate::check_timeout(p.timeout_ms, DEFAULT_WAIT_MS) {
            Ok(t) => t,
            Err(e) => return Ok(err(Some(&s.snapshot()), &e)),
        };
        let approved = match self
            .side_effects_gate(
                &s,
                Gate {
                    tool: "debug_run_until",
                    field: "expression",
                    expressions: &[p.expression.as_str()],
                    frame_index: 0,
                    allow: p.allow_side_effects,
                    timeout,
                },
            )
            .await
        {
            Ok(a) => a,
            Err(refusal) => return Ok(refusal),
        };
        let until = match p.until.unwrap_or(UntilParam::Changes) {
            UntilParam::Changes => Until::Changes,
            UntilParam::BecomesTrue => Until::BecomesTrue,
        };
        let max_steps = p.max_steps.unwrap_or(DEFAULT_STEPS);
        let res = run_until::run_until(
            &s,
            self.agent.origin,
            &p.expression,
            until,
            max_steps,
            timeout,
        )
        .await;
        let r = match Self::checked(&s, res) {
            Ok(r) => r,
            Err(e) => return Ok(e),
        };
        let mut r = r;
        if self.views.redacts() {
            let secret = crate::viewport::redact::is_secret_name(&p.expression);
            let taint = s.taint();
            r.old = hide(secret, &r.old, &taint);
            r.new = r.new.map(|n| hide(secret, &n, &taint));
        }
        let expr = &p.expression;
        let steps = match (r.watched, r.steps) {
            (false, 1) => "1 step".to_string(),
            (false, n) => format!("{n} steps"),
            (true, 1) => "1 write (data breakpoint)".to_string(),
            (true, n) => format!("{n} writes (data breakpoint)"),
        };
        let head = match (&r.end, &r.new) {
            (UntilEnd::Met, Some(new)) => format!("{expr}: {} → {new} after {steps}.", r.old),
            (UntilEnd::OtherStop(reason), new) => format!(
                "Stopped by a {reason} after {steps}, before {expr} {}; it is {}.",
                match until {
                    Until::Changes => "changed",
                    Until::BecomesTrue => "became true",
                },
                new.as_deref().unwrap_or("?")
            ),
            (UntilEnd::StepCap, new) => format!(
                "{expr} still {} after {steps} (max_steps); raise max_steps or set a breakpoint nearer.",
                new.as_deref().unwrap_or(&r.old)
            ),
            (UntilEnd::LostExpression(e), _) => format!(
                "After {steps}, {expr} no longer evaluates ({e}); it was {} before.",
                r.old
            ),
            _ => format!("{expr} was {}; the run ended after {steps}:", r.old),
        };
        let res = format::outcome(&self.views, &s, r.outcome, timeout.as_millis() as u64);
        Ok(format::with_approval(
            format::prefixed(res, &head),
            approved,
        ))
    }
}

/// A value of the watched expression as the agent may see it.
fn hide(secret: bool, value: &str, taint: &crate::viewport::redact::Taint) -> String {
    if secret {
        crate::viewport::redact::mask(value)
    } else {
        crate::viewport::redact::text(value, taint)
    }
}
