//! A launch configuration's `preLaunchTask`, from VS Code's
//! `.vscode/tasks.json`: shell and process tasks with their `options`
//! (`cwd`, `env`), the tasks they `dependsOn` run first, each once.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::Value;

use super::build::BuildCommandRequest;
use super::launch_json::substitute;

pub const PATH: &str = ".vscode/tasks.json";

/// How deep `dependsOn` may go: VS Code's own tasks chain a handful.
pub const MAX_DEPENDS_DEPTH: usize = 32;
/// How many tasks one `preLaunchTask` may run, its dependencies included.
pub const MAX_TASKS_RUN: usize = 100;

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
    from_text(&text, workspace, label, file)
}

/// As `commands`, for the tasks.json text already read.
pub fn from_text(
    text: &str,
    workspace: &Path,
    label: &str,
    file: Option<&str>,
) -> Result<Vec<BuildCommandRequest>, String> {
    let mut doc: Value = jsonc_parser::parse_to_serde_value(text, &Default::default())
        .map_err(|e| format!("{PATH}: {e}"))?;
    substitute(&mut doc, workspace, file)?;
    let tasks = doc
        .get("tasks")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    // The first task of a label is the one run, as VS Code picks it.
    let mut by_label: HashMap<&str, &Value> = HashMap::new();
    for t in tasks {
        if let Some(l) = t.get("label").and_then(Value::as_str) {
            by_label.entry(l).or_insert(t);
        }
    }
    let global = doc.get("options").unwrap_or(&Value::Null);
    let mut walk = Walk {
        tasks,
        by_label,
        global,
        path: vec![],
        done: HashSet::new(),
        out: vec![],
    };
    walk.add(label)?;
    Ok(walk.out)
}

struct Walk<'a> {
    tasks: &'a [Value],
    by_label: HashMap<&'a str, &'a Value>,
    global: &'a Value,
    path: Vec<String>,
    done: HashSet<String>,
    out: Vec<BuildCommandRequest>,
}

impl Walk<'_> {
    fn add(&mut self, label: &str) -> Result<(), String> {
        if self.done.contains(label) {
            return Ok(());
        }
        if self.path.iter().any(|p| p == label) {
            self.path.push(label.to_string());
            return Err(format!(
                "{PATH}: dependsOn goes round: {}",
                self.path.join(" → ")
            ));
        }
        if self.path.len() >= MAX_DEPENDS_DEPTH {
            return Err(format!(
                "{PATH}: dependsOn of {:?} goes deeper than {MAX_DEPENDS_DEPTH} tasks",
                self.path[0]
            ));
        }
        let task = *self.by_label.get(label).ok_or_else(|| {
            let labels: Vec<&str> = self
                .tasks
                .iter()
                .filter_map(|t| t.get("label").and_then(Value::as_str))
                .take(20)
                .collect();
            format!("{PATH} has no task {label:?}; it has {labels:?}")
        })?;
        self.path.push(label.to_string());
        let depends: Vec<&str> = match task.get("dependsOn") {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        // VS Code may run them side by side; one after another is what a
        // person can follow in the output, and as correct.
        for d in depends {
            self.add(d)?;
        }
        self.path.pop();
        self.done.insert(label.to_string());
        if let Some(c) = command(task, self.global, label)? {
            if self.out.len() >= MAX_TASKS_RUN {
                return Err(format!(
                    "{PATH}: preLaunchTask {:?} runs more than {MAX_TASKS_RUN} tasks",
                    self.path.first().map(String::as_str).unwrap_or(label)
                ));
            }
            self.out.push(c);
        }
        Ok(())
    }
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

    fn chain(n: usize) -> String {
        let tasks: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"label": "t{i}", "type": "shell", "command": "true", "dependsOn": "t{}"}}"#,
                    i + 1
                )
            })
            .chain(std::iter::once(format!(
                r#"{{"label": "t{n}", "type": "shell", "command": "true"}}"#
            )))
            .collect();
        format!(r#"{{"tasks": [{}]}}"#, tasks.join(","))
    }

    #[test]
    fn a_chain_past_the_limit_is_refused_by_name_not_by_the_stack() {
        let d = tempfile::tempdir().unwrap();
        let ok = from_text(&chain(MAX_DEPENDS_DEPTH - 1), d.path(), "t0", None).unwrap();
        assert_eq!(ok.len(), MAX_DEPENDS_DEPTH);
        let e = from_text(&chain(100_000), d.path(), "t0", None).unwrap_err();
        assert!(
            e.contains("dependsOn of \"t0\" goes deeper than 32 tasks"),
            "{e}"
        );
    }

    #[test]
    fn a_task_that_gathers_too_many_is_refused_with_the_limit() {
        let d = tempfile::tempdir().unwrap();
        let n = 20_000;
        let tasks: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"label": "t{i}", "type": "process", "command": "true"}}"#))
            .collect();
        let all: Vec<String> = (0..n).map(|i| format!("\"t{i}\"")).collect();
        let text = format!(
            r#"{{"tasks": [{}, {{"label": "all", "dependsOn": [{}]}}]}}"#,
            tasks.join(","),
            all.join(",")
        );
        let e = from_text(&text, d.path(), "all", None).unwrap_err();
        assert!(
            e.contains("preLaunchTask \"all\" runs more than 100 tasks"),
            "{e}"
        );
    }
}
