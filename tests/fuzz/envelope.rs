//! One adapter message, as the engine reads it: the envelope, the typed
//! event, and the bodies of the responses it parses, through every
//! adapter's language and quirks (which read adapter text as well).

use pairdbg::adapters::{self, Adapter, Language};
use pairdbg::dap::envelope::{self, Message};
use pairdbg::dap::events::DapEvent;
use pairdbg::session::native::{parse_disassembly, parse_memory};
use pairdbg::session::reads::{parse_frames, to_var};
use pairdbg::session::types::Var;
use pairdbg::viewport::ViewportConfig;
use pairdbg::viewport::value::render;
use serde_json::Value;

pub fn run(data: &[u8]) {
    let Ok(msg) = envelope::parse(data) else {
        return;
    };
    for adapter in adapters::all() {
        read(*adapter, &msg);
    }
}

fn read(adapter: &dyn Adapter, msg: &Message) {
    let language = adapter.language();
    let quirks = adapter.quirks();
    match msg {
        Message::Event(e) => match DapEvent::from_event(e.clone()) {
            DapEvent::Output { output, .. } => {
                let _ = adapter.condition_error(&output);
                let _ = adapter.condition_error_detail(&output);
                let _ = adapter.exit_code_from_output(&output);
                let _ = adapter.is_own_output(&output);
                let _ = adapter.is_start_output(&output);
                let _ = adapter.build_error(&output);
                let _ = quirks.is_console_noise(&output);
                let _ = language.compile_error(&output);
                let _ = language.exception_message(&output);
                let _ = language.raise_site(&output);
                let _ = language.exception_type(&output);
            }
            DapEvent::Stopped(s) => {
                let _ = quirks.stop_reason(&s.reason);
                let _ = adapter.condition_error_stop(s.description.as_deref(), s.text.as_deref());
                let _ = language.exception_parts(&s.reason, s.description.as_deref().unwrap_or(""));
            }
            _ => {}
        },
        Message::Response(r) => {
            let text = r.error_text();
            let _ = language.expression_error(&text);
            let _ = language.evaluation_error(&text);
            let body = r.body.clone().unwrap_or(Value::Null);
            match r.command.as_str() {
                "stackTrace" => {
                    let _ = parse_frames(body, language);
                }
                "variables" => variables(adapter, body),
                "evaluate" => {
                    if let Some(result) = body.get("result").and_then(Value::as_str) {
                        let _ = language.parse_locals_listing(result);
                        let _ = language.parse_loaded_sources(result);
                        let _ = language.value_text(result.to_string(), "");
                    }
                }
                "readMemory" => {
                    let _ = parse_memory(&body, "x".into());
                }
                "disassemble" => {
                    let _ = parse_disassembly(&body, 0, 0, |_, _| Some("line".into()));
                }
                _ => {}
            }
        }
        Message::Request(_) => {}
    }
    strings(
        language,
        &serde_json::to_value(msg).unwrap_or(Value::Null),
        &mut 0,
    );
}

/// A variables answer read as the session reads it, and each value's tree
/// rendered.
fn variables(adapter: &dyn Adapter, body: Value) {
    let Ok(resp) = serde_json::from_value::<dap_types::VariablesResponse>(body) else {
        return;
    };
    let language = adapter.language();
    let quirks = adapter.quirks();
    let cfg = ViewportConfig::default();
    for v in resp.variables {
        if language.is_hidden_group(&v.name) || quirks.hides_variable(&v.name) {
            continue;
        }
        let hidden = !language.is_shown(&v.name, &v.value);
        let var = to_var(v);
        let var = Var {
            hidden,
            name: quirks.variable_name(var.name.clone()),
            value: language.value_text(var.value.clone(), &var.type_name),
            type_name: language.type_text(var.type_name.clone()),
            language: pairdbg::adapters::value::LanguageOf(Some(language)),
            ..var
        };
        let _ = language.needs_children(&var.value, var.truncated);
        let _ = language.composes_from_parts(&var.value, &var.type_name);
        let _ = render(&var, &cfg, 0);
        let _ = render(&var, &cfg, 1);
    }
}

/// Every string of the message (the first few hundred) through the
/// language's readers of program and adapter text.
fn strings(language: &dyn Language, v: &Value, seen: &mut usize) {
    if *seen > 200 {
        return;
    }
    match v {
        Value::String(s) => {
            *seen += 1;
            let _ = language.frame_name(s);
            let _ = language.side_effect(s);
            let _ = language.path_expression(s);
            let _ = language.call_form(s);
            let _ = language.items_window(s, 0, 10);
            let _ = language.length_expression(s);
            let _ = language.exception_id(s);
            let _ = language.exception_type_shown(s);
            let _ = language.is_true(s);
            let _ = language.opens_function(s);
            let _ = language.parse_locals_listing(s);
            let _ = language.parse_loaded_sources(s);
            let _ = language.raise_site(s);
            let _ = language.exception_type(s);
            let _ = language.purity_probe(s);
            let lines: Vec<String> = s.lines().map(str::to_string).collect();
            let _ = language.parameters(&lines, s, lines.len() as u64);
            let _ = language.static_locals(&lines, 1);
        }
        Value::Array(a) => a.iter().for_each(|x| strings(language, x, seen)),
        Value::Object(m) => m.values().for_each(|x| strings(language, x, seen)),
        _ => {}
    }
}
