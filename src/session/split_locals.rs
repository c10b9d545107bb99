//! A frame's locals as one list where the adapter splits them over scopes
//! (a loop's block, then its function): the list the viewport shows, so a
//! read of the locals names the same variables the stop did.

use super::error::SessionError;
use super::link::Link;
use super::reads;
use super::types::Var;

/// A page of the merged locals and how many match, without the names the
/// viewport hides (`this`); None for an adapter that keeps a frame's
/// locals in one scope, read as a container like any other.
pub async fn page(
    client: &Link,
    frame: i64,
    start: usize,
    count: usize,
    filter: Option<&str>,
) -> Result<Option<(Vec<Var>, usize)>, SessionError> {
    let prefixes = client.quirks().local_scopes;
    if prefixes.is_empty() {
        return Ok(None);
    }
    let scopes = reads::scopes(client, frame).await?;
    let split = reads::split_locals(&scopes, prefixes);
    if split.is_empty() {
        return Ok(None);
    }
    let filter = filter.map(str::to_lowercase);
    let all: Vec<Var> = reads::merged_locals(client, &split)
        .await?
        .into_iter()
        .filter(|v| !v.hidden)
        .filter(|v| {
            filter
                .as_ref()
                .is_none_or(|f| v.name.to_lowercase().contains(f))
        })
        .collect();
    let total = all.len();
    let mut page: Vec<Var> = all.into_iter().skip(start).take(count).collect();
    crate::session::fill::fill_previews(client, &mut page, count).await;
    crate::session::cut_lengths::fill(client, page.iter_mut(), frame).await;
    Ok(Some((page, total)))
}
