//! Paths walked through a frame's values: from a scope's locals down
//! through their children, as listings show them.

use super::error::SessionError;
use super::link::Link;
use super::types::Var;
use super::{indexed, listing, map_entries, reads, statics, var_path};

pub const NO_CHILDREN: &str = "has no children";

/// Levels a listing opens through (`Option<&T>`: the variant, its one
/// position, the reference's target).
pub const MAX_SHELLS: usize = 4;

/// A container a path leads to: its variablesReference, and the
/// expression that reads it where one is known.
pub struct Container {
    pub reference: i64,
    pub expression: Option<String>,
    /// Its item count, where the adapter gives one.
    pub indexed: Option<usize>,
    /// Its type, as the adapter names it (empty for a scope).
    pub type_name: String,
}

/// A value in an error message: never the whole of a long one.
pub fn short_value(value: &str) -> String {
    let n = value.chars().count();
    if n <= 80 {
        return value.to_string();
    }
    let head: String = value.chars().take(60).collect();
    format!("{head}... ({n} chars)")
}

/// For an adapter that splits a frame's locals over scopes (a block's,
/// then its function's): the innermost that holds `first`, or with no
/// name, the function's own.
async fn split_scope(
    client: &Link,
    scopes: &[(String, i64)],
    first: Option<&String>,
) -> Option<i64> {
    let split = reads::split_locals(scopes, client.quirks().local_scopes);
    let Some(first) = first else {
        return split.last().copied();
    };
    for r in &split {
        let children = reads::variables(client, *r).await.ok()?;
        if var_path::find_child(&children, first).is_some() {
            return Some(*r);
        }
    }
    split.last().copied()
}

/// The variablesReference of `segs` under a frame's scope.
pub async fn resolve_container(
    client: &Link,
    frame: i64,
    scope: Option<&str>,
    segs: &[String],
) -> Result<Container, SessionError> {
    let scopes = reads::scopes(client, frame).await?;
    let wanted = scope.unwrap_or("locals");
    let named = scopes
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(wanted))
        .map(|(_, r)| *r);
    // Locals split over scopes (a block's, the function's, its
    // parameters') are found in whichever holds the first name.
    let split_locals = scope.is_none() && !client.quirks().local_scopes.is_empty();
    let split = match (named, scope) {
        _ if split_locals => split_scope(client, &scopes, segs.first()).await,
        (None, None) => split_scope(client, &scopes, segs.first()).await,
        _ => None,
    };
    let named = named.filter(|_| !split_locals || split.is_none());
    let mut reference = split.or(named).ok_or_else(|| {
        SessionError::invalid(
            "scope",
            format!(
                "no scope {wanted:?}; this frame has {:?}",
                scopes.iter().map(|(n, _)| n).collect::<Vec<_>>()
            ),
        )
    })?;
    let mut walked = String::new();
    let mut expression = None;
    let mut indexed = None;
    let mut type_name = String::new();
    for seg in segs {
        let mut found = child_named(client, reference, indexed, &type_name, seg).await?;
        if found.is_none() && walked.is_empty() && scope.is_none() {
            found = statics::find(client, &scopes, seg).await;
        }
        let Some(v) = found else {
            return Err(SessionError::NoSuchValue {
                field: "expand".into(),
                path: format!("{walked}{}{seg}", if walked.is_empty() { "" } else { "." }),
            });
        };
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(seg);
        if v.reference <= 0 {
            return Err(SessionError::invalid(
                "expand",
                format!("{walked} = {} {NO_CHILDREN}", short_value(&v.value)),
            ));
        }
        reference = v.reference;
        expression = v.evaluate_name;
        indexed = v.indexed;
        type_name = v.type_name;
    }
    Ok(Container {
        reference,
        expression,
        indexed,
        type_name,
    })
}

/// The child `seg` names in a container of `type_name`, as a listing
/// shows it: a listing opens through the levels the adapter adds, so the
/// path it printed goes through them too.
pub async fn child_named(
    client: &Link,
    reference: i64,
    indexed: Option<usize>,
    type_name: &str,
    seg: &str,
) -> Result<Option<Var>, SessionError> {
    let language = client.language();
    // A map's entries are named by their keys, not their positions: all
    // of them are read to find one.
    let is_map = language.entry_members(type_name).is_some();
    let by = if is_map { "" } else { seg };
    let mut children = indexed::child_of(client, reference, indexed, by).await?;
    let mut type_name = type_name.to_string();
    for _ in 0..=MAX_SHELLS {
        children = map_entries::read(client, &type_name, children).await;
        children = listing::as_entries(language, &type_name, children);
        listing::typed(language, &type_name, &mut children);
        if let Some(v) = var_path::find_child(&children, seg) {
            return Ok(Some(v.clone()));
        }
        let [shell] = children.as_slice() else {
            break;
        };
        if !listing::opens_through(language, &type_name, shell) {
            break;
        }
        type_name = shell.type_name.clone();
        let (r, i) = (shell.reference, shell.indexed);
        children = indexed::child_of(client, r, i, seg).await?;
    }
    Ok(None)
}
