//! Input limits. Every refusal names the field and the limit.

use std::path::{Component, Path, PathBuf};

use super::error::SessionError;

pub const MAX_ARGS: usize = 20;
pub const MAX_ARG_CHARS: usize = 512;
pub const MAX_ENV: usize = 50;
pub const MAX_ENV_KEY_CHARS: usize = 64;
pub const MAX_ENV_VALUE_CHARS: usize = 1024;
pub const MAX_EXPRESSION_CHARS: usize = 4096;
pub const MAX_TIMEOUT_MS: u64 = 600_000;
/// Watches are evaluated at every stop: each one costs a round trip.
pub const MAX_WATCHES: usize = 64;
/// Any string argument without a limit of its own (program input, notes).
pub const MAX_ANY_STRING_CHARS: usize = 65_536;
/// Any list argument without a limit of its own.
pub const MAX_ANY_LIST_ITEMS: usize = 1_000;
/// How deep arguments may nest: no tool takes more than a few levels.
pub const MAX_NESTING: usize = 16;

#[derive(Debug, Clone)]
pub struct Workspace {
    pub root: PathBuf,
    pub allow_outside: bool,
}

impl Workspace {
    pub fn new(root: &Path, allow_outside: bool) -> Self {
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        Workspace {
            root,
            allow_outside,
        }
    }

    /// Resolves a user path to an existing file inside the workspace; a
    /// bare name that one workspace file has names that file.
    pub fn resolve_file(&self, field: &str, raw: &str) -> Result<PathBuf, SessionError> {
        let p = self.resolve(field, raw)?;
        if !p.is_file() && !raw.contains('/') {
            let found = super::find_file::files_named(&self.root, raw);
            match found.as_slice() {
                [one] => return Ok(one.clone()),
                [] => {}
                several => {
                    let list: Vec<String> = several
                        .iter()
                        .map(|f| {
                            f.strip_prefix(&self.root)
                                .unwrap_or(f)
                                .display()
                                .to_string()
                        })
                        .collect();
                    return Err(SessionError::invalid(
                        field,
                        format!(
                            "{raw} names {} files; give one of {}",
                            list.len(),
                            list.join(", ")
                        ),
                    ));
                }
            }
        }
        if !p.is_file() {
            return Err(SessionError::invalid(
                field,
                format!(
                    "{raw} is not a file in the workspace {}",
                    self.root.display()
                ),
            ));
        }
        Ok(p)
    }

    /// A program: a file, or a directory (a Go package).
    pub fn resolve_program(&self, field: &str, raw: &str) -> Result<PathBuf, SessionError> {
        let p = self.resolve(field, raw)?;
        if !p.is_file() && !p.is_dir() {
            return Err(SessionError::invalid(
                field,
                format!(
                    "{raw} is not a file or directory in the workspace {}",
                    self.root.display()
                ),
            ));
        }
        Ok(p)
    }

    pub fn resolve_dir(&self, field: &str, raw: &str) -> Result<PathBuf, SessionError> {
        let p = self.resolve(field, raw)?;
        if !p.is_dir() {
            return Err(SessionError::invalid(
                field,
                format!("{raw} is not a directory"),
            ));
        }
        Ok(p)
    }

    /// A path inside the workspace that need not exist yet (a program a
    /// build will make).
    pub fn resolve_path(&self, field: &str, raw: &str) -> Result<PathBuf, SessionError> {
        self.resolve(field, raw)
    }

    fn resolve(&self, field: &str, raw: &str) -> Result<PathBuf, SessionError> {
        if raw.is_empty() {
            return Err(SessionError::invalid(field, "the path is empty"));
        }
        let path = Path::new(raw);
        if path.components().any(|c| c == Component::ParentDir) {
            return Err(SessionError::invalid(
                field,
                format!("{raw} contains a `..` segment; paths must stay inside the workspace"),
            ));
        }
        let joined = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.root.join(path)
        };
        let resolved = joined.canonicalize().unwrap_or(joined);
        if !self.allow_outside && !resolved.starts_with(&self.root) {
            return Err(SessionError::invalid(
                field,
                format!(
                    "{raw} is outside the workspace {}; start pairdbg with --allow-outside-workspace to permit it",
                    self.root.display()
                ),
            ));
        }
        Ok(resolved)
    }
}

