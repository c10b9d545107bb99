//! The document's request and response shapes. Requests refuse unknown
//! fields and take no null where the document gives a type.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateSession {
    pub entry: String,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "present")]
    pub python_path: Option<String>,
}

/// The body of both the breakpoint and the continue operations.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    pub file: String,
    #[serde(deserialize_with = "integer")]
    pub line: i64,
}

/// An integer and only an integer: a number too large for a line is
/// refused as such, not as a float it was read as.
fn integer<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    struct Integer;
    impl serde::de::Visitor<'_> for Integer {
        type Value = i64;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an integer")
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<i64, E> {
            Ok(v)
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<i64, E> {
            i64::try_from(v).map_err(|_| E::custom(format!("{v} is out of range for a line")))
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<i64, E> {
            Err(E::custom(format!(
                "{v} is not an integer, or too large for a line"
            )))
        }
    }
    d.deserialize_any(Integer)
}

/// An optional field that, when given, must hold its type, not null.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    String::deserialize(d).map(Some)
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Created {
    pub session_id: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct FrameInfo {
    pub file: String,
    pub line: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct RunError {
    #[serde(rename = "type")]
    pub kind: String,
    pub message: String,
    pub traceback: Option<String>,
}

/// What a breakpoint or continue operation found.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    pub hit: bool,
    pub frame_info: Option<FrameInfo>,
    pub locals: Option<Map<String, Value>>,
    pub completed: bool,
    pub error: Option<RunError>,
}

impl RunResult {
    pub fn completed() -> Self {
        RunResult {
            hit: false,
            frame_info: None,
            locals: None,
            completed: true,
            error: None,
        }
    }

    pub fn failed(kind: &str, message: String, traceback: Option<String>) -> Self {
        RunResult {
            hit: false,
            frame_info: None,
            locals: None,
            completed: false,
            error: Some(RunError {
                kind: kind.to_string(),
                message,
                traceback,
            }),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Idle,
    Running,
    Paused,
    Completed,
    Error,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LastBreakpoint {
    pub file: String,
    pub line: u64,
    pub hit_count: u64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Timings {
    pub last_run_ms: Option<f64>,
    pub total_cpu_time_ms: Option<f64>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionState {
    pub status: Status,
    pub last_breakpoint: Option<LastBreakpoint>,
    pub timings: Option<Timings>,
}

#[derive(Debug, Serialize)]
pub struct Ended {
    pub ended: bool,
}
