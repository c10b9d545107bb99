//! Reading a stop from the adapter, with every independent request sent
//! before any is awaited: each round trip to the adapter is the cost of a step.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use futures::future::join_all;
use serde_json::{Value, json};

use super::callers::{self, StopHints};
use super::types::{ExceptionDetails, Frame, Origin, SourceFile, StopInfo, Var, WatchValue};
use crate::dap::client::body_as;
use crate::dap::{DapClient, DapError};

/// Values longer than this are cut when stored; the viewport cuts further.
pub const STORED_VALUE_CHARS: usize = 4096;
/// Frames read per stop.
pub const STACK_LEVELS: usize = 20;
/// Locals whose children are read for previews.
const PREVIEW_LOCALS: usize = 20;

#[derive(Default)]
pub struct SourceCache {
    files: HashMap<PathBuf, (Option<SystemTime>, Arc<SourceFile>)>,
}

pub type SharedSourceCache = Arc<Mutex<SourceCache>>;

impl SourceCache {
    pub fn get(cache: &SharedSourceCache, path: &Path) -> Option<Arc<SourceFile>> {
        let mtime = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let mut c = cache.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((t, f)) = c.files.get(path)
            && *t == mtime
        {
            return Some(f.clone());
        }
        let text = std::fs::read_to_string(path).ok()?;
        let file = Arc::new(SourceFile {
            path: path.to_path_buf(),
            lines: text.lines().map(str::to_string).collect(),
        });
        c.files.insert(path.to_path_buf(), (mtime, file.clone()));
        Some(file)
    }
}

pub struct StopRequest {
    pub thread_id: i64,
    pub reason: String,
    pub description: Option<String>,
    pub text: Option<String>,
    pub watches: Vec<(String, Origin)>,
    pub thread_note: Option<String>,
    /// What the previous stop revealed, to send this one's reads early.
    pub hints: StopHints,
}

pub async fn fetch_stop(
    client: &DapClient,
    req: StopRequest,
    sources: &SharedSourceCache,
) -> Result<(StopInfo, Vec<WatchValue>), DapError> {
    let stack = client.request(
        "stackTrace",
        Some(json!({
            "threadId": req.thread_id,
            "startFrame": 0,
            "levels": STACK_LEVELS
        })),
    );
    let exception = (req.reason == "exception")
        .then(|| client.request("exceptionInfo", Some(json!({"threadId": req.thread_id}))));
    let hints = &req.hints;
    let speculative = hints.frame.map(|id| (id, scopes(client, id)));
    let speculative_locals = hints
        .frame
        .and(hints.locals)
        .map(|r| (r, variables(client, r)));
    let speculative_previews: Vec<Speculative> = if hints.frame.is_some() {
        hints
            .previews
            .iter()
            .map(|(name, r)| {
                (
                    name.clone(),
                    *r,
                    Box::pin(variables(client, *r)) as VarsFuture,
                )
            })
            .collect()
    } else {
        vec![]
    };
    // Sent last: debugpy answers in order, and the top frame matters most.
    let early_callers = callers::speculate(client, hints);
    let (frames, total_frames) = parse_frames(stack.await?)?;
    let exception = match exception {
        Some(f) => f.await.ok().map(|b| ExceptionDetails {
            type_name: str_field(&b, "exceptionId"),
            message: str_field(&b, "description"),
        }),
        None => None,
    }
    .or_else(|| {
        (req.reason == "exception").then(|| ExceptionDetails {
            type_name: req.text.clone().unwrap_or_default(),
            message: req.description.clone().unwrap_or_default(),
        })
    });

    let top_frame = async {
        let Some(top) = frames.first() else {
            return Ok((vec![], 0, vec![]));
        };
        let scope_list = match speculative {
            Some((id, fut)) if id == top.id => match fut.await {
                Ok(s) => s,
                Err(_) => scopes(client, top.id).await?,
            },
            _ => scopes(client, top.id).await?,
        };
        let (vars, reference) = read_locals(client, &scope_list, speculative_locals).await?;
        let watch_futs: Vec<_> = req
            .watches
            .iter()
            .map(|(expr, _)| evaluate(client, expr, Some(top.id), "watch"))
            .collect();
        let (locals, watch_vals) = futures::join!(
            with_previews(client, vars, speculative_previews),
            join_all(watch_futs)
        );
        let watches = req
            .watches
            .iter()
            .zip(watch_vals)
            .map(|((expression, origin), value)| WatchValue {
                expression: expression.clone(),
                origin: *origin,
                value: value.map_err(|e| e.to_string()),
            })
            .collect();
        Ok::<_, DapError>((locals, reference, watches))
    };
    let (top, callers) = futures::join!(
        top_frame,
        callers::read(client, &frames, sources, early_callers)
    );
    let (locals, locals_reference, watches) = top?;
    let source = frames
        .first()
        .and_then(|f| f.file.as_deref())
        .and_then(|p| SourceCache::get(sources, p));
    let mut files: Vec<Arc<SourceFile>> = vec![];
    for p in frames.iter().filter_map(|f| f.file.as_deref()) {
        if !files.iter().any(|f| f.path == p)
            && let Some(f) = SourceCache::get(sources, p)
        {
            files.push(f);
        }
    }
    Ok((
        StopInfo {
            reason: req.reason,
            description: req.description,
            thread_id: req.thread_id,
            frames,
            total_frames,
            locals,
            locals_reference,
            exception,
            thread_note: req.thread_note,
            source,
            files,
            callers,
        },
        watches,
    ))
}

