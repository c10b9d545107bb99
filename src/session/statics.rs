//! A function's `static` locals shown with its locals, where the adapter
//! lists them in another scope beside the file's globals
//! (`Quirks::statics_scope`). Read only when the function's source
//! declares some, so other stops cost nothing more.

use std::sync::Arc;

use super::link::Link;
use super::reads;
use super::types::{Frame, SourceFile, Var};

/// `locals` with the frame's static locals after them.
pub async fn with_statics(
    client: &Link,
    frame: &Frame,
    files: &[Arc<SourceFile>],
    mut locals: Vec<Var>,
) -> Vec<Var> {
    let Some(scope) = client.quirks().statics_scope else {
        return locals;
    };
    let Some(src) = frame
        .file
        .as_deref()
        .and_then(|p| files.iter().find(|f| f.path == p))
    else {
        return locals;
    };
    let mut names = client.language().static_locals(&src.lines, frame.line);
    names.retain(|n| !locals.iter().any(|v| &v.name == n));
    if names.is_empty() {
        return locals;
    }
    let Ok(scopes) = reads::scopes(client, frame.id).await else {
        return locals;
    };
    let Some(&(_, reference)) = scopes.iter().find(|(n, _)| n == scope) else {
        return locals;
    };
    if let Ok(vars) = reads::variables(client, reference).await {
        // In the order the function declares them.
        for name in &names {
            if let Some(v) = vars.iter().find(|v| &v.name == name) {
                locals.push(v.clone());
            }
        }
    }
    locals
}

/// A static local named `name` in the frame's statics scope, which paths
/// under the locals reach as they reach the locals themselves.
pub async fn find(client: &Link, scopes: &[(String, i64)], name: &str) -> Option<Var> {
    let scope = client.quirks().statics_scope?;
    let &(_, reference) = scopes.iter().find(|(n, _)| n == scope)?;
    let vars = reads::variables(client, reference).await.ok()?;
    super::var_path::find_child(&vars, name).cloned()
}
