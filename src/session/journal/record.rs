//! One line of a journal: what happened, when, and on whose command.

use serde::{Deserialize, Serialize};

use crate::session::types::{Breakpoint, Origin, Snapshot, StopInfo};

/// Longest value kept for a local in a stop record.
const VALUE_CHARS: usize = 200;
/// Locals kept per stop record (the viewport text has its own cut).
const LOCALS_KEPT: usize = 40;
/// Frames kept per stop record.
const FRAMES_KEPT: usize = 20;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Record {
    /// The first line of every journal (and of each part after a rotation).
    Start {
        session: String,
        workspace: String,
        program: String,
        args: Vec<String>,
        pid: u32,
        at: u64,
    },
    /// A command as the engine received it.
    Command {
        at: u64,
        origin: Origin,
        command: String,
        /// It moved the program or changed breakpoints, rather than read.
        #[serde(default)]
        control: bool,
    },
    /// A change to the session, as the snapshot describes it.
    Action {
        at: u64,
        epoch: u64,
        origin: Option<Origin>,
        what: String,
    },
    Stop(Box<StopRecord>),
    Note {
        at: u64,
        epoch: u64,
        origin: Origin,
        text: String,
    },
    /// The whole breakpoint list, whenever it changes.
    Breakpoints {
        at: u64,
        epoch: u64,
        list: Vec<BreakpointRecord>,
    },
    Exit {
        at: u64,
        epoch: u64,
        exit_code: Option<i64>,
        summary: String,
    },
    Failed {
        at: u64,
        epoch: u64,
        error: String,
    },
    /// What the program wrote, on `stream` (`stdout`, `stderr`), up to
    /// the journal's output cap.
    Output {
        at: u64,
        stream: String,
        text: String,
    },
    /// The program wrote more than a journal keeps of its output: the
    /// rest is not recorded.
    OutputCapped {
        at: u64,
        bytes: u64,
    },
    /// The part before this one filled up and was rotated out.
    Rotated {
        at: u64,
        part_bytes: u64,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct StopRecord {
    pub at: u64,
    pub epoch: u64,
    /// The session's stop count.
    pub seq: u64,
    pub reason: String,
    pub description: Option<String>,
    pub exception: Option<String>,
    pub frames: Vec<FrameRecord>,
    pub locals: Vec<ValueRecord>,
    /// The stop as an agent reads it.
    pub viewport: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct FrameRecord {
    pub name: String,
    pub file: Option<String>,
    pub line: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ValueRecord {
    pub name: String,
    pub value: String,
    #[serde(rename = "type")]
    pub type_name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct BreakpointRecord {
    /// `file:line`, or the function of a function breakpoint.
    pub place: String,
    pub condition: Option<String>,
    pub hit_condition: Option<String>,
    pub log_message: Option<String>,
    pub enabled: bool,
    pub origin: Origin,
}

impl StopRecord {
    pub fn new(snap: &Snapshot, stop: &StopInfo, at: u64, viewport: String) -> StopRecord {
        StopRecord {
            at,
            epoch: snap.epoch,
            seq: snap.stop_seq,
            reason: stop.reason.clone(),
            description: stop.description.clone(),
            exception: stop
                .exception
                .as_ref()
                .map(|e| format!("{}: {}", e.type_name, cut(&e.message))),
            frames: stop
                .frames
                .iter()
                .take(FRAMES_KEPT)
                .map(|f| FrameRecord {
                    name: f.name.clone(),
                    file: f.file.as_deref().map(|p| snap.display_path(p)),
                    line: f.line,
                })
                .collect(),
            locals: stop
                .locals
                .iter()
                .filter(|v| !v.hidden)
                .take(LOCALS_KEPT)
                .map(|v| ValueRecord {
                    name: v.name.clone(),
                    value: cut(&super::shown_value(v)),
                    type_name: v.type_name.clone(),
                })
                .collect(),
            viewport,
        }
    }
}

impl BreakpointRecord {
    pub fn new(snap: &Snapshot, b: &Breakpoint) -> BreakpointRecord {
        let place = match (&b.function, b.file.as_os_str().is_empty()) {
            (Some(f), true) => format!("function {f}"),
            _ => format!("{}:{}", snap.display_path(&b.file), b.at_line()),
        };
        BreakpointRecord {
            place,
            condition: b.condition.clone(),
            hit_condition: b.hit_condition.clone(),
            log_message: b.log_message.clone(),
            enabled: b.enabled,
            origin: b.origin,
        }
    }
}

fn cut(s: &str) -> String {
    if s.chars().count() <= VALUE_CHARS {
        return s.to_string();
    }
    let mut out: String = s.chars().take(VALUE_CHARS).collect();
    out.push('…');
    out
}