pub fn check_args(args: &[String]) -> Result<(), SessionError> {
    if args.len() > MAX_ARGS {
        return Err(SessionError::invalid(
            "args",
            format!("{} arguments given; the limit is {MAX_ARGS}", args.len()),
        ));
    }
    for (i, a) in args.iter().enumerate() {
        let n = a.chars().count();
        if n > MAX_ARG_CHARS {
            return Err(SessionError::invalid(
                &format!("args[{i}]"),
                format!("{n} characters; the limit is {MAX_ARG_CHARS}"),
            ));
        }
    }
    Ok(())
}

pub fn check_env(env: &[(String, String)]) -> Result<(), SessionError> {
    if env.len() > MAX_ENV {
        return Err(SessionError::invalid(
            "env",
            format!("{} entries given; the limit is {MAX_ENV}", env.len()),
        ));
    }
    for (k, v) in env {
        if k.is_empty() || k.contains('=') || k.contains('\0') {
            return Err(SessionError::invalid(
                "env",
                format!("{k:?} is not a valid variable name"),
            ));
        }
        let kn = k.chars().count();
        if kn > MAX_ENV_KEY_CHARS {
            return Err(SessionError::invalid(
                &format!("env key {}…", k.chars().take(16).collect::<String>()),
                format!("{kn} characters; the limit is {MAX_ENV_KEY_CHARS}"),
            ));
        }
        let vn = v.chars().count();
        if vn > MAX_ENV_VALUE_CHARS {
            return Err(SessionError::invalid(
                &format!("env[{k}]"),
                format!("the value has {vn} characters; the limit is {MAX_ENV_VALUE_CHARS}"),
            ));
        }
    }
    Ok(())
}

/// Lines are 1-based and inside the file.
pub fn check_line(field: &str, file: &Path, line: i64, display: &str) -> Result<u64, SessionError> {
    let count = std::fs::read_to_string(file)
        .map(|s| s.lines().count())
        .map_err(|e| SessionError::invalid(field, format!("cannot read {display}: {e}")))?;
    if line < 1 {
        return Err(SessionError::invalid(
            field,
            format!("line {line} is invalid; lines are 1-based"),
        ));
    }
    if line as usize > count {
        return Err(SessionError::invalid(
            field,
            format!("line {line} is past the end of {display}, which has {count} lines"),
        ));
    }
    Ok(line as u64)
}

pub fn check_timeout(ms: Option<u64>, default: u64) -> Result<std::time::Duration, SessionError> {
    let ms = ms.unwrap_or(default);
    if ms == 0 || ms > MAX_TIMEOUT_MS {
        return Err(SessionError::invalid(
            "timeout_ms",
            format!("{ms} is out of range; use 1 to {MAX_TIMEOUT_MS}"),
        ));
    }
    Ok(std::time::Duration::from_millis(ms))
}

/// A text that names or evaluates something in the program (a variable's
/// name or path, a value to set): as long as an expression may be.
pub fn check_text(field: &str, text: &str) -> Result<(), SessionError> {
    let n = text.chars().count();
    if n > MAX_EXPRESSION_CHARS {
        return Err(SessionError::invalid(
            field,
            format!("{n} characters; the limit is {MAX_EXPRESSION_CHARS}"),
        ));
    }
    Ok(())
}

/// Bounds every string, list and nesting level of a call's arguments, so
/// that no field without a limit of its own can hold a call up; `field` is
/// the argument's path in the message (`watches`, `breakpoints[3].file`).
pub fn check_json(field: &str, v: &serde_json::Value) -> Result<(), SessionError> {
    check_json_at(field, v, 0)
}

