//! Our own DAP envelope. dap-types' `Request` writes `body` where the wire
//! wants `arguments`, and its `None` fields serialise as `null`, so we frame
//! messages ourselves and strip nulls from anything built from its types.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Message {
    Request(Request),
    Response(Response),
    Event(Event),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub seq: i64,
    pub command: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    pub seq: i64,
    pub request_seq: i64,
    pub success: bool,
    pub command: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
}

/// Events keep their body as raw JSON; typed views are parsed on demand so an
/// event we do not know (vendorSockets, say) is never lost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub seq: i64,
    pub event: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
}

impl Response {
    /// The adapter's error text: `body.error.format` is richer than `message`
    /// (an adapter may put the exception text there for a failed evaluate).
    pub fn error_text(&self) -> String {
        let formatted = self
            .body
            .as_ref()
            .and_then(|b| b.pointer("/error/format"))
            .and_then(Value::as_str);
        match (formatted, self.message.as_deref()) {
            (Some(f), _) => f.to_string(),
            (None, Some(m)) => m.to_string(),
            (None, None) => format!("{} failed", self.command),
        }
    }
}

/// Serialises any dap-types argument struct to JSON without its null fields.
pub fn to_wire<T: Serialize>(value: &T) -> Value {
    let mut v = serde_json::to_value(value).unwrap_or(Value::Null);
    strip_nulls(&mut v);
    v
}

pub fn strip_nulls(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|_, x| !x.is_null());
            map.values_mut().for_each(strip_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

pub fn parse(bytes: &[u8]) -> Result<Message, serde_json::Error> {
    serde_json::from_slice(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn request_uses_arguments_not_body() {
        let m = Message::Request(Request {
            seq: 3,
            command: "next".into(),
            arguments: Some(json!({"threadId": 1})),
        });
        let v = serde_json::to_value(&m).unwrap();
        assert_eq!(
            v,
            json!({"type":"request","seq":3,"command":"next","arguments":{"threadId":1}})
        );
    }

    #[test]
    fn dap_types_args_lose_their_nulls() {
        let wire = json!({"source":{"path":"/x.py"},"breakpoints":[{"line":3}]});
        let args: dap_types::SetBreakpointsArguments = serde_json::from_value(wire).unwrap();
        // Serialised as-is, every absent field would be a null.
        assert!(serde_json::to_value(&args).unwrap()["lines"].is_null());
        assert_eq!(
            to_wire(&args),
            json!({"source":{"path":"/x.py"},"breakpoints":[{"line":3}]})
        );
    }

    #[test]
    fn unknown_event_is_kept_raw() {
        let raw =
            br#"{"seq":4,"type":"event","event":"vendorSockets","body":{"sockets":[{"port":1}]}}"#;
        let Message::Event(e) = parse(raw).unwrap() else {
            panic!()
        };
        assert_eq!(e.event, "vendorSockets");
        assert_eq!(e.body.unwrap()["sockets"][0]["port"], 1);
    }

    #[test]
    fn error_text_prefers_formatted_error() {
        let r: Response = serde_json::from_value(json!({"seq":1,"request_seq":1,"success":false,"command":"evaluate","message":"x","body":{"error":{"format":"NameError: y"}}})).unwrap();
        assert_eq!(r.error_text(), "NameError: y");
    }
}
