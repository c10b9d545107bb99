//! Pages of a container's children. An adapter may list the first 100 items of a
//! big container and fold the rest into `more` nodes (one range, or buckets
//! of ranges named `[from:to]`); a page reads only the ranges it overlaps.

use super::error::SessionError;
use super::indexed;
use super::link::Link;
use super::reads;
use super::types::Var;

fn is_more(v: &Var) -> bool {
    v.name == "more" && v.type_name.starts_with("MoreItems")
}

fn range_of(name: &str) -> Option<(usize, usize)> {
    let (a, b) = name.strip_prefix('[')?.strip_suffix(']')?.split_once(':')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// The container a page is read from.
pub struct Window<'a> {
    pub reference: i64,
    /// Its type, which says how its children read (a map's as entries).
    pub type_name: &'a str,
    /// The expression that reads it, to reach items past the adapter's cap.
    pub expression: Option<&'a str>,
    pub frame: i64,
    /// Its item count, where the adapter gives one: items are then read by
    /// the page.
    pub indexed: Option<usize>,
}

/// Items of a counted container that a name filter looks through.
const FILTER_SCAN: usize = 10_000;

/// Children of the container from `start`, at most `count`, filtered by
/// name; also the total number of matching children.
pub async fn page(
    client: &Link,
    window: Window<'_>,
    start: usize,
    count: usize,
    filter: Option<&str>,
) -> Result<(Vec<Var>, usize), SessionError> {
    if let Some(n) = window.indexed {
        return counted(client, window.reference, n, start, count, filter).await;
    }
    let language = client.language();
    let kids = reads::variables(client, window.reference).await?;
    let mut kids = super::listing::as_entries(language, window.type_name, kids);
    if let Some(cap) = kids.iter().position(|v| language.is_listing_cut(&v.name)) {
        kids.remove(cap);
        if filter.is_none()
            && let Some(read) = past_cap(client, &window, &kids, start, count).await?
        {
            return Ok(read);
        }
    }
    let more = kids.iter().position(is_more).map(|i| kids.remove(i));
    let filter = filter.map(str::to_lowercase);
    let keep = |v: &Var| {
        filter
            .as_ref()
            .is_none_or(|f| v.name.to_lowercase().contains(f))
    };
    let Some(more) = more else {
        let all: Vec<Var> = kids.into_iter().filter(keep).collect();
        let total = all.len();
        return Ok((all.into_iter().skip(start).take(count).collect(), total));
    };
    // Items first (by index), then named members such as len().
    let (mut items, named): (Vec<Var>, Vec<Var>) = kids
        .into_iter()
        .partition(|v| v.name.parse::<usize>().is_ok());
    let len = named
        .iter()
        .find(|v| v.name == "len()")
        .and_then(|v| v.value.parse::<usize>().ok());
    let end = start.saturating_add(count);
    if filter.is_some() || end > items.len() {
        if more.type_name == "MoreItemsRange" {
            items.extend(reads::variables(client, more.reference).await?);
        } else {
            let ranges = reads::variables(client, more.reference).await?;
            let wanted: Vec<&Var> = ranges
                .iter()
                .filter(|r| match range_of(&r.name) {
                    Some((a, b)) => filter.is_some() || (a < end && b > start),
                    None => false,
                })
                .collect();
            let pages = futures::future::join_all(
                wanted.iter().map(|r| reads::variables(client, r.reference)),
            )
            .await;
            for p in pages {
                items.extend(p?);
            }
        }
    }
    let n_items = len.unwrap_or(items.len());
    let mut all: Vec<(usize, Var)> = items
        .into_iter()
        .filter_map(|v| v.name.parse::<usize>().ok().map(|i| (i, v)))
        .chain(named.into_iter().enumerate().map(|(k, v)| (n_items + k, v)))
        .filter(|(_, v)| keep(v))
        .collect();
    all.sort_by_key(|(i, _)| *i);
    if filter.is_some() {
        let total = all.len();
        return Ok((
            all.into_iter()
                .map(|(_, v)| v)
                .skip(start)
                .take(count)
                .collect(),
            total,
        ));
    }
    let total = n_items + all.iter().filter(|(i, _)| *i >= n_items).count();
    let page = all
        .into_iter()
        .filter(|(i, _)| *i >= start && *i < end)
        .map(|(_, v)| v)
        .collect();
    Ok((page, total))
}

/// A page of a container the adapter listed only in part: items past the
/// listed ones are read through the language's window expression. None
/// when the listed items serve the page (or no window can be read).
async fn past_cap(
    client: &Link,
    window: &Window<'_>,
    listed: &[Var],
    start: usize,
    count: usize,
) -> Result<Option<(Vec<Var>, usize)>, SessionError> {
    let Some(len) = listed
        .iter()
        .find(|v| v.name == "len()")
        .and_then(|v| v.value.parse::<usize>().ok())
    else {
        return Ok(None);
    };
    let items = listed.iter().filter(|v| v.name != "len()").count();
    let end = start.saturating_add(count).min(len);
    if end <= items {
        let page = listed
            .iter()
            .filter(|v| v.name != "len()")
            .skip(start)
            .take(count)
            .cloned()
            .collect();
        return Ok(Some((page, len + 1)));
    }
    let Some(expression) = window.expression else {
        return Ok(None);
    };
    let Some(read) = client.language().items_window(expression, start, end) else {
        return Ok(None);
    };
    let context = client.quirks().evaluate_context;
    let v = reads::evaluate(client, &read, Some(window.frame), context).await?;
    if v.reference <= 0 {
        return Ok(None);
    }
    let page: Vec<Var> = reads::variables(client, v.reference)
        .await?
        .into_iter()
        .filter(|v| v.name != "len()" && !v.hidden)
        .map(|mut v| {
            // The window's own names for its items lead nowhere; the
            // container's do.
            v.evaluate_name = v.evaluate_name.map(|e| e.replacen(&read, expression, 1));
            v
        })
        .collect();
    // len() follows the items, as in the listing.
    Ok(Some((page, len + 1)))
}

/// A page of a container whose adapter counts its items: only that page
/// is read. A name filter looks through the first `FILTER_SCAN` items.
async fn counted(
    client: &Link,
    reference: i64,
    n: usize,
    start: usize,
    count: usize,
    filter: Option<&str>,
) -> Result<(Vec<Var>, usize), SessionError> {
    let Some(filter) = filter.map(str::to_lowercase) else {
        let end = start.saturating_add(count).min(n);
        if start >= end {
            return Ok((vec![], n));
        }
        let page = indexed::range(client, reference, start, end - start).await?;
        return Ok((page, n));
    };
    let scanned = indexed::range(client, reference, 0, n.min(FILTER_SCAN)).await?;
    let matching: Vec<Var> = scanned
        .into_iter()
        .filter(|v| v.name.to_lowercase().contains(&filter))
        .collect();
    let total = matching.len();
    Ok((
        matching.into_iter().skip(start).take(count).collect(),
        total,
    ))
}
