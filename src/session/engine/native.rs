//! The native views' requests: a frame's disassembly, memory at an
//! expression or address, and steps by one machine instruction.

use serde_json::json;

use super::{Engine, ReplyTx, or_reply};
use crate::session::command::{Reply, StepKind};
use crate::session::error::SessionError;
use crate::session::native::{self, MEMORY_MAX, parse_address};
use crate::session::sources::SourceCache;
use crate::session::types::Origin;

impl Engine {
    /// Why a native view cannot be had here, or None when it can.
    fn needs_native(&self, capability: &str, what: &str) -> Option<SessionError> {
        (!self.supports(capability)).then(|| {
            SessionError::Unsupported(format!(
                "{what} {}; {} has none",
                native::NEEDS_NATIVE,
                self.config.adapter.name()
            ))
        })
    }

    pub(super) fn disassemble(&mut self, reply: ReplyTx, frame_index: usize) {
        if let Some(e) = self.needs_native("supportsDisassembleRequest", "disassembly") {
            let _ = reply.send(Err(e));
            return;
        }
        let (client, thread) = or_reply!(self.require_stopped("disassemble"), reply);
        or_reply!(self.frame_id(frame_index), reply);
        let sources = self.sources.clone();
        let around = native::DISASSEMBLY_AROUND;
        let before = if client.quirks().disassembles_forward_only {
            0
        } else {
            around
        };
        tokio::spawn(async move {
            let res = async {
                // The frame's instruction address is not kept with the stop:
                // only this view wants it.
                let stack = client
                    .request(
                        "stackTrace",
                        Some(json!({"threadId": thread, "startFrame": frame_index, "levels": 1})),
                    )
                    .await?;
                let reference = stack
                    .pointer("/stackFrames/0/instructionPointerReference")
                    .and_then(serde_json::Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| {
                        SessionError::State("this frame has no instruction address".into())
                    })?;
                let pc = parse_address(&reference).ok_or_else(|| {
                    SessionError::State(format!("{reference:?} is not an address"))
                })?;
                let body = client
                    .request(
                        "disassemble",
                        Some(json!({
                            "memoryReference": reference,
                            "instructionOffset": -before,
                            "instructionCount": before + around + 1,
                            "resolveSymbols": true,
                        })),
                    )
                    .await?;
                native::parse_disassembly(&body, frame_index, pc, |path, line| {
                    let file = SourceCache::get(&sources, path)?;
                    file.lines.get(line.checked_sub(1)? as usize).cloned()
                })
            }
            .await;
            let _ = reply.send(res.map(|d| Reply::Disassembly(Box::new(d))));
        });
    }

    /// `count` bytes from `offset` past where `expression` points: a
    /// pointer's target (the address its value starts with, before the
    /// adapter's memory reference), a value's own bytes, or an address
    /// typed as one.
    pub(super) fn read_memory(
        &mut self,
        reply: ReplyTx,
        expression: String,
        frame_index: usize,
        offset: i64,
        count: usize,
    ) {
        if let Some(e) = self.needs_native("supportsReadMemoryRequest", "the memory view") {
            let _ = reply.send(Err(e));
            return;
        }
        if count == 0 || count > MEMORY_MAX {
            let _ = reply.send(Err(SessionError::invalid(
                "count",
                format!("{count} is out of range; read 1 to {MEMORY_MAX} bytes at a time"),
            )));
            return;
        }
        or_reply!(
            crate::session::validate::check_expression(&expression),
            reply
        );
        let (client, frame) = or_reply!(self.stopped_frame("read memory", frame_index), reply);
        let context = client.quirks().evaluate_context;
        tokio::spawn(async move {
            let res = async {
                let reference = match parse_address(&expression) {
                    Some(a) => format!("0x{a:x}"),
                    None => {
                        let v = client
                            .request(
                                "evaluate",
                                Some(json!({"expression": expression, "frameId": frame, "context": context})),
                            )
                            .await
                            .map_err(|e| crate::session::parts_read::evaluation_error(&client, e))?;
                        let value = v.get("result").and_then(|r| r.as_str()).unwrap_or("");
                        native::pointee(value)
                            .map(|a| format!("0x{a:x}"))
                            .or_else(|| {
                                v.get("memoryReference")
                                    .and_then(|r| r.as_str())
                                    .map(str::to_string)
                            })
                            .or_else(|| {
                                let first = value.split_whitespace().next()?;
                                parse_address(first).map(|a| format!("0x{a:x}"))
                            })
                            .ok_or_else(|| {
                                SessionError::invalid(
                                    "expression",
                                    format!("{expression} = {value} is neither a pointer nor an address"),
                                )
                            })?
                    }
                };
                let body = client
                    .request(
                        "readMemory",
                        Some(json!({"memoryReference": reference, "offset": offset, "count": count})),
                    )
                    .await?;
                native::parse_memory(&body, expression)
            }
            .await;
            let _ = reply.send(res.map(|m| Reply::Memory(Box::new(m))));
        });
    }

    pub(super) fn step_instruction(&mut self, origin: Origin, reply: ReplyTx, kind: StepKind) {
        if let Some(e) = self.needs_native("supportsSteppingGranularity", "instruction stepping") {
            let _ = reply.send(Err(e));
            return;
        }
        self.conn.step_kind = kind;
        self.conn.instruction_steps = true;
        self.resume(
            origin,
            reply,
            kind.dap_command(),
            "stepped one instruction",
            0,
        );
    }
}
