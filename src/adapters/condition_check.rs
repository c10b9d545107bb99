//! A breakpoint condition compiled, not run, by the language's own
//! interpreter when it is set, so one that does not parse is refused with
//! the parser's message instead of failing at every hit.

use std::path::Path;
use std::process::Stdio;

use tokio::io::AsyncWriteExt;
use tokio::process::Command;

/// Runs `interpreter` (a command that compiles its last argument and, when
/// that fails, prints why and exits non-zero) on `condition`. `language`
/// names the expression's language in the refusal.
pub async fn compile_with(
    mut interpreter: Command,
    condition: String,
    language: &str,
) -> Result<(), String> {
    let out = interpreter.arg(&condition).output().await;
    match out {
        // Without an interpreter to ask, the adapter judges it itself.
        Err(_) => Ok(()),
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => {
            let msg = String::from_utf8_lossy(&o.stdout).trim().to_string();
            Err(format!(
                "{condition:?} is not a {language} expression: {msg}"
            ))
        }
    }
}

/// A parser that reads the condition, wrapped in `source`, on stdin.
/// Its stderr when it refused `source`; None when it accepted it
/// or did not run.
pub async fn refusal(program: &Path, args: &[&str], source: &str) -> Option<String> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .ok()?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(source.as_bytes()).await;
    }
    let out = child.wait_with_output().await.ok()?;
    (!out.status.success()).then(|| String::from_utf8_lossy(&out.stderr).into_owned())
}
