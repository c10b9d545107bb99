//! Typed views of the events the session needs. Where dap-types loses
//! information (an unknown stop reason, a negative exit code) we parse ourselves.

use serde::Deserialize;
use serde_json::Value;

use super::envelope::Event;

#[derive(Debug, Clone, PartialEq)]
pub enum DapEvent {
    Initialized,
    Stopped(Stopped),
    Continued {
        thread_id: Option<i64>,
        all_threads: bool,
    },
    Exited {
        exit_code: i64,
    },
    Terminated,
    Output {
        category: String,
        output: String,
    },
    Breakpoint {
        reason: String,
        breakpoint: Value,
    },
    Process {
        pid: Option<i64>,
        name: String,
    },
    Thread {
        reason: String,
        thread_id: i64,
    },
    /// Anything else, kept whole.
    Other(Event),
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stopped {
    /// Kept as text: adapters invent reasons ("function breakpoint", "signal").
    pub reason: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub thread_id: Option<i64>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub all_threads_stopped: Option<bool>,
    #[serde(default)]
    pub hit_breakpoint_ids: Option<Vec<i64>>,
}

impl DapEvent {
    pub fn from_event(ev: Event) -> DapEvent {
        let body = ev.body.clone().unwrap_or(Value::Null);
        let s = |k: &str| body.get(k).and_then(Value::as_str).map(str::to_string);
        let i = |k: &str| body.get(k).and_then(Value::as_i64);
        match ev.event.as_str() {
            "initialized" => DapEvent::Initialized,
            "stopped" => match serde_json::from_value::<Stopped>(body.clone()) {
                Ok(st) => DapEvent::Stopped(st),
                Err(_) => DapEvent::Other(ev),
            },
            "continued" => DapEvent::Continued {
                thread_id: i("threadId"),
                all_threads: body
                    .get("allThreadsContinued")
                    .and_then(Value::as_bool)
                    .unwrap_or(true),
            },
            "exited" => DapEvent::Exited {
                exit_code: i("exitCode").unwrap_or(0),
            },
            "terminated" => DapEvent::Terminated,
            "output" => DapEvent::Output {
                category: s("category").unwrap_or_else(|| "console".into()),
                output: s("output").unwrap_or_default(),
            },
            "breakpoint" => DapEvent::Breakpoint {
                reason: s("reason").unwrap_or_default(),
                breakpoint: body.get("breakpoint").cloned().unwrap_or(Value::Null),
            },
            "process" => DapEvent::Process {
                pid: i("systemProcessId"),
                name: s("name").unwrap_or_default(),
            },
            "thread" => DapEvent::Thread {
                reason: s("reason").unwrap_or_default(),
                thread_id: i("threadId").unwrap_or(0),
            },
            _ => DapEvent::Other(ev),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ev(name: &str, body: Value) -> Event {
        Event {
            seq: 1,
            event: name.into(),
            body: Some(body),
        }
    }

    #[test]
    fn unknown_stop_reason_keeps_its_text() {
        let e = DapEvent::from_event(ev("stopped", json!({"reason":"signal","threadId":7})));
        let DapEvent::Stopped(s) = e else { panic!() };
        assert_eq!(s.reason, "signal");
        assert_eq!(s.thread_id, Some(7));
    }

    #[test]
    fn negative_exit_code_parses() {
        assert_eq!(
            DapEvent::from_event(ev("exited", json!({"exitCode": -11}))),
            DapEvent::Exited { exit_code: -11 }
        );
    }

    #[test]
    fn unknown_event_is_other() {
        let e = ev("vendorSockets", json!({"sockets": []}));
        assert_eq!(DapEvent::from_event(e.clone()), DapEvent::Other(e));
    }
}
