//! Tool parameters. Field docs become the schema the agent reads: keep them short.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

use crate::viewport::ViewportConfig;

#[derive(Debug, Deserialize, JsonSchema)]
pub struct BreakpointParam {
    pub file: Option<String>,
    pub line: Option<i64>,
    pub function: Option<String>,
    /// A line's text; follows edits.
    pub statement: Option<String>,
    /// Line text it must have.
    pub expected_content: Option<String>,
    pub condition: Option<String>,
    /// 3, ">=3" or "%3".
    pub hit_count: Option<HitCount>,
    /// Log {expr}s, no stop.
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
    pub program: Option<String>,
    /// python -m this.
    pub module: Option<String>,
    pub args: Option<Vec<String>>,
    pub cwd: Option<String>,
    pub env: Option<BTreeMap<String, String>>,
    pub language: Option<String>,
    /// gdb or lldb-dap.
    pub adapter: Option<String>,
    pub python: Option<String>,
    pub stop_on_entry: Option<bool>,
    pub breakpoints: Option<Vec<BreakpointParam>>,
    /// Default ["uncaught"].
    pub exception_breakpoints: Option<Vec<String>>,
    /// Default true.
    pub just_my_code: Option<bool>,
    /// Default true.
    pub subprocesses: Option<bool>,
    // A shell command run before the launch and each restart. No
    // description: the tool list's budget has no room for one.
    pub build: Option<String>,
    // A core file to read, with program the binary that wrote it; nothing
    // runs. No description, for the tool list's budget.
    pub core: Option<String>,
    pub viewport_config: Option<ViewportConfig>,
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct AttachParams {
    pub pid: Option<u32>,
    pub host: Option<String>,
    pub port: Option<u32>,
    pub language: Option<String>,
    // As debug_launch's, which says what it takes: the tool list's budget
    // has no room for the same words twice.
    pub adapter: Option<String>,
    pub program: Option<String>,
    pub path_mappings: Option<Vec<PathMappingParam>>,
    pub terminate_debuggee: Option<bool>,
    pub breakpoints: Option<Vec<BreakpointParam>>,
    pub exception_breakpoints: Option<Vec<String>>,
    pub just_my_code: Option<bool>,
    pub timeout_ms: Option<u64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct PathMappingParam {
    pub local: String,
    pub remote: String,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct SessionParams {
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct TerminateParams {
    pub session_id: Option<String>,
    /// Leave the program running.
    pub detach: Option<bool>,
    // Named as debug_attach's: the schema needs no description, which the
    // tool list's budget has no room for.
    pub terminate_debuggee: Option<bool>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ThreadsParams {
    /// Thread to show.
    pub select: Option<i64>,
    pub child: Option<u32>,
    pub timeout_ms: Option<u64>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct PauseParams {
    pub child: Option<u32>,
    pub timeout_ms: Option<u64>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct WaitParams {
    pub timeout_ms: Option<u64>,
    pub session_id: Option<String>,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepKindParam {
    Over,
    Into,
    Out,
    Back,
    BackInto,
    BackOut,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DirectionParam {
    Forward,
    Back,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ContinueParams {
    pub direction: Option<DirectionParam>,
    pub timeout_ms: Option<u64>,
    pub session_id: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct RecordParams {
    pub on: bool,
    pub max_instructions: Option<u64>,
    pub session_id: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct StepParams {
    pub kind: Option<StepKindParam>,
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
    /// Kept as the default.
    pub viewport_config: Option<ViewportConfig>,
    pub max_tokens: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct StackParams {
    pub levels: Option<usize>,
    pub start: Option<usize>,
    pub max_tokens: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct VariablesParams {
    pub frame_index: Option<usize>,
    /// Locals (default), Globals.
    pub scope: Option<String>,
    /// e.g. cart.items[0]
    pub expand: Option<String>,
    /// Name substring.
    pub filter: Option<String>,
    pub start: Option<usize>,
    pub count: Option<usize>,
    pub allow_side_effects: Option<bool>,
    pub max_tokens: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct EvaluateParams {
    pub expression: String,
    /// Default 256.
    pub max_length: Option<usize>,
    pub frame_index: Option<usize>,
    pub allow_side_effects: Option<bool>,
    pub max_tokens: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SetVariableParams {
    pub name: String,
    /// An expression.
    pub value: String,
    pub frame_index: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct SourceParams {
    pub file: Option<String>,
    pub line: Option<i64>,
    pub context: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct OutputParams {
    /// program (default), debugger, build, trace.
    pub stream: Option<String>,
    /// Cursor.
    pub since: Option<u64>,
    /// Run to read, from 1 (a restart begins the next); default the current.
    pub run: Option<usize>,
    /// Every run kept, each headed.
    pub all: Option<bool>,
    pub max_bytes: Option<usize>,
    pub max_tokens: Option<usize>,
    pub session_id: Option<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct WatchParams {
    pub add: Option<Vec<String>>,
    pub remove: Option<Vec<String>>,
    pub allow_side_effects: Option<bool>,
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
    /// e.g. ["raised"].
    pub filters: Option<Vec<String>>,
    pub exception_type: Option<String>,
    /// Raised (default true).
    pub break_on_first_chance: Option<bool>,
    /// Uncaught (default true).
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
    /// {expr} evaluated; {{ }} literal.
    pub log_message: Option<String>,
    /// Record every Nth hit.
    pub hit_count_multiple: Option<u64>,
    /// Then disable.
    pub max_notifications: Option<u64>,
    pub session_id: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct InputParams {
    pub text: String,
    pub session_id: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct NoteParams {
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
    pub pattern: String,
    pub kind: Option<FindKindParam>,
    pub max_results: Option<usize>,
    pub session_id: Option<String>,
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
    pub max_steps: Option<u32>,
    pub timeout_ms: Option<u64>,
    pub allow_side_effects: Option<bool>,
    pub session_id: Option<String>,
}