fn str_field(v: &Value, k: &str) -> String {
    v.get(k)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

pub fn parse_frames(body: Value) -> Result<(Vec<Frame>, usize), DapError> {
    let resp: dap_types::StackTraceResponse = body_as("stackTrace", body)?;
    let frames: Vec<Frame> = resp
        .stack_frames
        .into_iter()
        .map(|f| {
            let name = f
                .name
                .split('(')
                .next()
                .unwrap_or(&f.name)
                .trim()
                .to_string();
            Frame {
                id: f.id as i64,
                display: f.name.clone(),
                name,
                file: f.source.and_then(|s| s.path).map(PathBuf::from),
                line: f.line,
            }
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
    client: &DapClient,
    frame_id: i64,
) -> impl std::future::Future<Output = Result<Vec<(String, i64)>, DapError>> + Send + 'static {
    let fut = client.request("scopes", Some(json!({"frameId": frame_id})));
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

async fn read_locals(
    client: &DapClient,
    scopes: &[(String, i64)],
    speculative: Option<(
        i64,
        impl std::future::Future<Output = Result<Vec<Var>, DapError>>,
    )>,
) -> Result<(Vec<Var>, i64), DapError> {
    let Some((_, reference)) = scopes
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("locals"))
        .or(scopes.first())
        .cloned()
    else {
        return Ok((vec![], 0));
    };
    if let Some((r, fut)) = speculative
        && r == reference
        && let Ok(vars) = fut.await
    {
        return Ok((vars, reference));
    }
    Ok((variables(client, reference).await?, reference))
}

/// A variables page; the request is on the wire when this returns.
pub fn variables(
    client: &DapClient,
    reference: i64,
) -> impl std::future::Future<Output = Result<Vec<Var>, DapError>> + Send + 'static {
    let fut = client.request("variables", Some(json!({"variablesReference": reference})));
    async move {
        let resp: dap_types::VariablesResponse = body_as("variables", fut.await?)?;
        Ok(resp.variables.into_iter().map(to_var).collect())
    }
}

pub fn to_var(v: dap_types::Variable) -> Var {
    let (value, truncated) = cap(v.value);
    Var {
        name: v.name,
        value,
        type_name: v.type_.unwrap_or_default(),
        reference: v.variables_reference as i64,
        evaluate_name: v.evaluate_name,
        children: None,
        truncated,
    }
}

fn cap(s: String) -> (String, bool) {
    if s.len() <= STORED_VALUE_CHARS {
        return (s, false);
    }
    let mut end = STORED_VALUE_CHARS;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    (s[..end].to_string(), true)
}

/// Reads one level of children for the locals that have any, all at once.
type VarsFuture =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<Vec<Var>, DapError>> + Send>>;
type Speculative = (String, i64, VarsFuture);

async fn with_previews(
    client: &DapClient,
    mut vars: Vec<Var>,
    mut speculative: Vec<Speculative>,
) -> Vec<Var> {
    let wanted: Vec<usize> = vars
        .iter()
        .enumerate()
        .filter(|(_, v)| needs_children(v))
        .map(|(i, _)| i)
        .take(PREVIEW_LOCALS)
        .collect();
    // A speculative answer counts only if this stop gave the same local the
    // same reference; otherwise ask afresh.
    let futs: Vec<VarsFuture> = wanted
        .iter()
        .map(|&i| {
            let v = &vars[i];
            match speculative
                .iter()
                .position(|(n, r, _)| *n == v.name && *r == v.reference)
            {
                Some(k) => speculative.swap_remove(k).2,
                None => Box::pin(variables(client, v.reference)) as VarsFuture,
            }
        })
        .collect();
    for (i, res) in wanted.into_iter().zip(join_all(futs).await) {
        if let Ok(children) = res {
            vars[i].children = Some(children);
        }
    }
    vars
}

/// Whether a preview needs the value's children: its repr says too little
/// (a default `<X object at 0x..>`) or was cut short. Every other value
/// renders from its repr, sparing a request to the adapter on every stop.
fn needs_children(v: &Var) -> bool {
    v.reference > 0
        && !is_hidden_group(&v.name)
        && (v.value.is_empty()
            || v.truncated
            || v.value.contains(" object at 0x")
            || v.value.contains(", ...")
            || v.value.ends_with("..."))
}

/// Whether a variable is the program's own, worth showing: not one of
/// debugpy's groups and not a dunder.
pub fn is_shown(name: &str) -> bool {
    !is_hidden_group(name) && !name.starts_with("__")
}

/// debugpy groups dunder and function members under these pseudo-variables.
pub fn is_hidden_group(name: &str) -> bool {
    matches!(
        name,
        "special variables" | "function variables" | "class variables" | "protected variables"
    )
}

pub async fn evaluate(
    client: &DapClient,
    expression: &str,
    frame_id: Option<i64>,
    context: &str,
) -> Result<Var, DapError> {
    let mut args = json!({"expression": expression, "context": context});
    if let Some(f) = frame_id {
        args["frameId"] = json!(f);
    }
    let body = client.request("evaluate", Some(args)).await?;
    let resp: dap_types::EvaluateResponse = body_as("evaluate", body)?;
    let (value, truncated) = cap(resp.result);
    Ok(Var {
        name: expression.to_string(),
        value,
        type_name: resp.type_.unwrap_or_default(),
        reference: resp.variables_reference as i64,
        evaluate_name: Some(expression.to_string()),
        children: None,
        truncated,
    })
}

/// Splits `cart.items[0]['k']` into `["cart", "items", "0", "'k'"]`.
pub fn split_path(path: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut chars = path.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '.' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            '[' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                for d in chars.by_ref() {
                    if d == ']' {
                        break;
                    }
                    cur.push(d);
                }
                out.push(std::mem::take(&mut cur));
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// debugpy answers a failed evaluation with the whole traceback; its last
/// line (`NameError: name 'x' is not defined`) is the part worth reading.
pub fn exception_line(message: &str) -> String {
    let last = message
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or(message);
    last.to_string()
}

/// `cart.items.0` or `cart.items[0]` as Python: `cart.items[0]`. None when
/// the path is not one (so no code can ride in on a name).
pub fn path_expression(path: &str) -> Option<String> {
    let segs = split_path(path);
    let (first, rest) = segs.split_first()?;
    let ident = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !s.starts_with(|c: char| c.is_ascii_digit())
    };
    if !ident(first) {
        return None;
    }
    let mut out = first.clone();
    for seg in rest {
        if seg.parse::<i64>().is_ok() {
            out.push_str(&format!("[{seg}]"));
        } else if ident(seg) {
            out.push('.');
            out.push_str(seg);
        } else if (seg.starts_with('\'') && seg.ends_with('\'')
            || seg.starts_with('"') && seg.ends_with('"'))
            && seg.len() >= 2
            && !seg[1..seg.len() - 1].contains(['\'', '"', '\\'])
        {
            out.push_str(&format!("[{seg}]"));
        } else {
            return None;
        }
    }
    Some(out)
}

/// Finds a child by a path segment, looking through debugpy's groups too.
pub fn find_child<'a>(children: &'a [Var], seg: &str) -> Option<&'a Var> {
    let quoted = [format!("'{seg}'"), format!("\"{seg}\"")];
    // debugpy zero-pads list indices ("007" in a list of 120).
    let index = seg.parse::<usize>().ok();
    children
        .iter()
        .find(|v| v.name == seg)
        .or_else(|| children.iter().find(|v| quoted.contains(&v.name)))
        .or_else(|| {
            index.and_then(|i| {
                children
                    .iter()
                    .find(|v| v.name.parse::<usize>().ok() == Some(i))
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_python() {
        assert_eq!(
            path_expression("cart.items.0.price").as_deref(),
            Some("cart.items[0].price")
        );
        assert_eq!(path_expression("d['k']").as_deref(), Some("d['k']"));
        assert_eq!(path_expression("x").as_deref(), Some("x"));
        assert_eq!(path_expression("__import__('os').system('x')"), None);
        assert_eq!(path_expression("a; b"), None);
        assert_eq!(path_expression("0x"), None);
    }

    #[test]
    fn paths_split_on_dots_and_brackets() {
        assert_eq!(split_path("cart.items[0]"), vec!["cart", "items", "0"]);
        assert_eq!(split_path("d['k'].x"), vec!["d", "'k'", "x"]);
        assert_eq!(split_path("a"), vec!["a"]);
    }
}
