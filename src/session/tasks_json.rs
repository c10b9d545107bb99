//! A launch configuration's `preLaunchTask`, from VS Code's
//! `.vscode/tasks.json`: shell and process tasks with their `options`
//! (`cwd`, `env`), the tasks they `dependsOn` run first, each once.

use std::path::Path;

use serde_json::Value;

use super::build::BuildCommandRequest;
use super::launch_json::substitute;

pub const PATH: &str = ".vscode/tasks.json";

/// The commands that run the task `label`: what it depends on first.
pub fn commands(
    workspace: &Path,
    label: &str,
    file: Option<&str>,
) -> Result<Vec<BuildCommandRequest>, String> {
    let path = workspace.join(PATH);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "preLaunchTask {label:?}: cannot read {}: {e}",
            path.display()
        )
    })?;
    let mut doc: Value = jsonc_parser::parse_to_serde_value(&text, &Default::default())
        .map_err(|e| format!("{PATH}: {e}"))?;
    substitute(&mut doc, workspace, file)?;
    let tasks = doc
        .get("tasks")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let global = doc.get("options").cloned().unwrap_or(Value::Null);
    let mut out = vec![];
    let mut path = vec![];
    add(&tasks, &global, label, &mut path, &mut vec![], &mut out)?;
    Ok(out)
}

fn add(
    tasks: &[Value],
    global: &Value,
    label: &str,
    path: &mut Vec<String>,
    done: &mut Vec<String>,
    out: &mut Vec<BuildCommandRequest>,
) -> Result<(), String> {
    if done.iter().any(|d| d == label) {
        return Ok(());
    }
    if path.iter().any(|p| p == label) {
        path.push(label.to_string());
        return Err(format!(
            "{PATH}: dependsOn goes round: {}",
            path.join(" → ")
        ));
    }
    let task = tasks
        .iter()
        .find(|t| t.get("label").and_then(Value::as_str) == Some(label))
        .ok_or_else(|| {
            let labels: Vec<&str> = tasks
                .iter()
                .filter_map(|t| t.get("label").and_then(Value::as_str))
                .collect();
            format!("{PATH} has no task {label:?}; it has {labels:?}")
        })?;
    path.push(label.to_string());
    let depends: Vec<String> = match task.get("dependsOn") {
        Some(Value::String(one)) => vec![one.clone()],
        Some(Value::Array(many)) => many
            .iter()
            .filter_map(|d| d.as_str().map(str::to_string))
            .collect(),
        _ => vec![],
    };
    // VS Code may run them side by side; one after another is what a
    // person can follow in the output, and as correct.
    for d in &depends {
        add(tasks, global, d, path, done, out)?;
    }
    path.pop();
    done.push(label.to_string());
    if let Some(c) = command(task, global, label)? {
        out.push(c);
    }
    Ok(())
}

/// The task's own command; None for a task that only gathers others.
fn command(
    task: &Value,
    global: &Value,
    label: &str,
) -> Result<Option<BuildCommandRequest>, String> {
    let Some(command) = task.get("command").and_then(Value::as_str) else {
        return Ok(None);
    };
    let args: Vec<String> = task
        .get("args")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| {
                    x.as_str()
                        .or_else(|| x.get("value").and_then(Value::as_str))
                        .map(str::to_string)
                })
                .collect()
        })
        .unwrap_or_default();
    let kind = task
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("process");
    let mut c = match kind {
        "shell" => {
            let line = std::iter::once(command.to_string())
                .chain(args.iter().map(|a| shell_quote(a)))
                .collect::<Vec<_>>()
                .join(" ");
            BuildCommandRequest::shell(&line)
        }
        "process" => BuildCommandRequest {
            label: std::iter::once(command)
                .chain(args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" "),
            program: command.to_string(),
            args,
            ..Default::default()
        },
        other => {
            return Err(format!(
                "{PATH}: task {label:?} is of type {other:?}; pairdbg runs shell and process tasks"
            ));
        }
    };
    let option = |key: &str| {
        task.get("options")
            .and_then(|o| o.get(key))
            .or_else(|| global.get(key))
    };
    c.cwd = option("cwd").and_then(Value::as_str).map(str::to_string);
    if let Some(Value::Object(env)) = option("env") {
        c.env = env
            .iter()
            .map(|(k, v)| {
                let v = v
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| v.to_string());
                (k.clone(), v)
            })
            .collect();
    }
    c.label = format!("{label} ({})", c.label);
    Ok(Some(c))
}

/// `arg` as the shell reads it back unchanged.
fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TASKS: &str = r#"{
        // Comments, as VS Code writes them.
        "version": "2.0.0",
        "tasks": [
            {"label": "gen", "type": "shell", "command": "echo", "args": ["a b"],
             "options": {"cwd": "${workspaceFolder}/gen", "env": {"VALUE": "7"}}},
            {"label": "compile", "type": "process", "command": "cc", "args": ["-g", "x.c"], "dependsOn": "gen"},
            {"label": "all", "dependsOn": ["gen", "compile"]},
            {"label": "loop1", "type": "shell", "command": "true", "dependsOn": "loop2"},
            {"label": "loop2", "type": "shell", "command": "true", "dependsOn": "loop1"},
            {"label": "ra", "type": "cargo", "command": "build"},
        ],
    }"#;

    fn ws() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join(".vscode")).unwrap();
        std::fs::write(d.path().join(PATH), TASKS).unwrap();
        d
    }

    #[test]
    fn dependencies_run_first_and_once_with_their_options() {
        let d = ws();
        let c = commands(d.path(), "all", None).unwrap();
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(c[0].program, "sh");
        assert_eq!(c[0].args, vec!["-c", "echo 'a b'"]);
        assert_eq!(
            c[0].cwd.as_deref(),
            Some(format!("{}/gen", d.path().display()).as_str())
        );
        assert_eq!(c[0].env, vec![("VALUE".to_string(), "7".to_string())]);
        assert_eq!(c[1].program, "cc");
        assert_eq!(c[1].args, vec!["-g", "x.c"]);
        assert_eq!(c[1].label, "compile (cc -g x.c)");
    }

    #[test]
    fn errors_name_the_task() {
        let d = ws();
        let e = commands(d.path(), "loop1", None).unwrap_err();
        assert!(e.contains("loop1 → loop2 → loop1"), "{e}");
        let e = commands(d.path(), "nope", None).unwrap_err();
        assert!(e.contains("\"nope\"") && e.contains("\"gen\""), "{e}");
        let e = commands(d.path(), "ra", None).unwrap_err();
        assert!(e.contains("\"cargo\""), "{e}");
    }
}
