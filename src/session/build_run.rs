//! Runs a build step: each command as a child in a process group of its
//! own, through the keeper, killed with its group when the build is dropped
//! (a restart, the session's end) or its deadline passes. Its lines go to
//! `say` as they come; the progress lines are said here too.

use std::path::PathBuf;
use std::time::Instant;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::process::Command;

use super::build::{BuildCommand, BuildStep, CargoPick};
use crate::dap::process::AdapterProcess;

/// Where a line of the build's output goes.
pub type Say = std::sync::Arc<dyn Fn(String) + Send + Sync>;

/// The built program when the build names it (cargo's messages), or why
/// the build failed.
pub async fn run(step: BuildStep, say: Say) -> Result<Option<PathBuf>, String> {
    let started = Instant::now();
    let deadline = tokio::time::Instant::now() + step.timeout;
    let mut program = None;
    for (i, c) in step.commands.iter().enumerate() {
        let n = step.commands.len();
        let which = if n > 1 {
            format!(" ({} of {n})", i + 1)
        } else {
            String::new()
        };
        say(format!("▶ building{which}: {}\n", c.label));
        let run = run_one(c, say.clone());
        let ended = match tokio::time::timeout_at(deadline, run).await {
            Ok(ended) => ended,
            Err(_) => {
                let why = format!(
                    "the build took longer than its {} s deadline and was stopped",
                    step.timeout.as_secs()
                );
                say(format!("✗ {why}\n"));
                return Err(why);
            }
        };
        match ended {
            Ok(built) => program = built.or(program),
            Err(why) => {
                say(format!(
                    "✗ build failed after {:.1} s: {why}\n",
                    started.elapsed().as_secs_f64()
                ));
                return Err(why);
            }
        }
    }
    let named = program
        .as_ref()
        .map(|p| format!(": {}", p.display()))
        .unwrap_or_default();
    say(format!(
        "✓ built in {:.1} s{named}\n",
        started.elapsed().as_secs_f64()
    ));
    Ok(program)
}

async fn run_one(c: &BuildCommand, say: Say) -> Result<Option<PathBuf>, String> {
    let mut cmd = Command::new(&c.program);
    cmd.args(&c.args)
        .current_dir(&c.cwd)
        .envs(c.env.iter().cloned());
    if c.cargo.is_some() {
        cmd.arg("--message-format=json");
    }
    // The adapters' process handling is what a build needs too: a group of
    // its own, the keeper's watch, and a kill of the whole tree on drop.
    let (mut process, stdout, stderr) = AdapterProcess::spawn_with_output(cmd, None)
        .map_err(|e| format!("cannot start {}: {e}", c.program))?;
    let out = lines(stdout, say.clone(), c.cargo.is_some());
    let err = lines(stderr, say, false);
    let (built, _) = futures::future::join(out, err).await;
    let status = process
        .wait_status()
        .await
        .map_err(|e| format!("cannot wait for {}: {e}", c.program))?;
    if !status.success() {
        return Err(match status.code() {
            Some(code) => format!("{} exited with status {code}", c.label),
            None => format!("{} was killed", c.label),
        });
    }
    match &c.cargo {
        Some(pick) => pick_executable(pick, built).map(Some),
        None => Ok(None),
    }
}

/// The one executable `pick` names among those cargo built: several, or
/// none, is an error, never a guess.
fn pick_executable(pick: &CargoPick, built: Vec<Artifact>) -> Result<PathBuf, String> {
    let mut found: Vec<Artifact> = built
        .into_iter()
        .filter(|a| pick.name.as_ref().is_none_or(|n| *n == a.name))
        .filter(|a| pick.kind.as_ref().is_none_or(|k| a.kinds.contains(k)))
        .collect();
    found.dedup_by(|a, b| a.executable == b.executable);
    match found.len() {
        1 => Ok(found.remove(0).executable),
        0 => Err("cargo built no executable that cargo.filter names (no compiler-artifact message named one)".into()),
        _ => {
            let names: Vec<String> = found
                .iter()
                .map(|a| format!("{} ({})", a.name, a.kinds.join(", ")))
                .collect();
            Err(format!(
                "cargo built {} executables: {}; give cargo.filter {{\"name\", \"kind\"}} to pick one",
                found.len(),
                names.join(", ")
            ))
        }
    }
}

