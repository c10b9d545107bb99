//! An exception read whole at once: what it is, what caused it, where it
//! was thrown, and the values of the frames around it.

use std::path::{Path, PathBuf};

use crate::adapters::Language;

use serde::Serialize;
use serde_json::{Value, json};

use super::error::SessionError;
use super::link::Link;
use super::reads::{self, parse_frames, str_field};
use super::types::{ExceptionDetails, Frame, Var};

/// What to read, within the tool's limits.
#[derive(Debug, Clone, Copy)]
pub struct ExceptionQuery {
    pub max_frames: usize,
    pub variables_for_frames: usize,
    pub max_inner: usize,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionSummary {
    #[serde(rename = "type")]
    pub type_name: String,
    pub message: String,
    /// True when the stop came before any handler ran (a raised-exception
    /// filter), false at an uncaught one; None when the adapter did not say.
    pub is_first_chance: Option<bool>,
    pub stack_trace_string: String,
}

/// One cause of the exception; a language reads its own chain of them.
pub use crate::adapters::InnerException;

#[derive(Debug, Clone, Serialize)]
pub struct ContextVar {
    pub name: String,
    #[serde(rename = "type")]
    pub type_name: String,
    pub value: String,
    #[serde(rename = "hasChildren")]
    pub has_children: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct FrameVariables {
    pub locals: Vec<ContextVar>,
    pub errors: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextFrame {
    pub index: usize,
    pub function: String,
    pub is_external: bool,
    /// Absolute; controllers show it as they show paths.
    pub file: Option<PathBuf>,
    pub line: u64,
    pub arguments: Option<Vec<ContextVar>>,
    pub variables: Option<FrameVariables>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExceptionContext {
    pub thread_id: i64,
    pub exception: ExceptionSummary,
    pub inner_exceptions: Vec<InnerException>,
    pub inner_exceptions_truncated: bool,
    pub frames: Vec<ContextFrame>,
    pub total_frames: usize,
    pub throwing_frame_index: usize,
}

/// Everything the engine knows before reading.
pub struct Known {
    pub thread_id: i64,
    pub exception: ExceptionDetails,
    pub workspace: PathBuf,
    pub has_exception_info: bool,
}

pub async fn read(
    client: &Link,
    known: Known,
    q: ExceptionQuery,
) -> Result<ExceptionContext, SessionError> {
    let language = client.language();
    let stack = client.request(
        "stackTrace",
        Some(json!({"threadId": known.thread_id, "startFrame": 0, "levels": q.max_frames})),
    );
    let info = known
        .has_exception_info
        .then(|| client.read("exceptionInfo", Some(json!({"threadId": known.thread_id}))));
    let (frames, total_frames) = parse_frames(stack.await?, language)?;
    let info = match info {
        Some(f) => f.await.ok(),
        None => None,
    };
    let throwing = frames
        .iter()
        .position(|f| !language.is_runtime_frame(&f.name, f.file.as_deref().and_then(Path::to_str)))
        .unwrap_or(0);
    let mut exception = summary(&known.exception, info.as_ref(), &frames, language);
    exception.stack_trace_string = language.clean_traceback(&exception.stack_trace_string);

    let mut inner = info
        .as_ref()
        .map(|i| dap_inner(&i["details"], 1, q.max_inner + 1))
        .unwrap_or_default();
    if inner.is_empty()
        && q.max_inner > 0
        && let (Some(expr), Some(top)) = (language.exception_chain(q.max_inner + 1), frames.first())
    {
        let context = client.quirks().evaluate_context;
        if let Ok(v) = reads::evaluate(client, &expr, Some(top.id), context).await {
            inner = language.parse_exception_chain(&v.value);
        }
    }
    let truncated = inner.len() > q.max_inner;
    inner.truncate(q.max_inner);

    let mut out = Vec::with_capacity(frames.len());
    let mut with_vars = 0;
    for (index, f) in frames.iter().enumerate() {
        let is_external = f
            .file
            .as_deref()
            .is_none_or(|p| !p.starts_with(&known.workspace));
        let mut cf = ContextFrame {
            index,
            function: f.name.clone(),
            is_external,
            file: f.file.clone(),
            line: f.line,
            arguments: None,
            variables: None,
        };
        if index >= throwing && !is_external && with_vars < q.variables_for_frames {
            with_vars += 1;
            let (args, vars) = frame_values(client, f).await;
            cf.arguments = Some(args);
            cf.variables = Some(vars);
        }
        out.push(cf);
    }
    Ok(ExceptionContext {
        thread_id: known.thread_id,
        exception,
        inner_exceptions: inner,
        inner_exceptions_truncated: truncated,
        frames: out,
        total_frames,
        throwing_frame_index: throwing,
    })
}

/// The type and message `exceptionInfo` names, as the language reads them.
fn exception_parts(language: &dyn Language, info: &Value) -> (String, String) {
    language.exception_parts(
        &str_field(info, "exceptionId"),
        &str_field(info, "description"),
    )
}

fn summary(
    known: &ExceptionDetails,
    info: Option<&Value>,
    frames: &[Frame],
    language: &dyn Language,
) -> ExceptionSummary {
    let details = info.map(|i| &i["details"]);
    let pick = |keys: &[&str]| {
        details
            .into_iter()
            .flat_map(|d| keys.iter().map(move |k| str_field(d, k)))
            .find(|s| !s.is_empty())
    };
    let type_name = pick(&["fullTypeName", "typeName"])
        .or_else(|| {
            info.map(|i| exception_parts(language, i).0)
                .filter(|s| !s.is_empty())
        })
        .unwrap_or_else(|| known.type_name.clone());
    let message = pick(&["message"])
        .or_else(|| {
            info.map(|i| exception_parts(language, i).1)
                .filter(|s| !s.is_empty())
        })
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| known.message.clone());
    let is_first_chance = info
        .map(|i| str_field(i, "breakMode"))
        .and_then(|m| match m.as_str() {
            "always" => Some(true),
            "unhandled" | "userUnhandled" => Some(false),
            _ => None,
        });
    let stack_trace_string = pick(&["stackTrace"]).unwrap_or_else(|| {
        frames
            .iter()
            .map(|f| {
                let at = f
                    .file
                    .as_deref()
                    .map(|p| format!(" in {}:line {}", p.display(), f.line))
                    .unwrap_or_default();
                format!("   at {}{at}", f.name)
            })
            .collect::<Vec<_>>()
            .join("\n")
    });
    ExceptionSummary {
        type_name,
        message,
        is_first_chance,
        stack_trace_string,
    }
}

/// DAP's `innerException` chain, to `max` links.
fn dap_inner(details: &Value, depth: usize, max: usize) -> Vec<InnerException> {
    let Some(first) = details["innerException"].as_array().and_then(|a| a.first()) else {
        return vec![];
    };
    if depth > max {
        return vec![];
    }
    let mut out = vec![InnerException {
        type_name: Some(str_field(first, "fullTypeName"))
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| str_field(first, "typeName")),
        message: str_field(first, "message"),
        depth,
        relation: "inner".into(),
    }];
    out.extend(dap_inner(first, depth + 1, max));
    out
}

fn context_var(v: &Var) -> ContextVar {
    ContextVar {
        name: v.name.clone(),
        type_name: v.type_name.clone(),
        value: v.value.clone(),
        has_children: v.reference > 0,
    }
}

/// A frame's arguments and its other locals. Arguments come from the
/// adapter's own scope when it has one, else by the parameter names the
/// language reads in the source.
async fn frame_values(client: &Link, f: &Frame) -> (Vec<ContextVar>, FrameVariables) {
    let scopes = match reads::scopes(client, f.id).await {
        Ok(s) => s,
        Err(e) => {
            let vars = FrameVariables {
                locals: vec![],
                errors: Some(e.to_string()),
            };
            return (vec![], vars);
        }
    };
    let find = |want: &str| {
        scopes
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(want))
            .map(|(_, r)| *r)
    };
    let mut errors = vec![];
    let mut read = async |reference: Option<i64>| match reference {
        Some(r) if r > 0 => match reads::variables(client, r).await {
            Ok(v) => v.into_iter().filter(|v| !v.hidden).collect(),
            Err(e) => {
                errors.push(e.to_string());
                vec![]
            }
        },
        _ => vec![],
    };
    let arg_scope = find("arguments");
    let args: Vec<Var> = read(arg_scope).await;
    let locals: Vec<Var> = read(find("locals").or(scopes.first().map(|(_, r)| *r))).await;
    let (args, locals) = if arg_scope.is_some() {
        (args, locals)
    } else {
        let params = f
            .file
            .as_deref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|text| {
                let lines: Vec<String> = text.lines().map(str::to_string).collect();
                client.language().parameters(&lines, &f.name, f.line)
            })
            .unwrap_or_default();
        locals.into_iter().partition(|v| params.contains(&v.name))
    };
    (
        args.iter().map(context_var).collect(),
        FrameVariables {
            locals: locals.iter().map(context_var).collect(),
            errors: (!errors.is_empty()).then(|| errors.join("; ")),
        },
    )
}
