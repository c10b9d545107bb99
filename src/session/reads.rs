//! Single reads from the adapter, each sent when called: the stack, scopes,
//! variables and evaluations, parsed into the session's own types.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::link::Link;
use super::types::{Frame, Var};
use crate::adapters::Language;
use crate::dap::DapError;
use crate::dap::client::body_as;

/// Values longer than this are cut when stored; the viewport cuts further.
pub const STORED_VALUE_CHARS: usize = 4096;

pub fn str_field(v: &Value, k: &str) -> String {
    v.get(k)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// The part of a stackTrace answer the session reads. dap-types' own
/// refuses a whole stack for one presentation hint outside the
/// specification's list, which adapters do send (`deemphasize` on a
/// frame).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct StackTrace {
    stack_frames: Vec<WireFrame>,
    total_frames: Option<u64>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireFrame {
    id: i64,
    name: String,
    source: Option<WireSource>,
    line: u64,
    presentation_hint: Option<String>,
    instruction_pointer_reference: Option<String>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireSource {
    path: Option<String>,
    presentation_hint: Option<String>,
}

/// `deemphasize`, on the frame or its source: how an adapter says the code
/// is not the user's (files it was told to skip, a runtime's internals); a `label`
/// frame (an `await` between async calls) is no code at all.
fn deemphasized(hint: Option<&str>) -> bool {
    matches!(hint, Some("deemphasize" | "label"))
}

/// The frames of a stackTrace answer, their names as `language` reads them.
pub fn parse_frames(body: Value, language: &dyn Language) -> Result<(Vec<Frame>, usize), DapError> {
    let resp: StackTrace = body_as("stackTrace", body)?;
    let frames: Vec<Frame> = resp
        .stack_frames
        .into_iter()
        .map(|f| Frame {
            id: f.id,
            name: language.frame_name(&f.name),
            external: deemphasized(f.presentation_hint.as_deref())
                || f.source.as_ref().is_some_and(|s| {
                    deemphasized(s.presentation_hint.as_deref())
                        || s.path
                            .as_deref()
                            .is_some_and(|p| language.is_library_file(p))
                }),
            file: f.source.and_then(|s| s.path).map(PathBuf::from),
            line: f.line,
            params: None,
            pc: f
                .instruction_pointer_reference
                .as_deref()
                .and_then(crate::session::native::parse_address),
        })
        .collect();
    let total = resp
        .total_frames
        .map(|t| t as usize)
        .unwrap_or(frames.len())
        .max(frames.len());
    Ok((frames, total))
}

/// The scopes of a frame, as (name, variablesReference). Sent at call time.
pub fn scopes(
    client: &Link,
    frame_id: i64,
) -> impl std::future::Future<Output = Result<Vec<(String, i64)>, DapError>> + Send + 'static {
    let fut = client.read("scopes", Some(json!({"frameId": frame_id})));
    async move { parse_scopes(fut.await?) }
}

fn parse_scopes(body: Value) -> Result<Vec<(String, i64)>, DapError> {
    let resp: dap_types::ScopesResponse = body_as("scopes", body)?;
    Ok(resp
        .scopes
        .into_iter()
        .map(|s| (s.name, s.variables_reference as i64))
        .collect())
}

/// A frame's locals and their reference: its scopes, then the variables of
/// the one named Locals (or the first), or of every scope the adapter
/// splits them into, an inner name hiding an outer one.
/// `scopes` is on the wire when this returns.
pub fn frame_locals(
    client: &Link,
    frame_id: i64,
) -> impl std::future::Future<Output = Result<(Vec<Var>, i64), DapError>> + Send + 'static {
    frame_locals_or_listed(client, frame_id, None)
}

/// The top frame's locals, as `frame_locals`, with the language's listing
/// sent first to stand in for a scope that misses its deadline.
pub fn top_frame_locals(
    client: &Link,
    frame_id: i64,
) -> impl std::future::Future<Output = Result<(Vec<Var>, i64), DapError>> + Send + 'static {
    let listing = super::listed_locals::send(client, frame_id);
    frame_locals_or_listed(client, frame_id, Some(listing))
}

