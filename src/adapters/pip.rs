//! A Python package an adapter needs, checked and installed with the
//! interpreter's own pip.

use std::path::Path;

use tokio::process::Command;

use super::AdapterError;

/// The command that installs `package` for `python`.
pub fn install_command(python: &Path, package: &str) -> String {
    format!("{} -m pip install {package}", python.display())
}

/// The version of `package` (imported as `module`) under `python`, or the
/// command that installs it.
pub async fn version(python: &Path, package: &str, module: &str) -> Result<String, AdapterError> {
    let out = Command::new(python)
        .args([
            "-c",
            &format!("import {module}; print({module}.__version__)"),
        ])
        .output()
        .await
        .map_err(|e| AdapterError::NotFound(format!("cannot run {}: {e}", python.display())))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    } else {
        Err(AdapterError::Missing {
            what: format!("{package} is not installed for {}", python.display()),
            fix: install_command(python, package),
        })
    }
}

/// Installs `package` with `python`'s pip, then says its version.
pub async fn install(python: &Path, package: &str, module: &str) -> Result<String, AdapterError> {
    let run = |extra: &'static [&'static str]| {
        let mut cmd = Command::new(python);
        cmd.args(["-m", "pip", "install", "--quiet"])
            .args(extra)
            .arg(package);
        async move { cmd.output().await }
    };
    let mut out = run(&[])
        .await
        .map_err(|e| AdapterError::NotFound(format!("cannot run {}: {e}", python.display())))?;
    // A distribution's Python refuses system-wide installs (PEP 668); the
    // user's own site-packages is the least intrusive place then.
    if !out.status.success() && String::from_utf8_lossy(&out.stderr).contains("externally-managed")
    {
        out = run(&["--user", "--break-system-packages"])
            .await
            .map_err(|e| AdapterError::NotFound(format!("cannot run {}: {e}", python.display())))?;
    }
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim();
        return Err(AdapterError::Missing {
            what: format!("pip could not install {package} ({}): {last}", out.status),
            fix: install_command(python, package),
        });
    }
    version(python, package, module).await
}
