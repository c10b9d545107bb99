//! How long a cut text value really is: one length evaluation per cut
//! string, and only for a few per read, so a stop full of long strings
//! costs a bounded number of round trips.

use futures::future::join_all;

use super::link::Link;
use super::reads;
use super::types::Var;

/// Cut strings whose length one read asks for; past these, a value says
/// only that it is longer than what was kept.
pub const MAX_PER_READ: usize = 8;

/// Fills in the length of the cut text values among `vars`.
pub async fn fill<'a>(client: &Link, vars: impl IntoIterator<Item = &'a mut Var>, frame: i64) {
    let cut: Vec<&mut Var> = vars
        .into_iter()
        .filter(|v| v.length.is_none() && is_text(v))
        .take(MAX_PER_READ)
        .collect();
    let lengths = join_all(cut.iter().map(|v| length(client, v, frame))).await;
    for (v, n) in cut.into_iter().zip(lengths) {
        v.length = n;
    }
}

/// A string's repr opens with its quote (`b'` for Python's bytes).
fn is_text(v: &Var) -> bool {
    let value = v.value.strip_prefix('b').unwrap_or(&v.value);
    v.truncated && value.starts_with(['\'', '"'])
}

/// How long a cut value is, asked of the language; None when the value
/// was not cut or its length cannot be read.
pub async fn length(client: &Link, v: &Var, frame: i64) -> Option<usize> {
    let expression = v.evaluate_name.as_deref().filter(|_| v.truncated)?;
    let len = client.language().length_expression(expression)?;
    let context = client.quirks().evaluate_context;
    let n = reads::evaluate_at_stop(client, &len, Some(frame), context)
        .await
        .ok()?;
    n.value.trim().parse().ok()
}
