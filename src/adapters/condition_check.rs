//! A breakpoint condition compiled, not run, by the language's own
//! interpreter when it is set, so one that does not parse is refused with
//! the parser's message instead of failing at every hit.

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
