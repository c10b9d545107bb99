//! Readings the adapter cannot evaluate, answered from the values' parts
//! as its printers give them (see `Language::parts_read`): a path walked
//! through children, a count from the value's exact number of items.

use super::error::SessionError;
use super::link::Link;
use super::reads;
use super::types::Var;
use crate::adapters::PartsRead;
use crate::dap::DapError;

use super::walk::{child_named, resolve_container};

/// `expression`, which the language reads as `read`.
pub async fn read(
    client: &Link,
    frame: i64,
    expression: &str,
    read: PartsRead,
) -> Result<Var, SessionError> {
    match read {
        PartsRead::Path(segs) => walk(client, frame, expression, &segs).await,
        PartsRead::Count { of, is_empty } => {
            let v = value_of(client, frame, &of).await?;
            let Some(n) = client.language().exact_count(&v.value, &v.type_name) else {
                return Err(SessionError::Evaluate(format!(
                    "{expression} not read: the adapter cannot call it here, and {of}'s value ({}) gives no exact count",
                    short(&v.value)
                )));
            };
            let (value, type_name) = match is_empty {
                true => ((n == 0).to_string(), "bool"),
                false => (n.to_string(), "usize"),
            };
            Ok(Var {
                name: expression.to_string(),
                value,
                type_name: type_name.to_string(),
                language: crate::adapters::value::LanguageOf(Some(client.language())),
                ..Default::default()
            })
        }
    }
}

/// `of` as the adapter evaluates it, or walked where it cannot.
async fn value_of(client: &Link, frame: i64, of: &str) -> Result<Var, SessionError> {
    let language = client.language();
    let path = match language.parts_read(of) {
        Some(PartsRead::Path(segs)) => Some(segs),
        _ => None,
    };
    if let Some(segs) = path.as_ref().filter(|_| language.parts_read_first(of)) {
        return walk(client, frame, of, segs).await;
    }
    let context = client.quirks().evaluate_context;
    match reads::evaluate(client, of, Some(frame), context).await {
        Ok(v) => Ok(v),
        Err(DapError::Failed { .. }) if path.is_some() => {
            walk(client, frame, of, path.as_deref().unwrap_or_default()).await
        }
        Err(e) => Err(evaluation_error(client, e)),
    }
}

/// The child `segs` names, walked from a local.
async fn walk(
    client: &Link,
    frame: i64,
    expression: &str,
    segs: &[String],
) -> Result<Var, SessionError> {
    let Some((last, container)) = segs.split_last() else {
        return Err(SessionError::invalid("expression", "an empty path"));
    };
    // The walk names its segments with dots (`items.7`); the error says
    // the expression as it was written.
    let container = resolve_container(client, frame, None, container)
        .await
        .map_err(|e| match e {
            SessionError::Invalid { message, .. } => {
                SessionError::Evaluate(format!("{expression} not read: {message}"))
            }
            SessionError::NoSuchValue { path, .. } => {
                SessionError::Evaluate(format!("{expression} not read: {path} does not exist"))
            }
            other => other,
        })?;
    let found = child_named(
        client,
        container.reference,
        container.indexed,
        &container.type_name,
        last,
    )
    .await?;
    let mut v =
        found.ok_or_else(|| SessionError::Evaluate(format!("{expression} does not exist")))?;
    v.name = expression.to_string();
    Ok(v)
}

fn short(value: &str) -> String {
    match value.chars().count() {
        0 => "empty".into(),
        n if n <= 40 => value.to_string(),
        _ => format!("{}...", value.chars().take(30).collect::<String>()),
    }
}

/// A failed evaluation is the program's exception, told in the line its
/// language makes worth reading; any other failure is the adapter's.
pub fn evaluation_error(client: &Link, e: crate::dap::DapError) -> SessionError {
    match e {
        crate::dap::DapError::Failed { message, .. } => {
            SessionError::Evaluate(client.language().evaluation_error(&message))
        }
        // Said as the session will say it once it sees the adapter gone,
        // not as the stop it still shows.
        crate::dap::DapError::Closed => SessionError::AdapterGone(client.gone_reason()),
        other => other.into(),
    }
}

/// A watch at a stop: the adapter's evaluation, or where it cannot
/// evaluate it, the reading from the values' parts.
pub async fn watch(client: &Link, expression: &str, frame: i64) -> Result<Var, String> {
    let language = client.language();
    let by_parts = language.parts_read(expression);
    let first = language.parts_read_first(expression);
    let evaluated = match by_parts.clone() {
        Some(p) if first => {
            return read(client, frame, expression, p)
                .await
                .map_err(|e| e.to_string());
        }
        _ => reads::evaluate_at_stop(client, expression, Some(frame), "watch").await,
    };
    match (evaluated, by_parts) {
        (Err(DapError::Failed { .. }), Some(p)) => read(client, frame, expression, p)
            .await
            .map_err(|e| e.to_string()),
        (v, _) => v.map_err(|e| e.to_string()),
    }
}
