//! Runs a build step: each command as a child in a process group of its
//! own, through the keeper, killed with its group when the build is dropped
//! (a restart, the session's end) or its deadline passes. Its lines go to
//! `say` as they come; the progress lines are said here too.

use std::path::PathBuf;
use std::time::Instant;

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::process::Command;

use super::build::{BuildCommand, BuildStep};
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
        let run = run_one(c, step.cargo, say.clone());
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
    if step.cargo && program.is_none() {
        let why = "cargo built no executable (no compiler-artifact message named one); give cargo.args that build a binary".to_string();
        say(format!("✗ {why}\n"));
        return Err(why);
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

async fn run_one(c: &BuildCommand, cargo: bool, say: Say) -> Result<Option<PathBuf>, String> {
    let mut cmd = Command::new(&c.program);
    cmd.args(&c.args)
        .current_dir(&c.cwd)
        .envs(c.env.iter().cloned());
    if cargo {
        cmd.arg("--message-format=json");
    }
    // The adapters' process handling is what a build needs too: a group of
    // its own, the keeper's watch, and a kill of the whole tree on drop.
    let (mut process, stdout, stderr) = AdapterProcess::spawn_with_output(cmd, None)
        .map_err(|e| format!("cannot start {}: {e}", c.program))?;
    let out = lines(stdout, say.clone(), cargo);
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
    Ok(built)
}

/// Says each line; with `cargo`, reads its JSON messages instead: the
/// compiler's rendered diagnostics are said, and the last artifact that
/// is an executable is the program.
async fn lines(reader: impl AsyncRead + Unpin, say: Say, cargo: bool) -> Option<PathBuf> {
    let mut reader = BufReader::new(reader);
    let mut buf = Vec::new();
    let mut program = None;
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf).await {
            Ok(0) | Err(_) => return program,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf).into_owned();
        if !cargo {
            say(line);
            continue;
        }
        match cargo_message(&line) {
            Some(CargoMessage::Said(text)) => say(text),
            Some(CargoMessage::Executable(p)) => program = Some(p),
            Some(CargoMessage::Other) => {}
            None => say(line),
        }
    }
}

enum CargoMessage {
    Said(String),
    Executable(PathBuf),
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
            Some(exe) => CargoMessage::Executable(PathBuf::from(exe)),
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
        assert!(
            matches!(cargo_message(exe), Some(CargoMessage::Executable(p)) if p == std::path::Path::new("/w/target/debug/inv"))
        );
        let lib = r#"{"reason":"compiler-artifact","target":{"name":"dep","kind":["lib"]},"executable":null}"#;
        assert!(matches!(cargo_message(lib), Some(CargoMessage::Other)));
        let msg = r#"{"reason":"compiler-message","message":{"rendered":"error: expected `;`\n --> src/main.rs:3:14\n"}}"#;
        assert!(
            matches!(cargo_message(msg), Some(CargoMessage::Said(t)) if t.contains("src/main.rs:3:14"))
        );
        assert!(cargo_message("   Compiling inv v0.1.0\n").is_none());
    }
}
