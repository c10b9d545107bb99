//! What each tool does to the program, as MCP tool annotations, so that a
//! client can run the read-only ones without asking and warn before the
//! destructive ones. One table keeps the answers side by side.

use rmcp::model::ToolAnnotations;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Reads state; changes nothing.
    Reads,
    /// Changes the session, and the same call again changes nothing more.
    Sets,
    /// Changes the session or moves the program; each call does more.
    Acts,
    /// Throws state away (a running program, a breakpoint, a value).
    Destroys,
}

/// Tools not named here are treated as acting: a new tool must be added
/// to the table to be called read-only.
const TABLE: &[(&str, Effect)] = &[
    ("debug_status", Effect::Reads),
    ("debug_stack", Effect::Reads),
    ("debug_variables", Effect::Reads),
    ("debug_source", Effect::Reads),
    ("debug_output", Effect::Reads),
    ("debug_sessions", Effect::Reads),
    ("debug_wait", Effect::Reads),
    ("debug_find", Effect::Reads),
    ("debug_action_log", Effect::Reads),
    ("debug_journal", Effect::Reads),
    ("breakpoint_list", Effect::Reads),
    ("breakpoint_wait", Effect::Reads),
    ("exception_get_context", Effect::Reads),
    ("debug_threads", Effect::Sets),
    ("debug_watch", Effect::Sets),
    ("debug_record", Effect::Sets),
    ("breakpoint_enable", Effect::Sets),
    ("breakpoint_set_exception", Effect::Sets),
    ("debug_set_variable", Effect::Destroys),
    ("breakpoint_remove", Effect::Destroys),
    ("debug_restart", Effect::Destroys),
    ("debug_terminate", Effect::Destroys),
];

pub fn effect(tool: &str) -> Effect {
    TABLE
        .iter()
        .find(|(name, _)| *name == tool)
        .map_or(Effect::Acts, |(_, e)| *e)
}

/// The hints for `tool`, each left out where it is the spec's default
/// (`destructiveHint` true, `idempotentHint` false, both read only when
/// `readOnlyHint` is false): every tools/list costs tokens.
pub fn annotations(tool: &str) -> ToolAnnotations {
    let a = ToolAnnotations::new();
    match effect(tool) {
        Effect::Reads => a.read_only(true),
        Effect::Sets => a.destructive(false).idempotent(true),
        Effect::Acts => a.destructive(false),
        Effect::Destroys => match matches!(
            tool,
            "breakpoint_remove" | "debug_terminate" | "debug_set_variable"
        ) {
            true => a.idempotent(true),
            false => a,
        },
    }
}
