//! Tool arguments as mcp-debugger names them (camelCase).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateParams {
    /// The programming language to debug (see list_supported_languages).
    pub language: String,
    /// A descriptive name for the debug session.
    pub name: Option<String>,
    /// Path to the language interpreter (the Python to run).
    pub executable_path: Option<String>,
    /// Attach at once to a debug server on this port (not supported: use attach_to_process).
    pub port: Option<u16>,
    /// With port.
    pub host: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionParams {
    /// The ID of the debug session.
    pub session_id: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BreakpointParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// Path to the source file (absolute or relative to project root).
    pub file: String,
    /// Line number where to set breakpoint (1-indexed).
    pub line: i64,
    /// Conditional expression for the breakpoint.
    pub condition: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DapLaunchArgs {
    /// Stop at first line.
    pub stop_on_entry: Option<bool>,
    /// Debug only user code.
    pub just_my_code: Option<bool>,
    /// The program's working directory.
    pub cwd: Option<String>,
    /// Environment variables for the program.
    pub env: Option<std::collections::BTreeMap<String, String>>,
    /// Command line arguments for the script (as `args`).
    pub args: Option<Vec<String>>,
    /// Honoured as the top-level breakOnExceptions, with a warning, as mcp-debugger does.
    pub break_on_exceptions: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StartParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// Path to the script to debug.
    pub script_path: String,
    /// Command line arguments for the script.
    pub args: Option<Vec<String>>,
    /// Standard DAP launch arguments.
    pub dap_launch_args: Option<DapLaunchArgs>,
    /// Adapter-specific launch configuration overrides (not supported; must be empty).
    pub adapter_launch_config: Option<Map<String, Value>>,
    /// Test spawn without actually starting.
    pub dry_run_spawn: Option<bool>,
    /// Break when exceptions are thrown: 'uncaught' (the default), 'all'
    /// (caught ones too) or 'none'.
    pub break_on_exceptions: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScopesParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// The ID of the stack frame from get_stack_trace.
    pub frame_id: i64,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct VariablesParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// The variablesReference number from a scope or variable.
    pub scope: i64,
    /// Only return variables with these exact names; those missing are listed in notFound.
    pub names: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LocalsParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// Include special/internal variables. Default: false.
    pub include_special: Option<bool>,
    /// Only return variables with these exact names; those missing are listed in notFound.
    pub names: Option<Vec<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EvaluateParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// The expression to evaluate.
    pub expression: String,
    /// Stack frame ID for context. Default: the current (top) frame.
    pub frame_id: Option<i64>,
    /// Max time (ms) to wait for the result (1 to 600000); the expression may run on after.
    pub timeout: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SourceParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// Path to the source file (absolute or relative to project root).
    pub file: String,
    /// Line number to get context for (1-indexed).
    pub line: i64,
    /// Number of lines before and after to include (default: 5).
    pub lines_context: Option<i64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttachParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// The process to attach to.
    pub process_id: Option<u32>,
    /// A debug server's port (not supported: give processId).
    pub port: Option<u16>,
    /// With port.
    pub host: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct DetachParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// End the process too (not supported: an attached process keeps running).
    pub terminate_process: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RedefineParams {
    /// The debug session ID (must be an active Java session).
    pub session_id: String,
    /// Absolute path to compiled classes directory.
    pub classes_dir: String,
    /// Only redefine .class files modified after this time (Unix ms).
    pub since_timestamp: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemoveBreakpointParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// Breakpoint id from set_breakpoint or list_breakpoints. Takes precedence over file + line.
    pub breakpoint_id: Option<String>,
    /// Alternative addressing: remove all function breakpoints with this symbol name.
    pub function: Option<String>,
    /// Alternative addressing: source file path (use together with line).
    pub file: Option<String>,
    /// Alternative addressing: line number (use together with file).
    pub line: Option<i64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct FileFilterParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// Optional: only breakpoints in this file.
    pub file: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutputParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// Only return entries with seq greater than this cursor (nextSince from the previous response). Default: 0.
    pub since: Option<u64>,
    /// Maximum entries to return (default: 100, max: 1000).
    pub limit: Option<i64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StackParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// Accepted for mcp-debugger's scripts; the stack holds the frames the adapter gives.
    // Read by no one: pairdbg hides no frames, so there is nothing to include.
    #[allow(dead_code)]
    pub include_internals: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PauseParams {
    /// The ID of the debug session.
    pub session_id: String,
    /// Accepted for mcp-debugger's scripts: pairdbg pauses the whole program.
    // Read by no one: a pause stops every thread.
    #[allow(dead_code)]
    pub thread_id: Option<i64>,
}