fn check_json_at(field: &str, v: &serde_json::Value, depth: usize) -> Result<(), SessionError> {
    use serde_json::Value;
    if depth > MAX_NESTING {
        return Err(SessionError::invalid(
            field,
            format!("nested more than {MAX_NESTING} levels deep, the limit"),
        ));
    }
    match v {
        Value::String(s) => {
            let n = s.chars().count();
            let max = string_limit(field);
            if n > max {
                return Err(SessionError::invalid(
                    field,
                    format!("{n} characters; the limit is {max}"),
                ));
            }
        }
        Value::Array(items) => {
            if items.len() > MAX_ANY_LIST_ITEMS {
                return Err(SessionError::invalid(
                    field,
                    format!(
                        "{} items given; the limit is {MAX_ANY_LIST_ITEMS}",
                        items.len()
                    ),
                ));
            }
            for (i, item) in items.iter().enumerate() {
                check_json_at(&format!("{field}[{i}]"), item, depth + 1)?;
            }
        }
        Value::Object(map) => {
            if map.len() > MAX_ANY_LIST_ITEMS {
                return Err(SessionError::invalid(
                    field,
                    format!(
                        "{} fields given; the limit is {MAX_ANY_LIST_ITEMS}",
                        map.len()
                    ),
                ));
            }
            for (k, item) in map {
                let path = if field.is_empty() {
                    k.clone()
                } else {
                    format!("{field}.{k}")
                };
                check_json_at(&path, item, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The most characters a string argument may have, by its field's name:
/// what names or evaluates something in the program, and paths, as long as
/// an expression; free text (program input, notes) longer.
fn string_limit(field: &str) -> usize {
    let leaf = field.rsplit(['.', '[']).next().unwrap_or(field);
    match leaf {
        "name" | "expression" | "condition" | "hit_condition" | "log_message" | "function"
        | "statement" | "value" | "file" | "program" | "cwd" | "path" | "session_id" | "build" => {
            MAX_EXPRESSION_CHARS
        }
        _ => MAX_ANY_STRING_CHARS,
    }
}

pub fn check_expression(expr: &str) -> Result<(), SessionError> {
    if expr.trim().is_empty() {
        return Err(SessionError::invalid(
            "expression",
            "the expression is empty",
        ));
    }
    let n = expr.chars().count();
    if n > MAX_EXPRESSION_CHARS {
        return Err(SessionError::invalid(
            "expression",
            format!("{n} characters; the limit is {MAX_EXPRESSION_CHARS}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_argument_is_bounded() {
        let long = serde_json::json!({"input": "x".repeat(MAX_ANY_STRING_CHARS + 1)});
        let e = check_json("", &long).unwrap_err().to_string();
        assert!(e.starts_with("input:") && e.contains("65536"), "{e}");
        let wide = serde_json::json!({"breakpoints": [{"file": "a.py", "lines": vec![1; 1001]}]});
        let e = check_json("", &wide).unwrap_err().to_string();
        assert!(
            e.starts_with("breakpoints[0].lines:") && e.contains("1000"),
            "{e}"
        );
        let mut deep = serde_json::json!(1);
        for _ in 0..20 {
            deep = serde_json::json!([deep]);
        }
        let e = check_json("args", &deep).unwrap_err().to_string();
        assert!(e.contains("16 levels"), "{e}");
        assert!(check_json("", &serde_json::json!({"a": [1, {"b": "c"}]})).is_ok());
    }

    #[test]
    fn limits_name_field_and_limit() {
        let e = check_args(&vec!["a".into(); 21]).unwrap_err().to_string();
        assert!(e.contains("args") && e.contains("20"), "{e}");
        let e = check_args(&["x".repeat(513)]).unwrap_err().to_string();
        assert!(e.contains("args[0]") && e.contains("512"), "{e}");
        let env: Vec<_> = (0..51).map(|i| (format!("K{i}"), "v".into())).collect();
        assert!(check_env(&env).unwrap_err().to_string().contains("50"));
        let e = check_env(&[("K".repeat(65), "v".into())])
            .unwrap_err()
            .to_string();
        assert!(e.contains("64"), "{e}");
        let e = check_env(&[("K".into(), "v".repeat(1025))])
            .unwrap_err()
            .to_string();
        assert!(e.contains("env[K]") && e.contains("1024"), "{e}");
    }

    #[test]
    fn paths_stay_in_the_workspace() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.py"), "x = 1\n").unwrap();
        let ws = Workspace::new(dir.path(), false);
        assert!(ws.resolve_file("program", "a.py").is_ok());
        let e = ws
            .resolve_file("program", "../a.py")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("program:") && e.contains(".."), "{e}");
        let e = ws
            .resolve_file("program", "/etc/hostname")
            .unwrap_err()
            .to_string();
        assert!(e.contains("--allow-outside-workspace"), "{e}");
        let open = Workspace::new(dir.path(), true);
        assert!(open.resolve_file("program", "/etc/hostname").is_ok());
    }

    #[test]
    fn lines_are_one_based_and_inside_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.py");
        std::fs::write(&f, "a\nb\nc\n").unwrap();
        assert_eq!(check_line("line", &f, 3, "a.py").unwrap(), 3);
        assert!(
            check_line("line", &f, 0, "a.py")
                .unwrap_err()
                .to_string()
                .contains("1-based")
        );
        let e = check_line("line", &f, 4, "a.py").unwrap_err().to_string();
        assert!(e.contains("has 3 lines"), "{e}");
    }
}
