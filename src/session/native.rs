//! What the native views read from a stop: a frame's machine instructions
//! (DAP `disassemble`) and a block of the program's memory (`readMemory`).

use std::path::PathBuf;

use serde_json::Value;

use super::error::SessionError;

/// Instructions read on each side of the current one.
pub const DISASSEMBLY_AROUND: i64 = 24;
/// Bytes one memory read asks for; scrolling asks for more.
pub const MEMORY_CHUNK: usize = 256;
/// The most one memory read may ask for.
pub const MEMORY_MAX: usize = 64 * 1024;

/// The native views an adapter gives, from its `initialize` answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct NativeSupport {
    pub disassemble: bool,
    pub read_memory: bool,
    pub instruction_steps: bool,
}

impl NativeSupport {
    pub fn from_capabilities(caps: &Value) -> Self {
        let has = |c: &str| caps.get(c).and_then(Value::as_bool).unwrap_or(false);
        NativeSupport {
            disassemble: has("supportsDisassembleRequest"),
            read_memory: has("supportsReadMemoryRequest"),
            instruction_steps: has("supportsSteppingGranularity"),
        }
    }
}

/// Why the native views are not here, for any front end to say.
pub const NEEDS_NATIVE: &str = "needs a native adapter (C, C++ or Rust)";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instruction {
    pub address: u64,
    /// The raw bytes as the adapter spells them (`48 89 e5`).
    pub bytes: String,
    pub text: String,
    pub symbol: Option<String>,
    /// The source line this instruction starts, when it starts one: the
    /// view prints it above, as gdb's `disassemble /s` does.
    pub source: Option<SourceLine>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceLine {
    pub file: PathBuf,
    pub line: u64,
    /// The line's text, when the file could be read.
    pub text: Option<String>,
}

/// The instructions around a frame's current one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disassembly {
    pub frame_index: usize,
    /// The address the frame executes next.
    pub pc: u64,
    pub instructions: Vec<Instruction>,
}

impl Disassembly {
    /// The row of the current instruction, if it was read.
    pub fn current(&self) -> Option<usize> {
        self.instructions.iter().position(|i| i.address == self.pc)
    }
}

/// Bytes read at an address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    /// What the person asked to see, as typed.
    pub expression: String,
    /// The adapter's name for the place (a memoryReference), for reading on.
    pub reference: String,
    pub address: u64,
    pub data: Vec<u8>,
    /// Bytes after `data` that could not be read.
    pub unreadable: u64,
}

/// `0x1f`, `1f` or `31` as an address.
/// The address a pointer's value text starts with (`0x7ffc0010 "text"`):
/// what it points to. Adapters may give the pointer's own slot as the
/// value's memory reference, which is not what a person asks to see.
pub fn pointee(value: &str) -> Option<u64> {
    let first = value.split_whitespace().next()?;
    let hex = first
        .strip_prefix("0x")
        .or_else(|| first.strip_prefix("0X"))?;
    u64::from_str_radix(hex, 16).ok()
}

pub fn parse_address(text: &str) -> Option<u64> {
    let t = text.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => t.parse().ok(),
    }
}

/// The instructions of a `disassemble` response. Source lines are marked
/// where the line changes from the instruction before; `line_text` reads
/// a line's text from its file.
pub fn parse_disassembly(
    body: &Value,
    frame_index: usize,
    pc: u64,
    line_text: impl Fn(&std::path::Path, u64) -> Option<String>,
) -> Result<Disassembly, SessionError> {
    let list = body
        .get("instructions")
        .and_then(Value::as_array)
        .ok_or_else(|| SessionError::State("the disassemble answer has no instructions".into()))?;
    let mut instructions = Vec::with_capacity(list.len());
    let mut last: Option<(PathBuf, u64)> = None;
    for i in list {
        let Some(address) = i
            .get("address")
            .and_then(Value::as_str)
            .and_then(parse_address)
        else {
            continue;
        };
        let file = i
            .pointer("/location/path")
            .and_then(Value::as_str)
            .map(PathBuf::from);
        let line = i.get("line").and_then(Value::as_u64).filter(|l| *l > 0);
        let source = match (file, line) {
            (Some(file), Some(line)) if last.as_ref() != Some(&(file.clone(), line)) => {
                last = Some((file.clone(), line));
                let text = line_text(&file, line);
                Some(SourceLine { file, line, text })
            }
            _ => None,
        };
        let text = i
            .get("instruction")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        instructions.push(Instruction {
            address,
            bytes: i
                .get("instructionBytes")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            text,
            symbol: i
                .get("symbol")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(str::to_string),
            source,
        });
    }
    Ok(Disassembly {
        frame_index,
        pc,
        instructions,
    })
}

/// The bytes of a `readMemory` response.
pub fn parse_memory(body: &Value, expression: String) -> Result<Memory, SessionError> {
    use base64::Engine;
    let address = body
        .get("address")
        .and_then(Value::as_str)
        .and_then(parse_address)
        .ok_or_else(|| SessionError::State("the readMemory answer has no address".into()))?;
    let data = match body.get("data").and_then(Value::as_str) {
        Some(d) => base64::engine::general_purpose::STANDARD
            .decode(d)
            .map_err(|e| SessionError::State(format!("the readMemory data is not base64: {e}")))?,
        None => vec![],
    };
    Ok(Memory {
        expression,
        reference: format!("0x{address:x}"),
        address,
        data,
        unreadable: body
            .get("unreadableBytes")
            .and_then(Value::as_u64)
            .unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_pointer_points_where_its_value_says() {
        assert_eq!(
            pointee("0x00007fffffffe117 \"needle\""),
            Some(0x7fffffffe117)
        );
        assert_eq!(pointee("42"), None);
        assert_eq!(pointee("{x = 1}"), None);
        assert_eq!(pointee("0xzz"), None);
    }

    #[test]
    fn source_lines_are_marked_where_they_change() {
        let body = json!({"instructions": [
            {"address": "0x10", "instruction": "push rbp", "location": {"path": "/a.c"}, "line": 3},
            {"address": "0x11", "instruction": "mov rbp, rsp", "location": {"path": "/a.c"}, "line": 3},
            {"address": "0x14", "instruction": "ret", "location": {"path": "/a.c"}, "line": 4},
            {"address": "bad", "instruction": "?"},
        ]});
        let d = parse_disassembly(&body, 0, 0x11, |_, l| Some(format!("line {l}"))).unwrap();
        assert_eq!(d.instructions.len(), 3);
        assert_eq!(d.current(), Some(1));
        assert_eq!(
            d.instructions[0].source.as_ref().unwrap().text.as_deref(),
            Some("line 3")
        );
        assert!(d.instructions[1].source.is_none());
        assert_eq!(d.instructions[2].source.as_ref().unwrap().line, 4);
    }

    #[test]
    fn memory_is_decoded() {
        let m = parse_memory(
            &json!({"address": "0x1000", "data": "QUJD", "unreadableBytes": 2}),
            "p".into(),
        )
        .unwrap();
        assert_eq!(
            (m.address, m.data.as_slice(), m.unreadable),
            (0x1000, &b"ABC"[..], 2)
        );
        assert_eq!(parse_address("4096"), Some(4096));
        assert_eq!(parse_address("0xzz"), None);
    }
}
