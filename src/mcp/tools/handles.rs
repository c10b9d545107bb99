//! The calls a budgeted result names for what it left out: each one repeats
//! the arguments that chose the listing, so it continues the same listing.

use serde_json::{Value, json};

use crate::mcp::params::VariablesParams;

/// `expand: "cart.items", frame_index: 1, ` — what picks the listing.
pub fn variables_args(p: &VariablesParams) -> String {
    let mut s = String::new();
    let strings = [
        ("expand", &p.expand),
        ("scope", &p.scope),
        ("filter", &p.filter),
    ];
    for (k, v) in strings {
        if let Some(v) = v {
            s.push_str(&format!("{k}: {}, ", json!(v)));
        }
    }
    if let Some(f) = p.frame_index.filter(|f| *f > 0) {
        s.push_str(&format!("frame_index: {f}, "));
    }
    s
}

/// An exception context in `bytes` of JSON: the variables of the deepest
/// frames go first, then the deepest frames, then half the stack trace
/// string at a time, then the causes; what went is named with the calls
/// that read it.
pub fn fit_context(mut v: Value, bytes: usize) -> Value {
    let size = |v: &Value| serde_json::to_string(v).map(|s| s.len()).unwrap_or(0);
    let mut cut = Cut::default();
    loop {
        cut.name(&mut v);
        if size(&v) <= bytes || !cut.step(&mut v) {
            return v;
        }
    }
}

#[derive(Default)]
struct Cut {
    vars_of: Vec<u64>,
    frames: usize,
    causes: usize,
    trace: bool,
}

impl Cut {
    /// Leaves out one more piece; false when nothing is left to leave out.
    fn step(&mut self, v: &mut Value) -> bool {
        if let Some(frames) = v["frames"].as_array_mut() {
            if let Some(f) = frames
                .iter_mut()
                .rev()
                .find(|f| !f["variables"].is_null() || !f["arguments"].is_null())
            {
                self.vars_of.push(f["index"].as_u64().unwrap_or(0));
                f["variables"] = Value::Null;
                f["arguments"] = Value::Null;
                return true;
            }
            if frames.len() > 1 {
                frames.pop();
                self.frames += 1;
                return true;
            }
        }
        if let Some(t) = v["exception"]["stackTraceString"].as_str()
            && t.len() > 80
        {
            // The innermost calls are at the end of a Python trace.
            let mut from = t.len() / 2;
            while !t.is_char_boundary(from) {
                from += 1;
            }
            v["exception"]["stackTraceString"] = Value::from(format!("…{}", &t[from..]));
            self.trace = true;
            return true;
        }
        if let Some(inner) = v["innerExceptions"].as_array_mut()
            && inner.pop().is_some()
        {
            self.causes += 1;
            return true;
        }
        false
    }

    fn name(&self, v: &mut Value) {
        let mut said = vec![];
        if let (Some(lo), Some(hi)) = (self.vars_of.iter().min(), self.vars_of.iter().max()) {
            let which = if lo == hi {
                format!("frame {lo}")
            } else {
                format!("frames {lo}–{hi}")
            };
            said.push(format!(
                "variables of {which}: debug_variables {{frame_index: N}}"
            ));
        }
        if self.frames > 0 {
            let shown = v["frames"].as_array().map_or(0, Vec::len);
            said.push(format!(
                "{} more frames: debug_stack {{start: {shown}}}",
                self.frames
            ));
        }
        if self.trace {
            said.push("the trace's start: debug_stack".into());
        }
        if self.causes > 0 {
            said.push(format!("{} causes: a larger max_tokens", self.causes));
        }
        if !said.is_empty() {
            v["omitted"] = Value::from(said.join("; "));
        }
    }
}