fn frame_locals_or_listed(
    client: &Link,
    frame_id: i64,
    listing: Option<super::listed_locals::Listing>,
) -> impl std::future::Future<Output = Result<(Vec<Var>, i64), DapError>> + Send + 'static {
    let list = scopes(client, frame_id);
    let client = client.clone();
    async move {
        let list = list.await?;
        let split = split_locals(&list, client.quirks().local_scopes);
        if !split.is_empty() {
            let vars = merged_locals(&client, &split).await?;
            // The function's own scope: where a local is set.
            return Ok((vars, *split.last().unwrap_or(&0)));
        }
        let Some((_, reference)) =
            locals_scope(&list, client.quirks().skipped_scopes).map(|i| list[i].clone())
        else {
            return Ok((vec![], 0));
        };
        let read = variables(&client, reference).await;
        let vars = match listing {
            Some(listing) => listing.or_listed(read).await?,
            None => read?,
        };
        Ok((vars, reference))
    }
}

/// The variables of the scopes a frame's locals are split over, innermost
/// first, an inner name hiding an outer one.
pub async fn merged_locals(client: &Link, split: &[i64]) -> Result<Vec<Var>, DapError> {
    let reads = futures::future::join_all(split.iter().map(|r| variables(client, *r)));
    let mut seen = std::collections::HashSet::new();
    let mut vars = vec![];
    for page in reads.await {
        vars.extend(page?.into_iter().filter(|v| seen.insert(v.name.clone())));
    }
    Ok(vars)
}

/// The references of the scopes whose names start with one of `prefixes`,
/// in the adapter's order (innermost first).
pub fn split_locals(list: &[(String, i64)], prefixes: &[&str]) -> Vec<i64> {
    list.iter()
        .filter(|(n, r)| *r > 0 && prefixes.iter().any(|p| n.starts_with(p)))
        .map(|(_, r)| *r)
        .collect()
}

/// Which of a frame's scopes holds its locals: the one named Locals, or
/// else the first the adapter does not keep apart (`skipped`: a frame
/// with only its registers has no locals).
pub fn locals_scope(list: &[(String, i64)], skipped: &[&str]) -> Option<usize> {
    list.iter()
        .position(|(n, _)| n.eq_ignore_ascii_case("locals"))
        .or_else(|| {
            list.iter()
                .position(|(n, _)| !skipped.contains(&n.as_str()))
        })
}

/// A variables page; the request is on the wire when this returns.
/// The adapter's own pseudo-variables (member groups, internals) are
/// dropped; names the language keeps out of sight are marked hidden.
pub fn variables(
    client: &Link,
    reference: i64,
) -> impl std::future::Future<Output = Result<Vec<Var>, DapError>> + Send + 'static {
    variables_with(client, json!({"variablesReference": reference}))
}

/// A variables request with the arguments given (a page of indexed
/// children: `filter`, `start`, `count`); on the wire when this returns.
pub fn variables_with(
    client: &Link,
    arguments: Value,
) -> impl std::future::Future<Output = Result<Vec<Var>, DapError>> + Send + 'static {
    let fut = client.read("variables", Some(arguments));
    let (language, quirks) = (client.language(), client.quirks());
    let link = client.clone();
    async move {
        let resp: dap_types::VariablesResponse = body_as("variables", fut.await?)?;
        let declared = link.declared_types().await;
        let type_text = |name: &str, type_name: &str| {
            declared
                .as_ref()
                .and_then(|d| d.type_of(name, type_name))
                .unwrap_or_else(|| language.type_text(type_name.to_string()))
        };
        Ok(resp
            .variables
            .into_iter()
            .filter(|v| !language.is_hidden_group(&v.name) && !quirks.hides_variable(&v.name))
            .filter(|v| !(quirks.hide_internal_variables && is_internal(v)))
            .map(|v| {
                let hidden = !language.is_shown(&v.name, &v.value);
                let var = to_var(v);
                if let Some(reason) = language.value_not_read(&var.value) {
                    return Var {
                        hidden,
                        type_name: type_text(&var.name, &var.type_name),
                        reference: var.reference,
                        evaluate_name: var.evaluate_name.clone(),
                        language: crate::adapters::value::LanguageOf(Some(language)),
                        ..Var::not_read(&quirks.variable_name(var.name), reason)
                    };
                }
                Var {
                    hidden,
                    name: quirks.variable_name(var.name.clone()),
                    value: language.value_text(var.value.clone(), &var.type_name),
                    type_name: type_text(&var.name, &var.type_name),
                    language: crate::adapters::value::LanguageOf(Some(language)),
                    ..var
                }
            })
            .collect())
    }
}

