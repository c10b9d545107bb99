//! Filling in the children of values whose own text says too little, all
//! at once: a count or a type is read, never guessed from a cut repr.

use super::link::Link;
use super::types::Var;

/// Reads, all at once, the children of those `vars` whose text says too
/// little (cut short, a bare object), at most `max` of them: a count or
/// a type is then read, never guessed from a cut repr.
pub async fn fill_children(client: &Link, vars: &mut [Var], max: usize) {
    fill_children_by(client, vars, max, |l, v| {
        l.needs_children(&v.value, v.truncated)
    })
    .await
}

/// Reads what the values' previews show: their children where their text
/// says too little, and one level further where a child's own text does.
/// Every read of locals goes through here, so a value reads the same in
/// every frame and every view.
pub async fn fill_previews(client: &Link, vars: &mut [Var], max: usize) {
    fill_children(client, vars, max).await;
    fill_grandchildren(client, vars, max).await;
}

/// One level below the children already read, where a child's own text
/// was cut: its count and its items' types are read, not guessed.
pub async fn fill_grandchildren(client: &Link, vars: &mut [Var], max: usize) {
    let mut grandchildren: Vec<Var> = vars
        .iter()
        .flat_map(|v| v.children.clone().unwrap_or_default())
        .collect();
    fill_nested_children(client, &mut grandchildren, max).await;
    for child in vars
        .iter_mut()
        .flat_map(|v| v.children.iter_mut().flatten())
    {
        if let Some(read) = grandchildren
            .iter_mut()
            .find(|g| g.reference == child.reference && g.children.is_some())
            .filter(|_| child.reference > 0)
        {
            child.children = read.children.take();
        }
    }
    super::compose::compose(client, vars).await;
}

/// Like `fill_children`, for values shown one level down in a preview.
pub async fn fill_nested_children(client: &Link, vars: &mut [Var], max: usize) {
    fill_children_by(client, vars, max, |l, v| {
        l.needs_children_when_nested(&v.value, v.truncated)
    })
    .await
}

async fn fill_children_by(
    client: &Link,
    vars: &mut [Var],
    max: usize,
    wants: impl Fn(&dyn crate::adapters::Language, &Var) -> bool,
) {
    let language = client.language();
    let wanted: Vec<usize> = vars
        .iter()
        .enumerate()
        .filter(|(_, v)| v.reference > 0 && v.children.is_none() && wants(language, v))
        .map(|(i, _)| i)
        .take(max)
        .collect();
    let read = futures::future::join_all(
        wanted
            .iter()
            .map(|&i| super::indexed::children(client, &vars[i])),
    )
    .await;
    for (i, res) in wanted.into_iter().zip(read) {
        if let Ok(children) = res {
            vars[i].children = Some(children);
        }
    }
}
