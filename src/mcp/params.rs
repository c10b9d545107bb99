//! Tool parameters. Field docs become the schema the agent reads: keep them short.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::viewport::ViewportConfig;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BreakpointParam {
    /// Workspace-relative path.
    pub file: Option<String>,
    /// 1-based line.
    pub line: Option<i64>,
    /// Break on entry to this function instead of file/line.
    pub function: Option<String>,
    /// A line's text to break on; follows it across edits.
    pub statement: Option<String>,
    /// Refuse unless the line reads this.
    pub expected_content: Option<String>,
    /// Stop only when this expression is true.
    pub condition: Option<String>,
    /// Stop on the Nth hit: 3, ">=3" or "%3".
    pub hit_count: Option<HitCount>,
    /// Log this instead of stopping; {expr} is interpolated.
    pub log_message: Option<String>,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum HitCount {
    Count(u64),
    Text(String),
}

impl HitCount {
    pub fn as_condition(&self) -> String {
        match self {
            HitCount::Count(n) => n.to_string(),
            HitCount::Text(s) => s.clone(),
        }
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct LaunchParams {
    /// Script path (or use module).
    pub program: Option<String>,
    /// Module to run as `python -m`.
    pub module: Option<String>,
    pub args: Option<Vec<String>>,
    pub cwd: Option<String>,
    pub env: Option<BTreeMap<String, String>>,
    /// Inferred from the program (.py, a Go package, an ELF binary).
    pub language: Option<String>,
    /// Interpreter path.
    pub python: Option<String>,
    pub stop_on_entry: Option<bool>,
    pub breakpoints: Option<Vec<BreakpointParam>>,
    /// Exception filters; default ["uncaught"].
    pub exception_breakpoints: Option<Vec<String>>,
    /// Default true; false debugs libraries too.
    pub just_my_code: Option<bool>,
    pub viewport_config: Option<ViewportConfig>,
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct AttachParams {
    /// The running process.
    pub pid: u32,
    /// Inferred from the process's program.
    pub language: Option<String>,
    pub breakpoints: Option<Vec<BreakpointParam>>,
    pub exception_breakpoints: Option<Vec<String>>,
    pub just_my_code: Option<bool>,
    pub viewport_config: Option<ViewportConfig>,
    /// With breakpoints: how long to wait for one to stop the program.
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct SessionParams {
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct TerminateParams {
    pub session_id: Option<String>,
    /// Leave the program running (always so for an attached process).
    pub detach: Option<bool>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ThreadsParams {
    /// A thread id: show and step that thread from now on; returns its viewport.
    pub select: Option<i64>,
    pub timeout_ms: Option<u64>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct WaitParams {
    pub timeout_ms: Option<u64>,
    pub session_id: Option<String>,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StepKindParam {
    Over,
    Into,
    Out,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct StepParams {
    /// over (default), into or out.
    pub kind: Option<StepKindParam>,
    /// Steps to take (default 1).
    pub count: Option<u32>,
    pub timeout_ms: Option<u64>,
    pub session_id: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RunToParams {
    pub file: String,
    pub line: i64,
    pub timeout_ms: Option<u64>,
    pub session_id: Option<String>,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    #[default]
    Text,
    Json,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct StatusParams {
    pub format: Option<Format>,
    /// Also becomes this session's default.
    pub viewport_config: Option<ViewportConfig>,
    pub max_tokens: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct StackParams {
    /// Frames to list (default 20).
    pub levels: Option<usize>,
    pub start: Option<usize>,
    pub max_tokens: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct VariablesParams {
    /// 0 is the top frame.
    pub frame_index: Option<usize>,
    /// Locals (default) or Globals.
    pub scope: Option<String>,
    /// Path to expand, e.g. "cart.items" or "cart.items[0]".
    pub expand: Option<String>,
    /// Keep names containing this text.
    pub filter: Option<String>,
    pub start: Option<usize>,
    /// Page size (default 50).
    pub count: Option<usize>,
    pub max_tokens: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct EvaluateParams {
    pub expression: String,
    /// Chars of the value to show (default 256).
    pub max_length: Option<usize>,
    pub frame_index: Option<usize>,
    pub max_tokens: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SetVariableParams {
    /// Variable or path, e.g. "total" or "cart.items[0].price".
    pub name: String,
    /// New value as an expression.
    pub value: String,
    pub frame_index: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct SourceParams {
    /// Default: the current file.
    pub file: Option<String>,
    /// Center line (default: the current line).
    pub line: Option<i64>,
    /// Lines each side (default 10).
    pub context: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct OutputParams {
    /// "program" (default) or "trace" (tracepoint hits).
    pub stream: Option<String>,
    /// Cursor from the last call (default 0).
    pub since: Option<u64>,
    /// Default 8192.
    pub max_bytes: Option<usize>,
    pub max_tokens: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct WatchParams {
    pub add: Option<Vec<String>>,
    pub remove: Option<Vec<String>>,
    pub session_id: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BreakpointSetParams {
    #[serde(flatten)]
    pub breakpoint: BreakpointParam,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct BreakpointRemoveParams {
    pub id: Option<u64>,
    pub file: Option<String>,
    pub line: Option<i64>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ExceptionParams {
    /// e.g. ["uncaught"], ["raised", "uncaught"], or [] for none.
    pub filters: Option<Vec<String>>,
    /// Break on this exception type, e.g. "ValueError".
    pub exception_type: Option<String>,
    /// When raised (default true).
    pub break_on_first_chance: Option<bool>,
    /// When uncaught (default true).
    pub break_on_second_chance: Option<bool>,
    /// Default true.
    pub include_subtypes: Option<bool>,
    pub session_id: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BreakpointEnableParams {
    pub id: u64,
    /// Default true.
    pub enabled: Option<bool>,
    pub session_id: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct TracepointParams {
    pub file: String,
    pub line: i64,
    /// {expr} is evaluated; {{ }} are literal braces.
    pub log_message: Option<String>,
    /// Record every Nth hit (0: all).
    pub hit_count_multiple: Option<u64>,
    /// Disable after N records (0: never).
    pub max_notifications: Option<u64>,
    pub session_id: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct NoteParams {
    /// What you think is going on, for the person watching.
    pub text: String,
    pub session_id: Option<String>,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FindKindParam {
    Text,
    Function,
    Class,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct FindParams {
    /// Text, or part of a name for function/class.
    pub pattern: String,
    /// Default text.
    pub kind: Option<FindKindParam>,
    /// Default 30.
    pub max_results: Option<usize>,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UntilParam {
    Changes,
    BecomesTrue,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RunUntilParams {
    pub expression: String,
    /// Default changes.
    pub until: Option<UntilParam>,
    /// Default 1000.
    pub max_steps: Option<u32>,
    pub timeout_ms: Option<u64>,
    pub session_id: Option<String>,
}