/// A frame's locals typed as their function declares them, where what the
/// program declares of their names alone did not settle it.
pub fn declared_in(client: &Link, function: &str, vars: &mut [Var]) {
    let Some(declared) = client.declared_types_read() else {
        return;
    };
    for v in vars {
        if let Some(t) = declared.type_in(function, &v.name, &v.type_name) {
            v.type_name = t;
        }
    }
}

/// Marked by the adapter as its own (`presentationHint.visibility: internal`).
fn is_internal(v: &dap_types::Variable) -> bool {
    v.presentation_hint
        .as_ref()
        .and_then(|h| h.visibility.as_ref())
        .is_some_and(|vis| matches!(vis, dap_types::VariablePresentationHintVisibility::Internal))
}

pub fn to_var(v: dap_types::Variable) -> Var {
    // A lazy variable (a getter) runs code when read, so it is read only
    // when asked for: its one child is the value. What the adapter sends
    // until then is not the value (js-debug: the getter's source).
    let lazy = v.variables_reference > 0 && is_lazy(&v);
    let (value, truncated) = if lazy {
        (LAZY_VALUE.to_string(), false)
    } else {
        cap(v.value)
    };
    let type_name = if lazy {
        String::new()
    } else {
        v.type_.unwrap_or_default()
    };
    Var {
        hidden: false,
        composed: false,
        name: v.name,
        value,
        type_name,
        reference: v.variables_reference as i64,
        evaluate_name: v.evaluate_name,
        children: None,
        truncated,
        length: None,
        indexed: v.indexed_variables.map(|n| n as usize),
        not_read: None,
        language: Default::default(),
    }
}

/// A lazy variable's value until it is read, as editors show it.
pub const LAZY_VALUE: &str = "(...)";

fn is_lazy(v: &dap_types::Variable) -> bool {
    v.presentation_hint
        .as_ref()
        .and_then(|h| h.lazy)
        .unwrap_or(false)
}

fn cap(s: String) -> (String, bool) {
    cap_at(s, STORED_VALUE_CHARS)
}

fn cap_at(s: String, cap: usize) -> (String, bool) {
    if s.len() <= cap {
        return (s, false);
    }
    let mut end = cap;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    (s[..end].to_string(), true)
}

pub async fn evaluate(
    client: &Link,
    expression: &str,
    frame_id: Option<i64>,
    context: &str,
) -> Result<Var, DapError> {
    evaluate_up_to(client, expression, frame_id, context, STORED_VALUE_CHARS).await
}

/// An evaluation the stop itself makes (a watch, a length): it has the
/// read deadline of every other read at a stop, and a value that misses
/// it is shown as not read.
pub async fn evaluate_at_stop(
    client: &Link,
    expression: &str,
    frame_id: Option<i64>,
    context: &str,
) -> Result<Var, DapError> {
    let body = client.read(
        "evaluate",
        Some(evaluate_arguments(expression, frame_id, context)),
    );
    match body.await {
        Ok(body) => evaluated(client, expression, body, STORED_VALUE_CHARS),
        Err(err) => match super::link::not_read_reason(&err) {
            Some(reason) if matches!(err, DapError::Timeout { .. }) => {
                Ok(Var::not_read(expression, reason))
            }
            _ => Err(err),
        },
    }
}

