//! Values the adapter sends as a shell around their parts (gdb's Rust
//! enum: an empty value whose one child is the variant) get their text
//! from the parts: the parts are read, one batch per level and a few levels
//! deep, then the language composes each value from the bottom up.

use crate::adapters::{Language, Part};

use super::link::Link;
use super::types::Var;

/// How far below a value its parts are read.
const MAX_DEPTH: usize = 4;
/// The most reads in one level's batch.
const MAX_READS: usize = 64;

/// Reads the parts of the shells among `vars` and composes their text;
/// costs nothing for a language that composes none.
pub async fn compose(client: &Link, vars: &mut [Var]) {
    let language = client.language();
    let mut failed = std::collections::HashSet::new();
    for _ in 0..MAX_DEPTH {
        let mut wanted = vec![];
        collect(language, vars, &mut vec![], &mut wanted);
        wanted.retain(|p| !failed.contains(p));
        if wanted.is_empty() {
            break;
        }
        wanted.truncate(MAX_READS);
        let reads = futures::future::join_all(
            wanted
                .iter()
                .filter_map(|path| at(vars, path))
                .map(|var| super::indexed::children(client, var)),
        )
        .await;
        for (path, read) in wanted.into_iter().zip(reads) {
            match (read, at_mut(vars, &path)) {
                (Ok(children), Some(v)) => v.children = Some(children),
                // A part that cannot be read stays a shell, shown as not read.
                _ => {
                    failed.insert(path);
                }
            }
        }
    }
    for v in vars.iter_mut() {
        compose_one(language, v);
    }
}

/// The paths (child indices) of shells not yet read, down to `MAX_DEPTH`.
fn collect(
    language: &dyn Language,
    vars: &[Var],
    path: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    for (i, v) in vars.iter().enumerate() {
        path.push(i);
        match &v.children {
            _ if v.composed => {}
            Some(children) if path.len() < MAX_DEPTH => collect(language, children, path, out),
            Some(_) => {}
            None => {
                if v.reference > 0 && language.composes_from_parts(&v.value, &v.type_name) {
                    out.push(path.clone());
                }
            }
        }
        path.pop();
    }
}

fn at<'a>(vars: &'a [Var], path: &[usize]) -> Option<&'a Var> {
    let (first, rest) = path.split_first()?;
    rest.iter()
        .try_fold(vars.get(*first)?, |v, &i| v.children.as_deref()?.get(i))
}

fn at_mut<'a>(vars: &'a mut [Var], path: &[usize]) -> Option<&'a mut Var> {
    let (first, rest) = path.split_first()?;
    rest.iter().try_fold(vars.get_mut(*first)?, |v, &i| {
        v.children.as_deref_mut()?.get_mut(i)
    })
}

/// Composes `v`'s parts first, then `v`; a composed value keeps its parts
/// for expanding it, and every view shows its text.
fn compose_one(language: &dyn Language, v: &mut Var) {
    let Some(children) = v.children.as_mut() else {
        return;
    };
    for c in children.iter_mut() {
        compose_one(language, c);
    }
    let parts: Vec<Part<'_>> = children
        .iter()
        .map(|c| Part {
            name: &c.name,
            value: (!is_unread(language, c)).then_some(c.value.as_str()),
            type_name: &c.type_name,
        })
        .collect();
    if let Some(text) = language.composed_value(&v.value, &v.type_name, &parts) {
        v.value = text;
        v.composed = true;
    }
}

fn is_unread(language: &dyn Language, c: &Var) -> bool {
    !c.composed && c.reference > 0 && language.composes_from_parts(&c.value, &c.type_name)
}
