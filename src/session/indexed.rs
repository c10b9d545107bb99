//! Containers whose adapter counts their items (`indexedVariables`): their
//! children are read a page at a time (`filter`, `start`, `count` on the
//! variables request), since asking for all of them can keep an adapter
//! busy for many seconds (about 15 s for an array of 200,000 ints).

use std::future::Future;

use serde_json::json;

use super::link::Link;
use super::reads::{variables, variables_with};
use super::types::Var;
use crate::dap::DapError;

/// Items read where a value is previewed rather than opened: more than any
/// preview shows.
pub const PREVIEW_ITEMS: usize = 100;

/// A value's children for a preview: all of them, or the first page of a
/// container whose adapter counts its items.
pub fn children(
    client: &Link,
    var: &Var,
) -> impl Future<Output = Result<Vec<Var>, DapError>> + Send + 'static {
    let fut: futures::future::BoxFuture<'static, _> = match var.indexed {
        Some(n) => Box::pin(range(client, var.reference, 0, n.min(PREVIEW_ITEMS))),
        None => Box::pin(variables(client, var.reference)),
    };
    fut
}

/// The indexed children of `reference` from `start`, at most `count`.
pub fn range(
    client: &Link,
    reference: i64,
    start: usize,
    count: usize,
) -> impl Future<Output = Result<Vec<Var>, DapError>> + Send + 'static {
    let read = variables_with(
        client,
        json!({"variablesReference": reference, "filter": "indexed", "start": start, "count": count}),
    );
    // An adapter that ignores the page answers everything: the page is
    // then cut here.
    async move {
        let all = read.await?;
        Ok(if all.len() > count {
            all.into_iter().skip(start).take(count).collect()
        } else {
            all
        })
    }
}

/// Containers up to this many items are read whole to find a member by
/// name; bigger ones only by index.
const WHOLE_UP_TO: usize = 1_000;

/// The children of `reference` among which the path segment `seg` is
/// looked for: of a counted container, only the item `seg` names.
pub async fn child_of(
    client: &Link,
    reference: i64,
    indexed: Option<usize>,
    seg: &str,
) -> Result<Vec<Var>, DapError> {
    let index = seg
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<usize>()
        .ok();
    match (indexed, index) {
        (Some(n), Some(i)) if i < n => range(client, reference, i, 1).await,
        (Some(n), _) if n > WHOLE_UP_TO => range(client, reference, 0, PREVIEW_ITEMS).await,
        _ => variables(client, reference).await,
    }
}