fn evaluate_arguments(expression: &str, frame_id: Option<i64>, context: &str) -> Value {
    let mut args = json!({"expression": expression, "context": context});
    if let Some(f) = frame_id {
        args["frameId"] = json!(f);
    }
    args
}

/// An evaluation whose value is kept up to `cap` bytes, written as the
/// language writes a variable's, so a result reads like the local it names.
pub async fn evaluate_up_to(
    client: &Link,
    expression: &str,
    frame_id: Option<i64>,
    context: &str,
    cap: usize,
) -> Result<Var, DapError> {
    let args = evaluate_arguments(expression, frame_id, context);
    let body = client.request("evaluate", Some(args)).await?;
    evaluated(client, expression, body, cap)
}

fn evaluated(client: &Link, expression: &str, body: Value, cap: usize) -> Result<Var, DapError> {
    let resp: dap_types::EvaluateResponse = body_as("evaluate", body)?;
    let (value, truncated) = cap_at(resp.result, cap);
    let language = client.language();
    let type_name = resp.type_.unwrap_or_default();
    let not_read = language.value_not_read(&value);
    let declared = crate::adapters::declared_types::declared_name(expression).and_then(|name| {
        client
            .declared_types_read()
            .and_then(|d| d.type_of(name, &type_name))
    });
    Ok(Var {
        name: expression.to_string(),
        value: language.value_text(value, &type_name),
        type_name: declared.unwrap_or_else(|| language.type_text(type_name)),
        reference: resp.variables_reference as i64,
        evaluate_name: Some(expression.to_string()),
        children: None,
        truncated,
        length: None,
        hidden: false,
        composed: false,
        indexed: resp.indexed_variables.map(|n| n as usize),
        not_read,
        language: crate::adapters::value::LanguageOf(Some(language)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An array's children as a JavaScript adapter lists them.
    #[test]
    fn internal_variables_are_told_by_their_hint() {
        let body = json!({"variables": [
            {"name": "0", "value": "1", "type": "number", "variablesReference": 0, "presentationHint": {}},
            {"name": "length", "value": "3", "type": "number", "variablesReference": 0,
             "presentationHint": {"visibility": "internal"}},
            {"name": "x", "value": "2", "variablesReference": 0}
        ]});
        let resp: dap_types::VariablesResponse = body_as("variables", body).unwrap();
        let internal: Vec<bool> = resp.variables.iter().map(is_internal).collect();
        assert_eq!(internal, [false, true, false]);
    }

    /// Frames with hints the specification does not list.
    #[test]
    fn a_frame_hint_outside_the_specification_still_reads() {
        let body = json!({"stackFrames": [
            {"id": 7, "name": "global.main", "line": 14, "column": 5, "presentationHint": "deemphasize",
             "source": {"name": "prog.js", "path": "/w/prog.js", "presentationHint": "deemphasize"}},
            {"id": 8, "name": "<anonymous>", "line": 1, "column": 1}
        ], "totalFrames": 2});
        let lang = crate::adapters::all()[0].language();
        let (frames, total) = parse_frames(body, lang).unwrap();
        assert_eq!(total, 2);
        assert_eq!(frames[0].line, 14);
        assert_eq!(frames[0].file, Some(PathBuf::from("/w/prog.js")));
        assert_eq!(frames[1].file, None);
        assert!(frames[0].external && !frames[1].external);
    }

    #[test]
    fn a_blocks_scope_and_its_functions_hold_the_locals_together() {
        let list = vec![
            ("Block: main".to_string(), 4),
            ("Local: main".to_string(), 5),
            ("Closure".to_string(), 6),
            ("Global".to_string(), 7),
        ];
        assert_eq!(split_locals(&list, &["Block:", "Local:"]), [4, 5]);
        assert!(split_locals(&list, &[]).is_empty());
    }
}