/// An executable cargo built.
#[derive(Debug, Clone, PartialEq)]
struct Artifact {
    name: String,
    kinds: Vec<String>,
    executable: PathBuf,
}

/// Says each line; with `cargo`, reads its JSON messages instead: the
/// compiler's rendered diagnostics are said, and the executables kept.
async fn lines(reader: impl AsyncRead + Unpin, say: Say, cargo: bool) -> Vec<Artifact> {
    let mut reader = BufReader::new(reader);
    let mut buf = Vec::new();
    let mut built = vec![];
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf).await {
            Ok(0) | Err(_) => return built,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf).into_owned();
        if !cargo {
            say(line);
            continue;
        }
        match cargo_message(&line) {
            Some(CargoMessage::Said(text)) => say(text),
            Some(CargoMessage::Executable(a)) => built.push(a),
            Some(CargoMessage::Other) => {}
            None => say(line),
        }
    }
}

enum CargoMessage {
    Said(String),
    Executable(Artifact),
    Other,
}

/// One line of `cargo --message-format=json`; None when it is not JSON.
fn cargo_message(line: &str) -> Option<CargoMessage> {
    let v: serde_json::Value = serde_json::from_str(line.trim()).ok()?;
    let reason = v.get("reason")?.as_str()?;
    Some(match reason {
        "compiler-message" => match v.pointer("/message/rendered").and_then(|r| r.as_str()) {
            Some(text) => CargoMessage::Said(text.to_string()),
            None => CargoMessage::Other,
        },
        "compiler-artifact" => match v.get("executable").and_then(|e| e.as_str()) {
            Some(exe) => CargoMessage::Executable(Artifact {
                name: v
                    .pointer("/target/name")
                    .and_then(|n| n.as_str())
                    .unwrap_or_default()
                    .to_string(),
                kinds: v
                    .pointer("/target/kind")
                    .and_then(|k| k.as_array())
                    .map(|k| {
                        k.iter()
                            .filter_map(|x| x.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default(),
                executable: PathBuf::from(exe),
            }),
            None => CargoMessage::Other,
        },
        _ => CargoMessage::Other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_messages_give_the_executable_and_the_rendered_errors() {
        let exe = r#"{"reason":"compiler-artifact","target":{"name":"inv","kind":["bin"]},"executable":"/w/target/debug/inv","fresh":false}"#;
        let Some(CargoMessage::Executable(inv)) = cargo_message(exe) else {
            panic!("an executable")
        };
        assert_eq!(inv.executable, std::path::Path::new("/w/target/debug/inv"));
        assert_eq!(inv.kinds, vec!["bin"]);
        let other = Artifact {
            name: "tool".into(),
            ..inv.clone()
        };
        let other = Artifact {
            executable: "/w/target/debug/tool".into(),
            ..other
        };
        let both = vec![inv.clone(), other];
        let e = pick_executable(&CargoPick::default(), both.clone()).unwrap_err();
        assert!(
            e.contains("2 executables") && e.contains("cargo.filter"),
            "{e}"
        );
        let named = CargoPick {
            name: Some("inv".into()),
            kind: Some("bin".into()),
        };
        assert_eq!(pick_executable(&named, both).unwrap(), inv.executable);
        let lib = r#"{"reason":"compiler-artifact","target":{"name":"dep","kind":["lib"]},"executable":null}"#;
        assert!(matches!(cargo_message(lib), Some(CargoMessage::Other)));
        let msg = r#"{"reason":"compiler-message","message":{"rendered":"error: expected `;`\n --> src/main.rs:3:14\n"}}"#;
        assert!(
            matches!(cargo_message(msg), Some(CargoMessage::Said(t)) if t.contains("src/main.rs:3:14"))
        );
        assert!(cargo_message("   Compiling inv v0.1.0\n").is_none());
    }
}
