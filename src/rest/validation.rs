//! The document's validation rules: project-relative paths with no `..`,
//! files that exist, lines inside them, and the argument and environment
//! limits (shared with every other front end).

use std::path::{Component, Path, PathBuf};

use super::error::ApiError;
use super::model::{CreateSession, Target};
use crate::session::validate::{self, Workspace};

/// A launch the session table can keep: checked, not yet started.
#[derive(Debug, Clone)]
pub struct Entry {
    /// As given: project-relative.
    pub entry: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    pub python: Option<String>,
}

/// A project-relative path with no `..`, naming something that exists.
fn relative(ws: &Workspace, field: &str, raw: &str) -> Result<PathBuf, ApiError> {
    if raw.is_empty() {
        return Err(ApiError::invalid(field, "the path is empty"));
    }
    let path = Path::new(raw);
    if path.is_absolute() {
        return Err(ApiError::invalid(
            field,
            format!("{raw} is absolute; give a path relative to the project root"),
        ));
    }
    if path.components().any(|c| c == Component::ParentDir) {
        return Err(ApiError::invalid(
            field,
            format!("{raw} contains a `..` segment, which is not allowed"),
        ));
    }
    let joined = ws.root.join(path);
    let resolved = joined
        .canonicalize()
        .map_err(|_| ApiError::invalid(field, format!("{raw} does not exist in the project")))?;
    // A symbolic link may still lead out of the project.
    if !ws.allow_outside && !resolved.starts_with(&ws.root) {
        return Err(ApiError::invalid(
            field,
            format!("{raw} leads outside the project"),
        ));
    }
    Ok(resolved)
}

pub fn entry(ws: &Workspace, body: CreateSession) -> Result<Entry, ApiError> {
    let path = relative(ws, "entry", &body.entry)?;
    // A Go program is a package directory; everything else is a file.
    if !path.is_file() && !path.is_dir() {
        return Err(ApiError::invalid(
            "entry",
            format!("{} is not a file", body.entry),
        ));
    }
    validate::check_args(&body.args)?;
    let env: Vec<(String, String)> = body.env.into_iter().collect();
    validate::check_env(&env)?;
    if let Some(p) = &body.python_path {
        if !Path::new(p).is_absolute() {
            return Err(ApiError::invalid(
                "pythonPath",
                format!("{p} is not an absolute path"),
            ));
        }
        if !Path::new(p).is_file() {
            return Err(ApiError::invalid(
                "pythonPath",
                format!("{p} does not exist"),
            ));
        }
    }
    Ok(Entry {
        entry: body.entry,
        args: body.args,
        env,
        python: body.python_path,
    })
}

/// A breakpoint target: an existing project file and a line inside it.
pub fn target(ws: &Workspace, body: &Target) -> Result<(PathBuf, u64), ApiError> {
    let path = relative(ws, "file", &body.file)?;
    if !path.is_file() {
        return Err(ApiError::invalid(
            "file",
            format!("{} is not a file", body.file),
        ));
    }
    let line = validate::check_line("line", &path, body.line, &body.file)?;
    Ok((path, line))
}
