//! Installing an adapter from Debian's packages: as root it runs apt-get;
//! otherwise it says the exact command to run.

use tokio::process::Command;

use super::AdapterError;

/// Runs `apt-get update` then `install` (an `apt-get install -y ...` line)
/// as root; not as root, the error names the command with sudo.
pub async fn install(what: &str, install: &str) -> Result<(), AdapterError> {
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Err(AdapterError::Missing {
            what: format!("{what} is not installed and installing it needs root"),
            fix: format!("sudo apt-get update && sudo {install}"),
        });
    }
    let out = Command::new("sh")
        .args(["-c", &format!("apt-get update -qq && {install} -qq")])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .output()
        .await
        .map_err(|e| AdapterError::NotFound(format!("cannot run apt-get: {e}")))?;
    if out.status.success() {
        return Ok(());
    }
    Err(failed(
        &format!("apt-get could not install {what}"),
        &out,
        install,
    ))
}

/// An installer that ran and failed: what failed, its exit status and the
/// last line it wrote on stderr, with the command that installs by hand.
pub(super) fn failed(what: &str, out: &std::process::Output, fix: &str) -> AdapterError {
    let err = String::from_utf8_lossy(&out.stderr);
    let last = err.lines().rev().find(|l| !l.trim().is_empty());
    AdapterError::Missing {
        what: format!("{what} ({}): {}", out.status, last.unwrap_or("").trim()),
        fix: fix.into(),
    }
}
