//! mcp-debugger's `lastStop`: why the session is paused, and at an
//! exception stop what was thrown (the DAP exceptionInfo it read). It
//! stamps the stop's time as well; pairdbg keeps none, so that field is
//! left out rather than made up.

use serde_json::{Value, json};

use crate::session::types::StopInfo;

pub fn json(stop: &StopInfo) -> Value {
    let mut v = json!({"reason": stop.reason, "threadId": stop.thread_id});
    if let Some(d) = stop.description.as_ref().filter(|d| !d.is_empty()) {
        v["description"] = json!(d);
    }
    if let Some(x) = stop
        .exception
        .as_ref()
        .filter(|_| stop.reason == "exception")
    {
        let type_name = x.qualified_type.clone().unwrap_or(x.type_name.clone());
        let mut info = json!({"exceptionId": type_name});
        if let Some(mode) = &x.break_mode {
            info["breakMode"] = json!(mode);
        }
        let mut details = json!({"typeName": x.type_name});
        if let Some(q) = &x.qualified_type {
            details["fullTypeName"] = json!(q);
        }
        // Empty, or "<not read: ...>": the adapter's message was not read.
        if !x.message.is_empty() && !x.message.starts_with("<not read") {
            info["description"] = json!(x.message);
            details["message"] = json!(x.message);
        }
        info["details"] = details;
        v["exceptionInfo"] = info;
    }
    v
}
