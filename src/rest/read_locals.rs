//! Reading a stop's locals for the safe repr: the top frame's locals and
//! their containers' items, as deep and as many as its limits show.

use futures::future::join_all;

use crate::session::types::Var;
use crate::session::{Origin, SessionHandle, VariablesQuery};
use crate::viewport::safe_repr::{MAX_DEPTH, MAX_ITEMS, Read};

/// Reads the top frame's locals and their containers' items, two levels
/// down, at most MAX_ITEMS of each, all the reads of a level at once.
pub async fn read_locals(s: &SessionHandle, locals: &[Var]) -> Vec<Read> {
    let mut tops: Vec<Read> = locals
        .iter()
        .filter(|v| !v.hidden)
        .map(|v| Read {
            var: v.clone(),
            children: None,
            total: 0,
        })
        .collect();
    let paths: Vec<String> = tops.iter().map(|r| r.var.name.clone()).collect();
    fill(s, &mut tops, &paths, 1).await;
    tops
}

fn fill<'a>(
    s: &'a SessionHandle,
    reads: &'a mut [Read],
    paths: &'a [String],
    depth: usize,
) -> futures::future::BoxFuture<'a, ()> {
    Box::pin(async move {
        if depth > MAX_DEPTH {
            return;
        }
        let wanted: Vec<usize> = (0..reads.len())
            .filter(|&i| reads[i].var.reference > 0 && !paths[i].is_empty())
            .collect();
        let pages = join_all(wanted.iter().map(|&i| children(s, &paths[i]))).await;
        for (&i, page) in wanted.iter().zip(pages) {
            let Some((kids, total)) = page else { continue };
            let kid_paths: Vec<String> = kids
                .iter()
                .map(|k| child_path(&paths[i], &k.name))
                .collect();
            let mut kids: Vec<Read> = kids
                .into_iter()
                .map(|var| Read {
                    var,
                    children: None,
                    total: 0,
                })
                .collect();
            fill(s, &mut kids, &kid_paths, depth + 1).await;
            reads[i].children = Some(kids);
            reads[i].total = total;
        }
    })
}

/// The path of a child, or none when its name cannot be a path segment
/// (an adapter's `[0]`): that child's items are then not read.
fn child_path(parent: &str, name: &str) -> String {
    if name.is_empty() || name.contains(['[', ']']) {
        return String::new();
    }
    format!("{parent}[{name}]")
}

/// The first MAX_ITEMS children of the value at `path`, and how many it has.
async fn children(s: &SessionHandle, path: &str) -> Option<(Vec<Var>, usize)> {
    let (vars, total) = s
        .variables(
            Origin::Rest,
            VariablesQuery {
                frame_index: 0,
                scope: None,
                path: Some(path.to_string()),
                filter: None,
                start: 0,
                count: MAX_ITEMS,
            },
        )
        .await
        .ok()?;
    let shown: Vec<Var> = vars.into_iter().filter(|v| !v.hidden).collect();
    Some((shown, total))
}
